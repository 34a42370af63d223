// Occupancy model: hand-computed cases (cuda_occupancy.h arithmetic worked by hand) and a
// randomized comparison with cuda_occupancy.h itself where the toolkit header is installed.
#include <gtest/gtest.h>

#include <random>

#include "boards/board.hpp"
#include "tuner/occupancy.hpp"

#if __has_include(<cuda_occupancy.h>)
#include <cuda_occupancy.h>
#define FLOWTUNE_HAVE_OCC_HEADER 1
#endif

using namespace flowtune;

namespace {
KernelResources kernel(int threads, int regs, int static_shared, int dynamic_shared = 0) {
  KernelResources k;
  k.kernel = "k";
  k.threads_per_block = threads;
  k.registers_per_thread = regs;
  k.static_shared_bytes = static_shared;
  k.dynamic_shared_bytes = dynamic_shared;
  return k;
}
}  // namespace

TEST(Occupancy, Sm90RegistersAndWarpsTie) {
  // 256 threads = 8 warps; 32 regs -> 1024 regs/warp; 16384 regs per sub-partition -> 16
  // warps each, 64 per SM -> 8 blocks; warps 64 / 8 = 8; shared 0 + 1 KiB reserved -> 228.
  auto r = occupancy(arch_limits(9, 0), kernel(256, 32, 0));
  EXPECT_EQ(r.blocks_limit_registers, 8);
  EXPECT_EQ(r.blocks_limit_warps, 8);
  EXPECT_EQ(r.blocks_limit_shared, 228);
  EXPECT_EQ(r.blocks_limit_blocks, 32);
  EXPECT_EQ(r.active_blocks_per_sm, 8);
  EXPECT_EQ(r.limited_by, "registers");
  EXPECT_EQ(r.limiting_factors, (std::vector<std::string>{"registers", "warps"}));
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_TRUE(r.error.empty());
}

TEST(Occupancy, Sm90SharedMemoryBinds) {
  // 36 KiB dynamic + 1 KiB reserved = 37888 B per block; 233472 / 37888 = 6.
  auto r = occupancy(arch_limits(9, 0), kernel(128, 64, 0, 36864));
  EXPECT_EQ(r.allocated_shared_bytes_per_block, 37888);
  EXPECT_EQ(r.blocks_limit_shared, 6);
  EXPECT_EQ(r.blocks_limit_registers, 8);  // 2048 regs/warp: 8 warps per sub-partition x 4 / 4
  EXPECT_EQ(r.blocks_limit_warps, 16);
  EXPECT_EQ(r.active_blocks_per_sm, 6);
  EXPECT_EQ(r.limited_by, "shared_memory");
  EXPECT_DOUBLE_EQ(r.occupancy, 6.0 * 4 / 64);
}

TEST(Occupancy, Sm90RegisterRoundingPerWarp) {
  // 255 regs x 32 = 8160 -> 8192 per warp; 16384 / 8192 = 2 warps per sub-partition
  // -> 8 warps per SM -> 4 blocks of 2 warps.
  auto r = occupancy(arch_limits(9, 0), kernel(64, 255, 0));
  EXPECT_EQ(r.blocks_limit_registers, 4);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.allocated_registers_per_block, 16384);
}

TEST(Occupancy, Sm90TooManyRegistersPerBlock) {
  // 72 x 32 = 2304 per warp x 32 warps = 73728 > 65536.
  auto r = occupancy(arch_limits(9, 0), kernel(1024, 72, 0));
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_EQ(r.blocks_limit_registers, 0);
  EXPECT_EQ(r.limited_by, "registers");
  EXPECT_EQ(r.error,
            "needs 73728 registers per block (72 per thread x 1024 threads, allocated per warp) > "
            "65536 per block");
}

TEST(Occupancy, Sm90DefaultAndOptInSharedLimit) {
  const auto& l = arch_limits(9, 0);
  auto exact = occupancy(l, kernel(128, 32, 0, 49152));  // 48 KiB exactly fits without opt-in
  EXPECT_TRUE(exact.error.empty());
  EXPECT_EQ(exact.blocks_limit_shared, 233472 / 50176);  // 4
  auto over = occupancy(l, kernel(128, 32, 0, 49153));
  EXPECT_EQ(over.active_blocks_per_sm, 0);
  EXPECT_EQ(over.error,
            "needs 48.0 KiB (49153 bytes) shared memory > 48 KiB per block without opt-in");
  auto optin = occupancy(l, kernel(128, 32, 0, 49153), -1, true);
  EXPECT_TRUE(optin.error.empty());
  EXPECT_EQ(optin.allocated_shared_bytes_per_block, 50304);  // roundup(49153 + 1024, 128)
  EXPECT_EQ(optin.blocks_limit_shared, 4);
  auto too_big = occupancy(l, kernel(128, 32, 0, 227 * 1024 + 1), -1, true);
  EXPECT_EQ(too_big.error,
            "needs 227.0 KiB (232449 bytes) shared memory > 227 KiB per block (opt-in)");
}

