// The host API without the solver's pinned staging buffers: page-locked frames and flow
// (FlowSolver::page_lock, cuda::lock_pages) are uploaded from and downloaded into the caller's
// memory by DMA, and FrameOptions::host_copy_chunks 0 does the same from pageable memory. The
// oracle: the staged frame (chunked copies through the solver's pinned buffers) of a solver of
// the same config, which the other frame tests check against the double reference; the flows
// must be equal bit for bit. The counted locks are checked with cudaPointerGetAttributes.
// Host-emulation tests run everywhere; GPU tests skip without a device.
#include <gtest/gtest.h>

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/cuda/test_frame_support.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/page_lock.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

std::unique_ptr<FlowSolver> solver(bool on_host, int chunks) {
  cuda::FrameOptions o;
  o.host_copy_chunks = chunks;
  return test::plain_frame_solver(test::frame_params(), on_host, o);
}

using test::expect_same_flow;

TEST(PageLock, HostEmulationLocksNothingAndComputesAsBefore) {
  const test::MiddleburyPair p = test::load_repo_pair("RubberWhale");
  auto s = solver(true, 8);
  EXPECT_EQ(s->page_lock(p.i0.data.data(), p.i0.size() * sizeof(float)), nullptr);
  const FlowField want = solver(true, 8)->compute(p.i0, p.i1);
  FlowField flow;
  solver(true, 0)->compute_into(p.i0, p.i1, flow);  // chunks 0: staged anyway without a device
  expect_same_flow(flow, want, "host emulation, chunks 0");
}

TEST(PageLock, NegativeChunkCountIsRefused) {
  EXPECT_THROW(solver(true, -1), std::invalid_argument);
}

TEST(PageLock, NothingIsLockedWithoutMemory) {
  EXPECT_FALSE(cuda::is_page_locked(nullptr, 16));
  const std::vector<float> buf(16);
  EXPECT_FALSE(cuda::is_page_locked(buf.data(), 0));
  EXPECT_EQ(cuda::lock_pages(nullptr, 16), nullptr);
  EXPECT_EQ(cuda::lock_pages(buf.data(), 0), nullptr);
}

class PageLockGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!test::have_cuda_device()) GTEST_SKIP() << "no CUDA device";
  }
};

// Locks of one range are counted: the range stays locked until its last handle goes; a range
// locked only in part is not page-locked; an overlapping range of another extent is refused.
TEST_F(PageLockGpu, LocksAreCountedPerRange) {
  std::vector<float> buf(std::size_t(1) << 18);  // 1 MiB
  const std::size_t bytes = buf.size() * sizeof(float);
  EXPECT_FALSE(cuda::is_page_locked(buf.data(), bytes));
  auto a = cuda::lock_pages(buf.data(), bytes);
  ASSERT_NE(a, nullptr);
  EXPECT_TRUE(cuda::is_page_locked(buf.data(), bytes));
  auto b = cuda::lock_pages(buf.data(), bytes);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(cuda::lock_pages(buf.data(), bytes / 2), nullptr);  // overlaps, other extent
  a.reset();
  EXPECT_TRUE(cuda::is_page_locked(buf.data(), bytes));
  b.reset();
  EXPECT_FALSE(cuda::is_page_locked(buf.data(), bytes));
  auto half = cuda::lock_pages(buf.data(), bytes / 2);
  ASSERT_NE(half, nullptr);
  EXPECT_TRUE(cuda::is_page_locked(buf.data(), bytes / 2));
  EXPECT_FALSE(cuda::is_page_locked(buf.data(), bytes));  // its second half is pageable
}

// Page-locked frames and flow (direct DMA) and pageable ones with chunks 0 (driver-staged):
// every frame of a sequence alternating sizes equals the staged frame bit for bit, on the
// direct first frame at a size and on the size's graph.
TEST_F(PageLockGpu, UnstagedFramesEqualTheStagedFrame) {
  const test::MiddleburyPair rw = test::load_repo_pair("RubberWhale");
  const test::MiddleburyPair g2 = test::load_repo_pair("Grove2");
  const FlowField want_rw = solver(false, 8)->compute(rw.i0, rw.i1);
  const FlowField want_g2 = solver(false, 8)->compute(g2.i0, g2.i1);
  for (const bool locked : {true, false}) {
    const std::string label = locked ? "page-locked, chunks 8" : "pageable, chunks 0";
    auto s = solver(false, locked ? 8 : 0);
    FlowField flow_rw, flow_g2;
    std::vector<std::shared_ptr<void>> locks;
    if (locked) {
      for (const test::MiddleburyPair* p : {&rw, &g2}) {
        FlowField& f = p == &rw ? flow_rw : flow_g2;
        const std::size_t n = p->i0.size(), bytes = n * sizeof(float);
        f.width = p->i0.width;
        f.height = p->i0.height;
        f.u.resize(n);
        f.v.resize(n);
        for (const void* q :
             {static_cast<const void*>(p->i0.data.data()),
              static_cast<const void*>(p->i1.data.data()), static_cast<const void*>(f.u.data()),
              static_cast<const void*>(f.v.data())}) {
          locks.push_back(s->page_lock(q, bytes));
          ASSERT_NE(locks.back(), nullptr) << label;
        }
      }
    }
    for (const test::MiddleburyPair* p : {&rw, &rw, &g2, &g2, &rw, &g2, &rw}) {
      FlowField& f = p == &rw ? flow_rw : flow_g2;
      s->compute_into(p->i0, p->i1, f);
      expect_same_flow(f, p == &rw ? want_rw : want_g2, label + " " + std::to_string(p->i0.width));
      if (locked) {  // compute_into kept the locked storage
        EXPECT_TRUE(cuda::is_page_locked(f.u.data(), f.u.size() * sizeof(float))) << label;
      }
    }
    const auto st = cuda::frame_cache_stats(*s);
    EXPECT_EQ(st.buffer_allocations, 2) << label;
    EXPECT_EQ(st.graph_builds, 2) << label;
  }
}

}  // namespace
}  // namespace flowtune
