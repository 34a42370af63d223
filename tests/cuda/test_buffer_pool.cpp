// The caching allocator of the GPU frame buffers (variants/cuda/buffer_pool.hpp): size classes
// by hand; with retention on, a freed block is handed to the next allocation of its size class
// and device (same pointer), the cap evicts the least recently kept block, retention 0 frees
// everything kept; two solvers of one config in a row compute the same flow bit for bit when
// the second one runs on the first one's kept buffers (oracle: a solver with retention off).
// GPU tests skip without a device.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>

#include "tests/cuda/test_frame_support.hpp"
#include "variants/buffer_retention.hpp"
#include "variants/cuda/buffer_pool.hpp"

namespace flowtune {
namespace {

/// Retention at `bytes` for one test, then off (which frees what the test left kept).
class Retention {
 public:
  explicit Retention(std::size_t bytes) { set_buffer_retention(bytes); }
  ~Retention() {
    set_buffer_retention(0);
    cuda::pool_release_kept();
  }
};

TEST(BufferPool, SizeClassesArePowersOfTwoThenEightAnOctave) {
  EXPECT_EQ(cuda::pool_size_class(1), 512u);
  EXPECT_EQ(cuda::pool_size_class(512), 512u);
  EXPECT_EQ(cuda::pool_size_class(513), 1024u);
  EXPECT_EQ(cuda::pool_size_class(65536), 65536u);
  EXPECT_EQ(cuda::pool_size_class(65537), 73728u);    // 64 KiB + 8 KiB, the first of 8 steps
  EXPECT_EQ(cuda::pool_size_class(614400), 655360u);  // 600 KiB -> 640 KiB
  EXPECT_EQ(cuda::pool_size_class(1u << 20), 1u << 20);
  for (std::size_t b : {1000u, 70000u, 1234567u, 30000000u}) {
    EXPECT_GE(cuda::pool_size_class(b), b);
    EXPECT_LE(double(cuda::pool_size_class(b)), 1.125 * double(b) + 512);
  }
}

TEST(BufferPool, AFreedBlockIsReusedForItsSizeClassOnDevice) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  Retention on(64u << 20);
  void* a = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&a, 1000, cuda::Memory::device), cudaSuccess);
  const cuda::BufferPoolStats before = cuda::buffer_pool_stats();
  cuda::pool_free(a, cuda::Memory::device);
  EXPECT_EQ(cuda::buffer_pool_stats().kept_bytes, before.kept_bytes + 1024);
  void* b = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&b, 900, cuda::Memory::device), cudaSuccess);  // same class
  EXPECT_EQ(b, a);
  EXPECT_EQ(cuda::buffer_pool_stats().reused, before.reused + 1);
  void* c = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&c, 100000, cuda::Memory::device), cudaSuccess);
  EXPECT_NE(c, a);
  EXPECT_EQ(cuda::buffer_pool_stats().allocated, before.allocated + 1);
  // The reused block is usable device memory of the size asked.
  EXPECT_EQ(cudaMemset(b, 0x5a, 900), cudaSuccess);
  unsigned char back[900];
  ASSERT_EQ(cudaMemcpy(back, b, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(back[0], 0x5a);
  EXPECT_EQ(back[899], 0x5a);
  cuda::pool_free(b, cuda::Memory::device);
  cuda::pool_free(c, cuda::Memory::device);
}

TEST(BufferPool, PinnedBlocksAreReusedAndStayPageLockedOnDevice) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  Retention on(64u << 20);
  void* a = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&a, 300000, cuda::Memory::pinned), cudaSuccess);
  std::memset(a, 1, 300000);
  cuda::pool_free(a, cuda::Memory::pinned);
  void* b = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&b, 300000, cuda::Memory::pinned), cudaSuccess);
  EXPECT_EQ(b, a);
  cudaPointerAttributes attr{};
  ASSERT_EQ(cudaPointerGetAttributes(&attr, b), cudaSuccess);
  EXPECT_EQ(attr.type, cudaMemoryTypeHost);
  // A pinned block is never handed out as device memory.
  void* d = nullptr;
  cuda::pool_free(b, cuda::Memory::pinned);
  ASSERT_EQ(cuda::pool_allocate(&d, 300000, cuda::Memory::device), cudaSuccess);
  EXPECT_NE(d, a);
  cuda::pool_free(d, cuda::Memory::device);
}

TEST(BufferPool, TheCapEvictsTheLeastRecentlyKeptAndZeroFreesAllOnDevice) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  cuda::pool_release_kept();
  Retention on(1u << 20);
  void *a = nullptr, *b = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&a, 614400, cuda::Memory::device), cudaSuccess);  // 640 KiB
  ASSERT_EQ(cuda::pool_allocate(&b, 614400, cuda::Memory::device), cudaSuccess);
  cuda::pool_free(a, cuda::Memory::device);
  cuda::pool_free(b, cuda::Memory::device);  // 1280 KiB > 1 MiB: a goes
  cuda::BufferPoolStats s = cuda::buffer_pool_stats();
  EXPECT_EQ(s.kept_blocks, 1u);
  EXPECT_EQ(s.kept_bytes, 655360u);
  void* again = nullptr;
  ASSERT_EQ(cuda::pool_allocate(&again, 614400, cuda::Memory::device), cudaSuccess);
  EXPECT_EQ(again, b);  // the one kept is the most recent
  set_buffer_retention(0);
  cuda::pool_free(again, cuda::Memory::device);
  s = cuda::buffer_pool_stats();
  EXPECT_EQ(s.kept_blocks, 0u);
  EXPECT_EQ(s.kept_bytes, 0u);
}

TEST(BufferPool, ASolverOnKeptBuffersComputesTheSameFlowOnDevice) {
  if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  const test::MiddleburyPair p = test::load_repo_pair("RubberWhale");
  const Tvl1Params params = test::frame_params();
  set_buffer_retention(0);
  const FlowField want = test::plain_frame_solver(params, false, {})->compute(p.i0, p.i1);
  Retention on(1u << 30);
  test::plain_frame_solver(params, false, {})->compute(p.i0, p.i1);  // fills the pool
  const long reused = cuda::buffer_pool_stats().reused;
  const FlowField got = test::plain_frame_solver(params, false, {})->compute(p.i0, p.i1);
  EXPECT_GT(cuda::buffer_pool_stats().reused, reused + 10);  // the frame's ~20 buffers
  ASSERT_EQ(got.width, want.width);
  EXPECT_TRUE(got.u == want.u);
  EXPECT_TRUE(got.v == want.v);
}

}  // namespace
}  // namespace flowtune
