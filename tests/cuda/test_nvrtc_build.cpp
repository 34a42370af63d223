// CPU-only (no GPU needed): NVRTC builds of every CUDA variant x precision x a sample of
// tunables for Hopper (sm_90) and Orin (sm_87), the fallback for Xavier (sm_72), and the
// ptxas report parser on captured log text.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "boards/board.hpp"
#include "tuner/constraints.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/tiled_levels.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

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

// NVRTC 12.9+ answers a hit in its own cache with an empty log (no ptxas report): our builds
// turn it off (seen on an H200 box: resources() empty for a build served in 50 ms).
TEST(NvrtcOptions, TurnOffNvrtcsOwnCacheWhereItExists) {
  const auto has = [](const std::vector<std::string>& o, const std::string& x) {
    return std::find(o.begin(), o.end(), x) != o.end();
  };
  for (const auto& [major, minor] : std::vector<std::pair<int, int>>{{12, 9}, {13, 0}, {13, 2}}) {
    const auto o = nvrtc_options("sm_90", major, minor);
    EXPECT_TRUE(has(o, "--no-cache")) << major << "." << minor;
    EXPECT_TRUE(has(o, "--ptxas-options=-v"));
    EXPECT_TRUE(has(o, "--gpu-architecture=sm_90"));
  }
  for (const auto& [major, minor] : std::vector<std::pair<int, int>>{{12, 8}, {11, 8}})
    EXPECT_FALSE(has(nvrtc_options("sm_90", major, minor), "--no-cache")) << major << "." << minor;
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
      // The pipelines' ring is dynamic shared memory (shared_pipeline) or global scratch.
      {"shared_pipeline",
       {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 64}, {"optin", 0}},
       {"ft_shared_pipeline"},
       0},
      {"shared_pipeline",
       {{"w", 512}, {"parts", 2}, {"depth", 8}, {"skew", 1}, {"strip_h", 32}, {"optin", 1}},
       {"ft_shared_pipeline"},
       0},
      {"global_pipeline",
       {{"w", 128}, {"parts", 2}, {"depth", 3}, {"skew", 2}, {"strip_h", 32}},
       {"ft_global_pipeline"},
       0},
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
        // Pipelines: w / parts threads, halved in f16 (two pixels per thread column).
        const int threads =
            s.tunables.count("w")
                ? s.tunables.at("w") / s.tunables.at("parts") / (precision == "f16" ? 2 : 1)
                : s.tunables.at("block_x") * s.tunables.at("block_y");
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

TEST(PipelineVariants, RingBytesAndLaunchShapeFollowTheRingLayout) {
  // 4 pair planes + 1 scalar plane, depth + 1 lines of w: f32 (8 + 8 + 8 + 8 + 4) * 128 * 6.
  EXPECT_EQ(pipeline_ring_bytes("f32", 128, 5, 1), 36 * 128 * 6);
  EXPECT_EQ(pipeline_ring_bytes("f16", 128, 5, 1), 18 * 128 * 6);
  EXPECT_EQ(pipeline_ring_bytes("mixed", 256, 7, 1), 18 * 256 * 8);
  EXPECT_EQ(pipeline_ring_bytes("f16", 128, 5, 2), 18 * 128 * 11);  // skew 2: 2P + 1 lines
  EXPECT_THROW(pipeline_ring_bytes("f64", 128, 5, 1), std::invalid_argument);
  EXPECT_THROW(pipeline_ring_bytes("f32", 128, 5, 3), std::invalid_argument);
  Config c;
  c.variant = "shared_pipeline";
  c.precision = "f32";
  c.tunables = {{"w", 256}, {"parts", 2}, {"depth", 5}, {"skew", 1}, {"strip_h", 32}, {"optin", 1}};
  const auto& sp = shared_pipeline_variant();
  EXPECT_EQ(sp.launch_shape(c).threads_per_block, 128);              // w / parts
  EXPECT_EQ(sp.launch_shape(c).dynamic_shared_bytes, 36 * 256 * 6);  // 55296 > 48 KiB
  EXPECT_FALSE(sp.invalid_reason(c).has_value());
  EXPECT_EQ(pipeline_threads(c), 128);
  c.tunables["optin"] = 0;  // legal: whether 54 KiB fits is the board's question (constraints)
  EXPECT_FALSE(sp.invalid_reason(c).has_value());
  c.precision = "f16";                 // 27648 bytes: the opt-in would be a duplicate point
  EXPECT_EQ(pipeline_threads(c), 64);  // two pixels per thread column
  c.tunables["optin"] = 1;
  const auto dup = sp.invalid_reason(c);
  ASSERT_TRUE(dup.has_value());
  EXPECT_NE(dup->find("optin=1 adds nothing"), std::string::npos) << *dup;
  c.tunables["optin"] = 2;
  EXPECT_TRUE(sp.invalid_reason(c).has_value());
}