TEST(Occupancy, Sm90CarveoutPreference) {
  // 20000 B preferred -> 32 KiB step; block 10000 + 1024 -> 11136 B; 32768 / 11136 = 2.
  auto r = occupancy(arch_limits(9, 0), kernel(256, 16, 10000), 20000);
  EXPECT_EQ(r.shared_bytes_per_sm_used, 32768);
  EXPECT_EQ(r.blocks_limit_shared, 2);
  // A block larger than the preference raises the carveout to the step that holds it.
  auto big = occupancy(arch_limits(9, 0), kernel(256, 16, 40000), 8192);
  EXPECT_EQ(big.shared_bytes_per_sm_used, 64 * 1024);
  EXPECT_EQ(big.blocks_limit_shared, 1);
}

TEST(Occupancy, ThreadsAboveBlockLimit) {
  auto r = occupancy(arch_limits(9, 0), kernel(2048, 16, 0));
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_EQ(r.error, "block of 2048 threads > 1024 threads per block");
  EXPECT_THROW(occupancy(arch_limits(9, 0), kernel(0, 16, 0)), std::invalid_argument);
}

TEST(Occupancy, Sm72PaperSharedPipelineF32) {
  // Paper: Shared_pipeline_F32 with 36 KiB per block fits 2 blocks per SM on AGX Xavier:
  // 98304 / 36864 = 2 (256 B granularity, no reservation before cc 8.0).
  auto r = occupancy(arch_limits(7, 2), kernel(128, 64, 0, 36864));
  EXPECT_EQ(r.allocated_shared_bytes_per_block, 36864);
  EXPECT_EQ(r.blocks_limit_shared, 2);
  EXPECT_EQ(r.blocks_limit_registers, 8);
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_EQ(r.limited_by, "shared_memory");
  // Same kernel on TX2 (sm_62) and Nano (sm_53): 65536 / 36864 = 1.
  EXPECT_EQ(occupancy(arch_limits(6, 2), kernel(128, 64, 0, 36864)).active_blocks_per_sm, 1);
  EXPECT_EQ(occupancy(arch_limits(5, 3), kernel(128, 64, 0, 36864)).active_blocks_per_sm, 1);
}

TEST(Occupancy, Sm72RegistersBind) {
  // 40 regs x 32 = 1280 per warp; 16384 / 1280 = 12 warps per sub-partition -> 48 warps
  // -> 6 blocks of 8 warps; warps 64 / 8 = 8.
  auto r = occupancy(arch_limits(7, 2), kernel(256, 40, 0));
  EXPECT_EQ(r.blocks_limit_registers, 6);
  EXPECT_EQ(r.blocks_limit_warps, 8);
  EXPECT_EQ(r.active_blocks_per_sm, 6);
  EXPECT_EQ(r.limited_by, "registers");
  EXPECT_DOUBLE_EQ(r.occupancy, 0.75);
}

TEST(Occupancy, PerBlockRegistersNanoVersusAgx) {
  // 1024 threads x 40 regs: 40960 registers per block. Nano/TX2 allow 32768 per block
  // (the paper's "32768 registers"), AGX 65536: one block of 32 warps (48 warps by registers).
  auto nano = occupancy(arch_limits(5, 3), kernel(1024, 40, 0));
  EXPECT_EQ(nano.active_blocks_per_sm, 0);
  EXPECT_EQ(nano.error,
            "needs 40960 registers per block (40 per thread x 1024 threads, allocated per warp) > "
            "32768 per block");
  EXPECT_EQ(occupancy(arch_limits(6, 2), kernel(1024, 40, 0)).active_blocks_per_sm, 0);
  auto agx = occupancy(arch_limits(7, 2), kernel(1024, 40, 0));
  EXPECT_TRUE(agx.error.empty());
  EXPECT_EQ(agx.active_blocks_per_sm, 1);
}

