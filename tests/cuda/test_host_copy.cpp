// HostCopier (variants/cuda/host_copy): the parallel memcpy of frame planes copies every byte
// of every job to its place, whatever the split, for 1 to 5 threads, repeatedly; the chunked
// copy runs each chunk's hooks once, `before` before the chunk's bytes are read (a hook that
// writes the source, as a download arriving, is seen by the copy) and `after` once they are
// all in place, and rethrows a hook's exception.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "variants/cuda/host_copy.hpp"

namespace flowtune::cuda {
namespace {

TEST(HostCopier, CopiesEveryByteOfEveryJob) {
  for (int threads = 1; threads <= 5; ++threads) {
    HostCopier c(threads);
    for (std::size_t n : {std::size_t(7), std::size_t(100003), std::size_t(300001)}) {
      std::vector<float> a(n), b(n + 5), out(2 * n + 5, -1.f);
      std::iota(a.begin(), a.end(), 1.f);
      std::iota(b.begin(), b.end(), 1e6f);
      for (int round = 0; round < 3; ++round) {
        c.copy({{out.data(), a.data(), n * sizeof(float)},
                {out.data() + n, b.data(), (n + 5) * sizeof(float)}});
        for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a[i]) << threads << " " << i;
        for (std::size_t i = 0; i < n + 5; ++i) ASSERT_EQ(out[n + i], b[i]) << threads << " " << i;
        std::fill(out.begin(), out.end(), -1.f);
      }
    }
    EXPECT_EQ(c.threads(), std::max(threads, 1));
  }
}

TEST(HostCopier, ChunkedCopyRunsTheHooksAroundEachChunk) {
  for (int threads = 1; threads <= 5; ++threads) {
    HostCopier c(threads);
    for (const std::size_t n : {std::size_t(1000), std::size_t(300001)}) {
      for (const int chunks : {1, 3, 8, 64}) {
        std::vector<float> a(n, 0.f), b(n + 5, 0.f), out(2 * n + 5, -1.f);
        const std::size_t total = (2 * n + 5) * sizeof(float);
        const std::size_t nc = static_cast<std::size_t>(chunks);
        std::vector<std::atomic<int>> before(nc), after(nc);
        std::atomic<int> bad{0};
        c.copy_chunked(
            {{out.data(), a.data(), n * sizeof(float)},
             {out.data() + n, b.data(), (n + 5) * sizeof(float)}},
            chunks,
            [&](int k) {  // the chunk's source arrives only now
              ++before[std::size_t(k)];
              const std::size_t lo = HostCopier::chunk_begin(total, chunks, k) / sizeof(float);
              const std::size_t hi = HostCopier::chunk_begin(total, chunks, k + 1) / sizeof(float);
              for (std::size_t i = lo; i < hi; ++i) (i < n ? a[i] : b[i - n]) = float(i) + 0.5f;
            },
            [&](int k) {
              ++after[std::size_t(k)];
              const std::size_t lo = HostCopier::chunk_begin(total, chunks, k) / sizeof(float);
              const std::size_t hi = HostCopier::chunk_begin(total, chunks, k + 1) / sizeof(float);
              for (std::size_t i = lo; i < hi; ++i)
                if (out[i] != float(i) + 0.5f) ++bad;
            });
        for (int k = 0; k < chunks; ++k) {
          EXPECT_EQ(before[std::size_t(k)], 1) << threads << " " << n << " " << chunks;
          EXPECT_EQ(after[std::size_t(k)], 1) << threads << " " << n << " " << chunks;
        }
        EXPECT_EQ(bad, 0) << threads << " " << n << " " << chunks;
        for (std::size_t i = 0; i < out.size(); ++i)
          ASSERT_EQ(out[i], float(i) + 0.5f) << threads << " " << n << " " << chunks << " " << i;
      }
    }
  }
}

TEST(HostCopier, ChunkBoundariesCoverTheBytesInOrder) {
  for (const std::size_t total : {std::size_t(1), std::size_t(4096 * 3 + 1), std::size_t(1812736)})
    for (const int chunks : {1, 2, 7, 64}) {
      EXPECT_EQ(HostCopier::chunk_begin(total, chunks, 0), 0u);
      EXPECT_EQ(HostCopier::chunk_begin(total, chunks, chunks), total);
      for (int k = 0; k < chunks; ++k) {
        EXPECT_LE(HostCopier::chunk_begin(total, chunks, k),
                  HostCopier::chunk_begin(total, chunks, k + 1));
        EXPECT_EQ(HostCopier::chunk_begin(total, chunks, k) % 4096, 0u);
      }
    }
}

TEST(HostCopier, ChunkedCopyRethrowsAHookError) {
  for (int threads = 1; threads <= 3; ++threads) {
    HostCopier c(threads);
    std::vector<float> a(200000, 1.f), out(200000, 0.f);
    EXPECT_THROW(c.copy_chunked({{out.data(), a.data(), a.size() * sizeof(float)}}, 4, {},
                                [](int k) {
                                  if (k == 2) throw std::runtime_error("upload failed");
                                }),
                 std::runtime_error);
    // The copier stays usable.
    std::vector<float> b(300000, 2.f), out2(300000, 0.f);
    c.copy({{out2.data(), b.data(), b.size() * sizeof(float)}});
    EXPECT_EQ(out2, b);
  }
}

}  // namespace
}  // namespace flowtune::cuda