TEST(PipelineVariants, InvalidStripsAreRejectedWithAReason) {
  Config c;
  c.variant = "global_pipeline";
  c.precision = "f32";
  c.tunables = {{"w", 64}, {"parts", 1}, {"depth", 32}, {"skew", 1}, {"strip_h", 32}};
  const auto& gp = global_pipeline_variant();
  auto why = gp.invalid_reason(c);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("no output columns"), std::string::npos) << *why;
  c.tunables = {{"w", 96 + 1}, {"parts", 1}, {"depth", 2}, {"skew", 1}, {"strip_h", 32}};
  why = gp.invalid_reason(c);
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("whole number of warps"), std::string::npos) << *why;
  c.tunables = {{"w", 64}, {"parts", 4}, {"depth", 2}, {"skew", 1}, {"strip_h", 32}};  // 16 threads
  EXPECT_TRUE(gp.invalid_reason(c).has_value());
  c.tunables = {{"w", 64}, {"parts", 1}, {"depth", 0}, {"skew", 1}, {"strip_h", 32}};
  EXPECT_TRUE(gp.invalid_reason(c).has_value());
  c.tunables = {{"w", 64}, {"parts", 1}, {"depth", 2}, {"skew", 1}};
  EXPECT_TRUE(gp.invalid_reason(c).has_value());  // strip_h missing
}

