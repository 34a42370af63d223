// CPU-only (no GPU needed): NVRTC builds of bm_cuda and lk_cuda for Hopper (sm_90), Orin
// (sm_87) and the sm_75 stand-in for Xavier (sm_72), their resources as the occupancy
// model sees them, and the shared-memory model pruning configs on a board.
#include <gtest/gtest.h>

#ifdef FLOWTUNE_HAVE_CUDA

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "tuner/constraints.hpp"
#include "variants/localflow/cuda/bm_cuda_variant.hpp"
#include "variants/localflow/cuda/feat_cuda_variant.hpp"
#include "variants/localflow/cuda/lk_cuda_variant.hpp"
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune::localflow_cuda {
namespace {

Config bm_config(int threads, int per_tb, int tile, int block = 8, int radius = 4) {
  Config c;
  c.workload = "bm";
  c.variant = "bm_cuda";
  c.params = bm_workload().default_params();
  c.params["block"] = block;
  c.params["radius"] = radius;
  c.tunables = {{"threads", threads}, {"blocks_per_tb", per_tb}, {"tile_search", tile}};
  return c;
}

Config lk_config(int bx, int by, int fused, int tile, int window = 9) {
  Config c;
  c.workload = "lk";
  c.variant = "lk_cuda";
  c.params = lk_workload().default_params();
  c.params["window"] = window;
  c.tunables = {{"block_x", bx}, {"block_y", by}, {"fused", fused}, {"tile", tile}};
  return c;
}

std::map<std::string, KernelResources> by_kernel(const std::vector<KernelResources>& rs) {
  std::map<std::string, KernelResources> out;
  for (const auto& r : rs) out[r.kernel] = r;
  return out;
}

TEST(LocalFlowNvrtc, SharedMemoryModelByHand) {
  // (2R+1)^2 costs + B^2 + (B+2R)^2 window floats per image block: 289 + 256 + 1024 at B 16, R 8.
  EXPECT_EQ(bm_shared_bytes(16, 8, 1, 1), 4 * (289 + 256 + 1024));
  EXPECT_EQ(bm_shared_bytes(16, 8, 4, 0), 4 * 4 * 289);
  // 3 planes of (16 + 8) x (4 + 8) at window 9 (halo 4), one plane of (16 + 10) x (4 + 10) fused.
  EXPECT_EQ(lk_shared_bytes(9, 16, 4, 0, 1), 4 * 3 * 24 * 12);
  EXPECT_EQ(lk_shared_bytes(9, 16, 4, 1, 1), 4 * 26 * 14);
  EXPECT_EQ(lk_shared_bytes(9, 16, 4, 1, 0), 0);
}

TEST(LocalFlowNvrtc, BmBuildsForEveryTilingAndArch) {
  const LocalFlowVariant& v = bm_cuda_variant();
  for (const char* arch : {"sm_90", "sm_87", "sm_72"})
    for (int tile : {0, 1}) {
      const Config c = bm_config(64, 2, tile);
      const auto rs = by_kernel(v.resources(c, arch));
      ASSERT_EQ(rs.count("bm_match_level"), 1u) << arch;
      ASSERT_EQ(rs.count("bm_densify"), 1u);
      ASSERT_EQ(rs.count("flow_downsample"), 1u);
      const KernelResources& m = rs.at("bm_match_level");
      EXPECT_GT(m.registers_per_thread, 0);
      EXPECT_EQ(m.threads_per_block, 128);
      EXPECT_EQ(m.dynamic_shared_bytes, bm_shared_bytes(8, 4, 2, tile));
      EXPECT_EQ(m.estimated, std::string(arch) == "sm_72");
    }
}

TEST(LocalFlowNvrtc, LkBuildsForEveryFusionAndTiling) {
  const LocalFlowVariant& v = lk_cuda_variant();
  for (int fused : {0, 1})
    for (int tile : {0, 1}) {
      const auto rs = by_kernel(v.resources(lk_config(32, 4, fused, tile), "sm_90"));
      ASSERT_EQ(rs.count("lk_level"), 1u);
      ASSERT_EQ(rs.count("lk_gradients"), 1u);
      EXPECT_GT(rs.at("lk_level").registers_per_thread, 0);
      EXPECT_EQ(rs.at("lk_level").threads_per_block, 128);
      EXPECT_EQ(rs.at("lk_level").dynamic_shared_bytes, lk_shared_bytes(9, 32, 4, fused, tile));
    }
}

TEST(LocalFlowNvrtc, LkF16HalvesTheTile) {
  Config c = lk_config(32, 4, 0, 1);
  c.precision = "f16";
  const auto rs = by_kernel(lk_cuda_variant().resources(c, "sm_90"));
  ASSERT_EQ(rs.count("lk_to_half"), 1u);
  EXPECT_EQ(rs.at("lk_level").dynamic_shared_bytes, lk_shared_bytes(9, 32, 4, 0, 1, 2));
  EXPECT_EQ(lk_shared_bytes(9, 32, 4, 0, 1, 2) * 2, lk_shared_bytes(9, 32, 4, 0, 1));
  c.precision = "mixed";
  EXPECT_TRUE(lk_cuda_variant().invalid_reason(c).has_value());
}

// The GPU solver's settings follow the config: its precision decides both the kernels'
// element type (FT_PRECISION_F16 in lk_defines) and whether the solver hands them binary16
// buffers, so the two always agree (an f32 lk_gradients given the binary16 copy of I0 read
// past its n/2 + 1 floats on an H200); the shared memory it launches lk_level with is the
// one the occupancy model sees.
TEST(LocalFlowNvrtc, LkSolverSettingsFollowTheConfig) {
  for (const std::string precision : {"f32", "f16"})
    for (int fused : {0, 1})
      for (int tile : {0, 1}) {
        SCOPED_TRACE(precision + " fused " + std::to_string(fused) + " tile " +
                     std::to_string(tile));
        Config c = lk_config(16, 8, fused, tile, 7);
        c.precision = precision;
        const LkSolverSettings s = lk_solver_settings(c);
        const std::vector<std::string> d = lk_defines(c);
        const bool f16_kernels = std::find(d.begin(), d.end(), "FT_PRECISION_F16") != d.end();
        EXPECT_EQ(s.f16, precision == "f16");
        EXPECT_EQ(s.f16, f16_kernels);
        EXPECT_EQ(s.element_bytes, f16_kernels ? 2 : 4);
        EXPECT_EQ(s.block_x, 16);
        EXPECT_EQ(s.block_y, 8);
        EXPECT_EQ(s.fused, fused != 0);
        EXPECT_EQ(s.shared_bytes, lk_shared_bytes(7, 16, 8, fused, tile, s.element_bytes));
        const auto rs = by_kernel(lk_cuda_variant().resources(c, "sm_90"));
        EXPECT_EQ(rs.at("lk_level").dynamic_shared_bytes, s.shared_bytes);
      }
}

TEST(LocalFlowNvrtc, LkPlaneFloatsHoldTheirElements) {
  // The 201 x 143 crop of the GPU test: its binary16 copy fits 14372 floats, a float plane
  // needs 28743.
  EXPECT_EQ(lk_plane_floats(201 * 143, 2), 14372u);
  EXPECT_EQ(lk_plane_floats(201 * 143, 4), std::size_t(201 * 143));
  for (std::size_t n : {1u, 2u, 3u, 28743u, 28744u})
    for (int bytes : {2, 4}) EXPECT_GE(lk_plane_floats(n, bytes) * 4, n * std::size_t(bytes));
}

TEST(LocalFlowNvrtc, FeatBuildsForEveryStaging) {
  for (int shared : {0, 1}) {
    Config c;
    c.workload = "features";
    c.variant = "feat_cuda";
    c.params = features_workload().default_params();
    c.tunables = {
        {"block_x", 32}, {"block_y", 4}, {"shared_features", shared}, {"features_per_tb", 128}};
    const auto rs = by_kernel(feat_cuda_variant().resources(c, "sm_90"));
    ASSERT_EQ(rs.count("feat_dense"), 1u);
    EXPECT_GT(rs.at("feat_dense").registers_per_thread, 0);
    EXPECT_EQ(rs.at("feat_dense").threads_per_block, 128);
    EXPECT_EQ(rs.at("feat_dense").dynamic_shared_bytes, shared ? 128 * 20 : 0);  // 5 floats each
  }
}

TEST(LocalFlowNvrtc, BoardsPruneTheSearchWindowBySharedMemory) {
  const Board h200 = load_board("h200");
  // B 16, R 8, tiled: 6276 bytes per image block; 8 per thread block = 50208 > 48 KiB.
  const auto big = check_constraints(h200, bm_cuda_variant(), bm_config(32, 8, 1, 16, 8));
  ASSERT_TRUE(big.prune_reason.has_value());
  EXPECT_NE(big.prune_reason->find("shared memory"), std::string::npos) << *big.prune_reason;
  EXPECT_FALSE(check_constraints(h200, bm_cuda_variant(), bm_config(32, 4, 1, 16, 8)).prune_reason);
  EXPECT_FALSE(check_constraints(h200, bm_cuda_variant(), bm_config(32, 8, 0, 16, 8)).prune_reason);
  // The variant's own rules.
  EXPECT_TRUE(bm_cuda_variant().invalid_reason(bm_config(256, 8, 0)).has_value());   // 2048 threads
  EXPECT_TRUE(bm_cuda_variant().invalid_reason(bm_config(48, 1, 0)).has_value());    // not 32k
  EXPECT_TRUE(lk_cuda_variant().invalid_reason(lk_config(8, 2, 0, 0)).has_value());  // 16 threads
  EXPECT_FALSE(lk_cuda_variant().invalid_reason(lk_config(8, 4, 0, 0)).has_value());
}

}  // namespace
}  // namespace flowtune::localflow_cuda

#endif  // FLOWTUNE_HAVE_CUDA
