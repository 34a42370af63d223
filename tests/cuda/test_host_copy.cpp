// HostCopier (variants/cuda/host_copy): the parallel memcpy of frame planes copies every byte
// of every job to its place, whatever the split, for 1 to 5 threads, repeatedly.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
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

}  // namespace
}  // namespace flowtune::cuda
