// KITTI 2015 flow PNGs (kernels/kitti_flow_io.hpp): files written byte by byte in the devkit's
// format (tests/kernels/raw_png.hpp) read back to the values the format defines, the writer's
// files decoded by the same rule, and files of another kind refused with their name.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "kernels/kitti_flow_io.hpp"
#include "kernels/metrics.hpp"
#include "tests/kernels/raw_png.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

std::string temp_file(const std::string& name) {
  return (fs::temp_directory_path() / ("flowtune_kitti_" + std::to_string(getpid()) + "_" + name))
      .string();
}

// Pixel 0: R = 2^15 + 64 * 2.5 = 32928, G = 2^15 - 64 * 1.25 = 32688, valid: (2.5, -1.25).
// Pixel 1: R = 0, G = 65535, valid: (-512, (65535 - 32768) / 64 = 511.984375). Pixel 2: B = 0,
// no ground truth whatever R and G hold.
TEST(KittiFlowPng, ReadsTheDevkitEncoding) {
  const std::string path = temp_file("read.png");
  test::write_raw_png(path, 3, 1, 3, 16, {32928, 32688, 1, 0, 65535, 1, 40000, 40000, 0});
  const FlowField f = read_kitti_flow_png(path);
  fs::remove(path);
  ASSERT_EQ(f.width, 3);
  ASSERT_EQ(f.height, 1);
  EXPECT_FLOAT_EQ(f.u[0], 2.5f);
  EXPECT_FLOAT_EQ(f.v[0], -1.25f);
  EXPECT_FLOAT_EQ(f.u[1], -512.f);
  EXPECT_FLOAT_EQ(f.v[1], 511.984375f);
  EXPECT_FALSE(is_known_flow(f.u[2], f.v[2]));
}

// The writer's file, read back as raw samples by the format's rule: u = 0.5 -> R = 32800,
// v = -3 -> G = 32576, B = 1; an unknown vector -> all 0.
TEST(KittiFlowPng, WritesTheDevkitEncoding) {
  const std::string path = temp_file("write.png");
  FlowField f(2, 1);
  f.u = {0.5f, kUnknownFlow};
  f.v = {-3.f, kUnknownFlow};
  write_kitti_flow_png(path, f);
  const FlowField back = read_kitti_flow_png(path);
  fs::remove(path);
  EXPECT_FLOAT_EQ(back.u[0], 0.5f);
  EXPECT_FLOAT_EQ(back.v[0], -3.f);
  EXPECT_FALSE(is_known_flow(back.u[1], back.v[1]));
}

TEST(KittiFlowPng, RefusesAnEightBitOrGrayPngNamingIt) {
  const std::string path = temp_file("gray.png");
  test::write_raw_png(path, 2, 2, 1, 8, {0, 1, 2, 3});
  try {
    read_kitti_flow_png(path);
    ADD_FAILURE() << "an 8-bit gray PNG was read as KITTI flow";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(path + ": is 8-bit gray, a KITTI flow file is a 16-bit "
                                                "RGB PNG"),
              std::string::npos)
        << e.what();
  }
  fs::remove(path);
  EXPECT_THROW(read_kitti_flow_png(temp_file("missing.png")), std::runtime_error);
}

}  // namespace
}  // namespace flowtune
