// CPU-only (no GPU needed): NVRTC builds of every CUDA variant x precision x a sample of
// tunables for Hopper (sm_90) and Orin (sm_87), the fallback for Xavier (sm_72), and the
// ptxas report parser on captured log text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {
namespace {

// Captured from CUDA 13.0's NVRTC (--ptxas-options=-v), two entries, one with shared memory.
const char* kCapturedLog =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'ft_a' for 'sm_90'\n"
    "ptxas info    : Function properties for ft_a\n"
    "ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n"
    "ptxas info    : Used 40 registers, used 1 barriers, 6144 bytes smem\n"
    "ptxas info    : Compile time = 3.035 ms\n"
    "ptxas info    : Compiling entry function 'ft_b' for 'sm_90'\n"
    "ptxas info    : Function properties for ft_b\n"
    "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 8 registers, used 0 barriers\n";

TEST(PtxasLog, ParsesEveryEntryOfACapturedLog) {
  const auto r = parse_ptxas_log(kCapturedLog);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].kernel, "ft_a");
  EXPECT_EQ(r[0].built_for, "sm_90");
  EXPECT_EQ(r[0].registers_per_thread, 40);
  EXPECT_EQ(r[0].static_shared_bytes, 6144);
  EXPECT_EQ(r[0].local_bytes, 16);
  EXPECT_EQ(r[0].spill_bytes, 20);
  EXPECT_EQ(r[1].kernel, "ft_b");
  EXPECT_EQ(r[1].registers_per_thread, 8);
  EXPECT_EQ(r[1].static_shared_bytes, 0);
  EXPECT_EQ(r[1].spill_bytes, 0);
}

TEST(PtxasLog, IgnoresUnrelatedText) {
  EXPECT_TRUE(parse_ptxas_log("warning: nothing\n").empty());
}

TEST(NvrtcTarget, FallsBackToSm75BelowTuring) {
  bool fb = true;
  EXPECT_EQ(nvrtc_target_arch("sm_90", &fb), "sm_90");
  EXPECT_FALSE(fb);
  EXPECT_EQ(nvrtc_target_arch("sm_72", &fb), "sm_75");
  EXPECT_TRUE(fb);
  EXPECT_EQ(nvrtc_target_arch("sm_53", &fb), "sm_75");
  EXPECT_TRUE(fb);
  EXPECT_THROW(nvrtc_target_arch("volta", &fb), std::invalid_argument);
}

struct Sample {
  std::string variant;
  std::map<std::string, int> tunables;
  std::vector<std::string> kernels;
  int static_shared_per_thread_bytes_f32;  // expected smem per thread in f32 (0: none)
};

std::vector<Sample> samples() {
  return {
      {"global", {{"block_x", 32}, {"block_y", 4}}, {"ft_global_u", "ft_global_p"}, 0},
      {"global", {{"block_x", 128}, {"block_y", 8}}, {"ft_global_u", "ft_global_p"}, 0},
      // p1, p2, u_new: three float2 per thread.
      {"shared_fusion", {{"block_x", 32}, {"block_y", 8}}, {"ft_shared_fusion"}, 24},
      {"shared_fusion", {{"block_x", 64}, {"block_y", 16}}, {"ft_shared_fusion"}, 24},
  };
}

TEST(NvrtcBuild, EveryVariantPrecisionAndSampleCompilesForHopperAndOrin) {
  for (const auto& s : samples()) {
    const Variant* v = find_variant(s.variant);
    ASSERT_NE(v, nullptr) << s.variant;
    for (const auto& precision : v->precisions()) {
      for (const std::string arch : {"sm_90", "sm_87"}) {
        Config c;
        c.variant = s.variant;
        c.precision = precision;
        c.tunables = s.tunables;
        SCOPED_TRACE(c.label() + " " + arch);
        ASSERT_FALSE(v->invalid_reason(c).has_value());
        auto res = v->resources(c, arch);
        // ptxas reports the entries in an order of its own: compare by name.
        std::sort(res.begin(), res.end(), [](const KernelResources& a, const KernelResources& b) {
          return a.kernel < b.kernel;
        });
        auto names = s.kernels;
        std::sort(names.begin(), names.end());
        ASSERT_EQ(res.size(), s.kernels.size());
        const int threads = s.tunables.at("block_x") * s.tunables.at("block_y");
        for (std::size_t k = 0; k < res.size(); ++k) {
          EXPECT_EQ(res[k].kernel, names[k]);
          std::printf("[resources] %s %s %s: %d registers, %d B smem, %d B stack, %d B spills\n",
                      c.label().c_str(), arch.c_str(), res[k].kernel.c_str(),
                      res[k].registers_per_thread, res[k].static_shared_bytes, res[k].local_bytes,
                      res[k].spill_bytes);
          EXPECT_GT(res[k].registers_per_thread, 0);
          EXPECT_LE(res[k].registers_per_thread, 255);
          EXPECT_EQ(res[k].threads_per_block, threads);
          EXPECT_EQ(res[k].built_for, arch);
          EXPECT_FALSE(res[k].estimated);
          // f32 holds float2 in shared memory; f16 half2; mixed computes (and shares) float2.
          const int per_thread = precision == "f16" ? s.static_shared_per_thread_bytes_f32 / 2
                                                    : s.static_shared_per_thread_bytes_f32;
          EXPECT_EQ(res[k].static_shared_bytes, per_thread * threads);
        }
      }
    }
  }
}

TEST(NvrtcBuild, XavierIsAnEstimateBuiltForSm75) {
  Config c;
  c.variant = "global";
  c.precision = "f16";
  c.tunables = {{"block_x", 32}, {"block_y", 8}};
  const auto res = find_variant("global")->resources(c, "sm_72");
  ASSERT_EQ(res.size(), 2u);
  for (const auto& r : res) {
    EXPECT_TRUE(r.estimated);
    EXPECT_EQ(r.built_for, "sm_75");
    EXPECT_GT(r.registers_per_thread, 0);
  }
}

TEST(NvrtcBuild, InvalidConfigsAreRejectedWithAReason) {
  Config c;
  c.variant = "shared_fusion";
  c.precision = "f32";
  c.tunables = {{"block_x", 64}, {"block_y", 32}};
  const auto why = find_variant("shared_fusion")->invalid_reason(c);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("1024"), std::string::npos);
  EXPECT_THROW(find_variant("shared_fusion")->resources(c, "sm_90"), std::invalid_argument);
  c.precision = "f64";
  EXPECT_TRUE(find_variant("shared_fusion")->invalid_reason(c).has_value());
}

TEST(NvrtcBuild, CompileErrorsCarryTheLog) {
  try {
    nvrtc_build("tvl1_global.cuh", {"FT_PRECISION_F32"}, "sm_90");  // no block size
    FAIL() << "expected a build failure";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("FT_BLOCK_X required"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace flowtune::cuda
