// measure_throughput (variants/frame_throughput): every frame computed exactly once, by the
// solvers in flight, with the flow of the right pair; bad arguments rejected.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <stdexcept>

#include "variants/frame_throughput.hpp"

namespace flowtune {
namespace {

/// A solver whose flow says which pair it saw: u = i0(0, 0), v = i1(0, 0).
class TaggingSolver final : public FlowSolver {
 public:
  explicit TaggingSolver(std::atomic<int>& calls, bool fail = false) : calls_(calls), fail_(fail) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    ++calls_;
    if (fail_) throw std::runtime_error("tagging solver: asked to fail");
    FlowField f(1, 1);
    f.u[0] = i0.data[0];
    f.v[0] = i1.data[0];
    return f;
  }

 private:
  std::atomic<int>& calls_;
  bool fail_;
};

Image pixel(float v) {
  Image im(1, 1);
  im.data[0] = v;
  return im;
}

TEST(FrameThroughput, EveryFrameOnceWithItsOwnPair) {
  std::atomic<int> calls{0};
  std::vector<std::unique_ptr<FlowSolver>> solvers;
  for (int i = 0; i < 3; ++i) solvers.push_back(std::make_unique<TaggingSolver>(calls));
  const std::vector<std::pair<Image, Image>> pairs{
      {pixel(1), pixel(10)}, {pixel(2), pixel(20)}, {pixel(3), pixel(30)}};
  std::mutex m;
  std::multiset<int> seen;
  const auto r = measure_throughput(solvers, pairs, 50, [&](int k, const FlowField& f) {
    std::lock_guard<std::mutex> g(m);
    seen.insert(k);
    EXPECT_EQ(f.u[0], float(k % 3 + 1)) << "frame " << k;
    EXPECT_EQ(f.v[0], float(10 * (k % 3 + 1))) << "frame " << k;
  });
  EXPECT_EQ(r.frames, 50);
  EXPECT_EQ(r.in_flight, 3);
  ASSERT_EQ(seen.size(), 50u);
  for (int k = 0; k < 50; ++k) EXPECT_EQ(seen.count(k), 1u) << k;
  int by_solver = 0;
  for (int n : r.frames_by_solver) by_solver += n;
  EXPECT_EQ(by_solver, 50);
  EXPECT_EQ(calls.load(), 50 + 3);  // + one warm-up frame per solver
  EXPECT_GT(r.frames_per_second, 0);
}

TEST(FrameThroughput, RethrowsASolversErrorAndRejectsBadArguments) {
  std::atomic<int> calls{0};
  std::vector<std::unique_ptr<FlowSolver>> solvers;
  solvers.push_back(std::make_unique<TaggingSolver>(calls, true));
  const std::vector<std::pair<Image, Image>> pairs{{pixel(1), pixel(2)}};
  EXPECT_THROW(measure_throughput(solvers, pairs, 4), std::runtime_error);
  EXPECT_THROW(measure_throughput({}, pairs, 4), std::invalid_argument);
  std::vector<std::unique_ptr<FlowSolver>> ok;
  ok.push_back(std::make_unique<TaggingSolver>(calls));
  EXPECT_THROW(measure_throughput(ok, {}, 4), std::invalid_argument);
  EXPECT_THROW(measure_throughput(ok, pairs, 0), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