TEST(Occupancy, Sm72OptInUpTo96KiB) {
  const auto& l = arch_limits(7, 2);
  EXPECT_EQ(occupancy(l, kernel(256, 32, 0, 98304)).error,
            "needs 96 KiB shared memory > 48 KiB per block without opt-in");
  auto r = occupancy(l, kernel(256, 32, 0, 98304), -1, true);
  EXPECT_TRUE(r.error.empty());
  EXPECT_EQ(r.active_blocks_per_sm, 1);
  // TX2/Nano have no opt-in: 48 KiB per block whatever the flag.
  EXPECT_EQ(occupancy(arch_limits(6, 2), kernel(256, 32, 0, 65536), -1, true).error,
            "needs 64 KiB shared memory > 48 KiB per block");
}

TEST(Occupancy, UnknownArchitectureNamed) {
  try {
    arch_limits(8, 8);
    FAIL() << "expected a throw";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("8.8 (sm_88)"), std::string::npos) << e.what();
  }
}

#ifdef FLOWTUNE_HAVE_OCC_HEADER
// Independent oracle: NVIDIA's own cuda_occupancy.h (host-only header of the toolkit),
// fed the device properties the CUDA runtime reports for these archs.
TEST(Occupancy, MatchesCudaOccupancyHeaderOnRandomKernels) {
  std::mt19937 rng(42);
  for (auto cc : std::vector<std::pair<int, int>>{
           {5, 3}, {6, 2}, {7, 2}, {7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}}) {
    const ArchLimits& l = arch_limits(cc.first, cc.second);
    cudaOccDeviceProp prop;
    prop.computeMajor = l.cc_major;
    prop.computeMinor = l.cc_minor;
    prop.maxThreadsPerBlock = l.max_threads_per_block;
    prop.maxThreadsPerMultiprocessor = l.max_threads_per_sm;
    prop.regsPerBlock = l.max_registers_per_block;
    prop.regsPerMultiprocessor = l.registers_per_sm;
    prop.warpSize = l.warp_size;
    prop.sharedMemPerBlock = static_cast<size_t>(l.shared_bytes_per_block_default);
    prop.sharedMemPerMultiprocessor = static_cast<size_t>(l.shared_bytes_per_sm);
    prop.numSms = 1;
    prop.sharedMemPerBlockOptin = static_cast<size_t>(l.shared_bytes_per_block_optin);
    prop.reservedSharedMemPerBlock = static_cast<size_t>(l.reserved_shared_bytes_per_block);
    int compared = 0;
    for (int i = 0; i < 3000; ++i) {
      int threads = std::uniform_int_distribution<int>(1, 1024)(rng);
      int regs = std::uniform_int_distribution<int>(8, 255)(rng);
      int static_shared = std::uniform_int_distribution<int>(0, 3)(rng) == 0
                              ? 0
                              : std::uniform_int_distribution<int>(0, 16384)(rng);
      int dynamic = std::uniform_int_distribution<int>(0, 4)(rng) == 0
                        ? 0
                        : std::uniform_int_distribution<int>(
                              0, l.shared_bytes_per_block_optin - static_shared)(rng);
      bool optin = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
      cudaOccFuncAttributes attr;
      attr.maxThreadsPerBlock = 1024;
      attr.numRegs = regs;
      attr.sharedSizeBytes = static_cast<size_t>(static_shared);
      attr.partitionedGCConfig = PARTITIONED_GC_OFF;
      attr.shmemLimitConfig = optin ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
      attr.maxDynamicSharedSizeBytes =
          optin ? static_cast<size_t>(l.shared_bytes_per_block_optin - static_shared)
                : static_cast<size_t>(l.shared_bytes_per_block_default);
      cudaOccDeviceState state;
      cudaOccResult res;
      if (cudaOccMaxActiveBlocksPerMultiprocessor(&res, &prop, &attr, &state, threads,
                                                  static_cast<size_t>(dynamic)) != CUDA_OCC_SUCCESS)
        continue;
      auto mine = occupancy(l, kernel(threads, regs, static_shared, dynamic), -1, optin);
      ASSERT_EQ(mine.active_blocks_per_sm, res.activeBlocksPerMultiprocessor)
          << "sm_" << cc.first << cc.second << " threads " << threads << " regs " << regs
          << " static " << static_shared << " dynamic " << dynamic << " optin " << optin;
      EXPECT_EQ(mine.blocks_limit_registers, res.blockLimitRegs);
      EXPECT_EQ(mine.blocks_limit_warps, res.blockLimitWarps);
      EXPECT_EQ(mine.blocks_limit_blocks, res.blockLimitBlocks);
      if (res.activeBlocksPerMultiprocessor > 0) {
        EXPECT_EQ(mine.blocks_limit_shared, res.blockLimitSharedMem);
      }
      ++compared;
    }
    EXPECT_GT(compared, 2500) << "sm_" << cc.first << cc.second;
  }
}
#endif
