// The exported tuned header compiles the CUDA kernels as they are: a .cu that includes the
// header and then the variant's kernel file (kernels/cuda/*.cuh), built by nvcc for sm_90,
// in f32, f16 and mixed. Skips when the build found no nvcc (FLOWTUNE_TEST_NVCC empty).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string>

#include "select/export_selection.hpp"
#include "select/tuned_header.hpp"
#include "tests/source_root.hpp"

#ifndef FLOWTUNE_TEST_NVCC
#define FLOWTUNE_TEST_NVCC ""
#endif

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

struct KernelCase {
  std::string workload, variant, precision;
  std::map<std::string, int> tunables;
};

// The case in test names and messages: "global f32".
void PrintTo(const KernelCase& k, std::ostream* os) {
  *os << k.variant << " " << k.precision;
}

class TunedHeaderNvcc : public ::testing::TestWithParam<KernelCase> {};

TEST_P(TunedHeaderNvcc, KernelCompilesForSm90WithTheHeaderIncludedFirst) {
  const std::string nvcc = FLOWTUNE_TEST_NVCC;
  if (nvcc.empty() || !fs::exists(nvcc)) GTEST_SKIP() << "no nvcc found when configuring";
  const KernelCase& k = GetParam();
  db::MeasuredConfig mc;
  mc.config.board = "h200";
  mc.config.workload = k.workload;
  mc.config.variant = k.variant;
  mc.config.precision = k.precision;
  mc.config.tunables = k.tunables;
  if (k.workload == "tvl1")
    mc.config.params = {{"iterations", 30}, {"n_scales", 0}, {"n_warpings", 5},
                        {"zoom", 0.5},      {"epsilon", 0},  {"tau", 0.25},
                        {"lambda", 0.15},   {"theta", 0.3},  {"presmoothing_sigma", 0.8}};
  mc.config.key = db::config_key(mc.config);
  mc.measurement.dataset = "test";
  const Objective time{"time_ms", "ms", true};
  const fs::path dir = fs::temp_directory_path() / ("flowtune_test_nvcc_" + k.variant + "_" +
                                                    k.precision + "_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  {
    std::ofstream out(dir / "tuned.h");
    out << tuned_header_text(mc, "h200", time);
  }
  // Included by its path in the tree and -I the tree this test runs in, never by the build
  // host's absolute path (the device copy is elsewhere).
  const std::string kernel =
      "kernels/cuda/" + std::string(k.workload == "tvl1" ? "tvl1_" : "apsp_") + k.variant + ".cuh";
  const fs::path root = test::source_root_holding(kernel);
  ASSERT_FALSE(root.empty()) << kernel << " not found";
  {
    std::ofstream out(dir / "kernel.cu");
    out << "#include \"tuned.h\"\n#include \"" << kernel << "\"\n";
  }
  const std::string cmd = "\"" + nvcc + "\" -std=c++17 -arch=sm_90 -I\"" + root.string() +
                          "\" -c " + (dir / "kernel.cu").string() + " -o " +
                          (dir / "kernel.o").string() + " > " + (dir / "log.txt").string() +
                          " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream log(dir / "log.txt");
  const std::string log_text((std::istreambuf_iterator<char>(log)), {});
  EXPECT_EQ(rc, 0) << cmd << "\n" << log_text;
  EXPECT_TRUE(fs::exists(dir / "kernel.o"));
  fs::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(
    EachPrecision, TunedHeaderNvcc,
    ::testing::Values(
        KernelCase{"tvl1", "global", "f32", {{"block_x", 32}, {"block_y", 8}}},
        KernelCase{"tvl1", "shared_fusion", "f16", {{"block_x", 32}, {"block_y", 8}}},
        KernelCase{"tvl1",
                   "global_pipeline",
                   "mixed",
                   {{"w", 128}, {"parts", 1}, {"depth", 4}, {"skew", 1}, {"strip_h", 32}}},
        KernelCase{
            "tvl1",
            "shared_pipeline",
            "f16",
            {{"w", 256}, {"parts", 2}, {"depth", 8}, {"skew", 2}, {"strip_h", 64}, {"optin", 0}}},
        KernelCase{"apsp", "fw_tiled", "i32", {{"tile", 64}, {"block_x", 32}, {"block_y", 8}}}),
    [](const ::testing::TestParamInfo<KernelCase>& param_info) {
      return param_info.param.variant + "_" + param_info.param.precision;
    });

}  // namespace
}  // namespace flowtune::reports