// The real shared_pipeline builds (NVRTC, no GPU) pruned by the board's shared memory: the
// ring of f32 w=256 depth=8 (82944 B) needs the opt-in everywhere; with it, it fits Xavier's
// 96 KiB and Hopper's 227 KiB; w=512 depth=8 (165888 B) fits only Hopper.
TEST(PipelineVariants, BoardsPruneTheRingByTheirSharedMemory) {
  auto config = [](int w, int depth, int optin) {
    Config c;
    c.variant = "shared_pipeline";
    c.precision = "f32";
    c.tunables = {{"w", w},    {"parts", 1},    {"depth", depth},
                  {"skew", 1}, {"strip_h", 32}, {"optin", optin}};
    c.params = find_workload("tvl1").default_params();
    c.params["epsilon"] = 0;  // the GPU variants run fixed iterations
    return c;
  };
  const Variant& v = shared_pipeline_variant();
  const Board agx = load_board("agx"), h200 = load_board("h200");
  EXPECT_EQ(prune_reason(agx, v, config(128, 5, 0)), std::nullopt);
  for (const Board* b : {&agx, &h200}) {
    const auto check = check_constraints(*b, v, config(256, 8, 0));
    for (const auto& k : check.kernels)
      std::printf("[prune] %s %s: %d B dynamic + %d B static shared, %s, blocks/SM %d, '%s'\n",
                  b->name.c_str(), k.resources.kernel.c_str(), k.resources.dynamic_shared_bytes,
                  k.resources.static_shared_bytes, k.resources.built_for.c_str(),
                  k.occupancy.active_blocks_per_sm, k.occupancy.error.c_str());
    const auto why = check.prune_reason;
    ASSERT_TRUE(why.has_value()) << b->name;
    EXPECT_NE(why->find("shared memory"), std::string::npos) << *why;
    EXPECT_EQ(prune_reason(*b, v, config(256, 8, 1)), std::nullopt) << b->name;
  }
  const auto why = prune_reason(agx, v, config(512, 8, 1));
  ASSERT_TRUE(why.has_value());
  EXPECT_NE(why->find("shared memory"), std::string::npos) << *why;
  EXPECT_EQ(prune_reason(h200, v, config(512, 8, 1)), std::nullopt);
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

namespace flowtune::cuda {
namespace {

// The resident-level kernel (kernels/cuda/tvl1_resident.cuh) compiles in every precision for
// Hopper and Orin, with no spills and no static shared memory (its level is dynamic shared).
TEST(NvrtcBuild, ResidentLevelKernelCompilesInEveryPrecision) {
  for (const std::string precision : {"FT_PRECISION_F32", "FT_PRECISION_F16", "FT_PRECISION_MIXED"})
    for (const std::string arch : {"sm_90", "sm_87"}) {
      SCOPED_TRACE(precision + " " + arch);
      const auto b =
          nvrtc_build("tvl1_resident.cuh", {precision, "FT_RESIDENT_THREADS=1024"}, arch);
      ASSERT_EQ(b->resources.size(), 1u) << "ptxas log:\n" << b->log;
      EXPECT_EQ(b->resources[0].kernel, "ft_resident");
      EXPECT_EQ(b->resources[0].spill_bytes, 0);
      EXPECT_EQ(b->resources[0].static_shared_bytes, 0);
      EXPECT_LE(b->resources[0].registers_per_thread, 64);  // 1024 threads x 64 = the SM's file
    }
}

// The tiled kernel (kernels/cuda/tvl1_tiled.cuh) compiles in every precision for Hopper and
// Orin without spills; its three planes of 32 x 32 pairs are static shared memory.
TEST(NvrtcBuild, TiledLevelKernelCompilesInEveryPrecision) {
  for (const std::string precision : {"FT_PRECISION_F32", "FT_PRECISION_F16", "FT_PRECISION_MIXED"})
    for (const std::string arch : {"sm_90", "sm_87"}) {
      SCOPED_TRACE(precision + " " + arch);
      const auto b =
          nvrtc_build("tvl1_tiled.cuh", {precision, "FT_TILED_T=32", "FT_TILED_DEPTH=4"}, arch);
      ASSERT_EQ(b->resources.size(), 1u) << "ptxas log:\n" << b->log;
      EXPECT_EQ(b->resources[0].kernel, "ft_tiled");
      EXPECT_EQ(b->resources[0].spill_bytes, 0);
      const int pair = precision == "FT_PRECISION_F16" ? 4 : 8;  // mixed shares float2
      EXPECT_EQ(b->resources[0].static_shared_bytes, 3 * 32 * 32 * pair);
      EXPECT_LE(b->resources[0].registers_per_thread, 64);
    }
}

// The tiled kernel's coarsened and deeper shapes (tiled_kernel_defines), with and without the
// 5 x 5 median build, compile for Orin (the device tests build them for the GPU machine's arch;
// the default shape's test above covers Xavier) without spills, their static
// shared memory is tiled_shared_bytes (3 planes of R^2 pairs, R = tiled_t x tiled_coarsen), and a
// thread's registers stay within the SM's file at the block's size.
TEST(NvrtcBuild, TiledShapesCompileWithTheirSharedMemory) {
  for (const std::string precision : {"f32", "f16", "mixed"})
    for (const TiledShape shape :
         {TiledShape{16, 3, 2}, TiledShape{8, 5, 4}, TiledShape{32, 10, 2}}) {
      if (tiled_shape_invalid_reason(shape, precision)) continue;  // f32 / mixed at R = 64
      for (const int median : {0, 5})
        for (const std::string arch : {"sm_87"}) {
          SCOPED_TRACE(precision + " " + arch + " " + std::to_string(shape.threads_per_side) + "/" +
                       std::to_string(shape.depth) + "/" + std::to_string(shape.coarsen) +
                       " median " + std::to_string(median));
          const auto b =
              nvrtc_build("tvl1_tiled.cuh", tiled_kernel_defines(precision, shape, median), arch);
          ASSERT_EQ(b->resources.size(), 1u) << "ptxas log:\n" << b->log;
          EXPECT_EQ(b->resources[0].spill_bytes, 0);
          const int region = shape.threads_per_side * shape.coarsen;
          EXPECT_EQ(b->resources[0].static_shared_bytes,
                    3 * region * region * (precision == "f16" ? 4 : 8));
          EXPECT_EQ(b->resources[0].static_shared_bytes, tiled_shared_bytes(shape, precision));
          EXPECT_LE(b->resources[0].registers_per_thread * shape.threads_per_side *
                        shape.threads_per_side,
                    65536);
        }
    }
}

}  // namespace
}  // namespace flowtune::cuda
