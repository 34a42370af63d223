// The TV-L1 workload's runner (workloads/tvl1/flow_runner.hpp) over a recording solver (a test
// double, here only): before an item's first run it sizes the item's flow and page-locks
// exactly the two frames and the flow's two planes (n floats each), once per item, and
// compute_into then writes that very storage; the next runner on the same set gets that
// storage and those locks back without asking again, and the locks go with the set; score()
// needs a completed run and measures against the ground truth (oracle: flow_error on the same
// flow).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/metrics.hpp"
#include "variants/variant.hpp"
#include "workloads/tvl1/flow_runner.hpp"
#include "workloads/tvl1/sequence_set.hpp"
#include "workloads/tvl1/sequences.hpp"

namespace flowtune {
namespace {

/// What the recording solver saw.
struct Log {
  std::vector<std::pair<const void*, std::size_t>> locked;     ///< page_lock calls
  int released = 0;                                            ///< lock handles destroyed
  std::vector<std::pair<const float*, const float*>> written;  ///< flow.u / flow.v per run
};

/// Writes a constant flow (1, -0.5) into the caller's flow, recording where; page_lock
/// records the range and returns a handle counting its release (nullptr with `lock_none`, as
/// a CPU solver).
class RecordingSolver final : public FlowSolver {
 public:
  RecordingSolver(Log& log, bool lock_none) : log_(log), lock_none_(lock_none) {}
  FlowField compute(const Image& i0, const Image& i1) override {
    FlowField f;
    compute_into(i0, i1, f);
    return f;
  }
  void compute_into(const Image& i0, const Image&, FlowField& flow) override {
    flow.width = i0.width;
    flow.height = i0.height;
    flow.u.assign(i0.size(), 1.f);  // keeps the storage when it has the size
    flow.v.assign(i0.size(), -0.5f);
    log_.written.emplace_back(flow.u.data(), flow.v.data());
  }
  std::shared_ptr<void> page_lock(const void* p, std::size_t bytes) override {
    log_.locked.emplace_back(p, bytes);
    if (lock_none_) return nullptr;
    Log* log = &log_;
    return std::shared_ptr<void>(const_cast<void*>(p), [log](void*) { ++log->released; });
  }

 private:
  Log& log_;
  bool lock_none_;
};

SequenceSet two_sequences() {
  return SequenceSet(load_sequences(std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury",
                                    {"Grove2", "RubberWhale"}));
}

TEST(FlowRunner, LocksEachItemsFramesAndFlowOnceAndWritesTheLockedFlow) {
  Log log;  // before the set: the set's kept locks count into it when the set goes
  auto set = std::make_unique<SequenceSet>(two_sequences());
  {
    auto runner = make_flow_runner(std::make_unique<RecordingSolver>(log, false), *set);
    EXPECT_THROW(runner->score(0), std::logic_error);
    for (std::size_t item : {0, 0, 1, 0, 1}) runner->run(item);
    ASSERT_EQ(log.locked.size(), 8u);  // 4 per item, at its first run only
    ASSERT_EQ(log.written.size(), 5u);
    for (std::size_t item = 0; item < 2; ++item) {
      const Sequence& s = set->sequence(item);
      const std::size_t bytes = s.i0.size() * sizeof(float);
      const auto* lock = &log.locked[4 * item];
      // The item's first run is written[0] (item 0) or written[2] (item 1).
      const auto& flow = log.written[item == 0 ? 0 : 2];
      EXPECT_EQ(lock[0], std::make_pair(static_cast<const void*>(s.i0.data.data()), bytes));
      EXPECT_EQ(lock[1], std::make_pair(static_cast<const void*>(s.i1.data.data()), bytes));
      EXPECT_EQ(lock[2], std::make_pair(static_cast<const void*>(flow.first), bytes));
      EXPECT_EQ(lock[3], std::make_pair(static_cast<const void*>(flow.second), bytes));
    }
    // Later runs write the same (locked) storage.
    EXPECT_EQ(log.written[1], log.written[0]);
    EXPECT_EQ(log.written[3], log.written[0]);
    EXPECT_EQ(log.written[4], log.written[2]);
    EXPECT_EQ(log.released, 0);

    const Sequence& s = set->sequence(1);
    FlowField want(s.i0.width, s.i0.height);
    for (std::size_t i = 0; i < want.size(); ++i) {
      want.u[i] = 1.f;
      want.v[i] = -0.5f;
    }
    const FlowError e = flow_error(want, s.ground_truth);
    const auto score = runner->score(1);
    EXPECT_EQ(score.at("aepe"), e.aepe);
    EXPECT_EQ(score.at("aae_deg"), e.aae_deg);
  }
  EXPECT_EQ(log.released, 0);  // the set keeps the outputs and their locks
  {
    // A second runner (another point) on the same set: no lock asked, the same storage.
    const std::vector<std::pair<const float*, const float*>> first = {log.written[0],
                                                                      log.written[2]};
    auto runner = make_flow_runner(std::make_unique<RecordingSolver>(log, false), *set);
    EXPECT_THROW(runner->score(1), std::logic_error);  // the kept flow is not this runner's
    runner->run(1);
    runner->run(0);
    EXPECT_EQ(log.locked.size(), 8u);
    EXPECT_EQ(log.written[5], first[1]);
    EXPECT_EQ(log.written[6], first[0]);
  }
  EXPECT_EQ(log.released, 0);
  set.reset();
  EXPECT_EQ(log.released, 8);  // every lock with the set
}

TEST(FlowRunner, ASolverWithADeviceLocksWhatASolverWithoutOneLeftUnlocked) {
  Log log;
  auto set = std::make_unique<SequenceSet>(two_sequences());
  make_flow_runner(std::make_unique<RecordingSolver>(log, true), *set)->run(0);
  EXPECT_EQ(log.locked.size(), 4u);
  {
    auto runner = make_flow_runner(std::make_unique<RecordingSolver>(log, false), *set);
    runner->run(0);
    ASSERT_EQ(log.locked.size(), 8u);  // the four null locks asked again
    for (int k = 0; k < 4; ++k) EXPECT_EQ(log.locked[4 + k], log.locked[k]);
  }
  make_flow_runner(std::make_unique<RecordingSolver>(log, true), *set)->run(0);
  EXPECT_EQ(log.locked.size(), 8u);  // now locked: nothing asked
  set.reset();
  EXPECT_EQ(log.released, 4);
}

TEST(FlowRunner, ASolverWithoutPageLocksIsAskedOncePerItem) {
  const SequenceSet set = two_sequences();
  Log log;
  auto runner = make_flow_runner(std::make_unique<RecordingSolver>(log, true), set);
  for (int k = 0; k < 3; ++k) runner->run(0);
  EXPECT_EQ(log.locked.size(), 4u);
  EXPECT_EQ(log.written.size(), 3u);
}

/// A cold start writes u = 1; compute_from writes the initial flow's u + 1 (v = 0): a pair's
/// u counts the pairs of the warm chain that ends at it.
class ChainSolver final : public FlowSolver {
 public:
  FlowField compute(const Image& i0, const Image&) override {
    FlowField f(i0.width, i0.height);
    std::fill(f.u.begin(), f.u.end(), 1.f);
    return f;
  }
  FlowField compute_from(const Image& i0, const Image&, const FlowField& init) override {
    FlowField f(i0.width, i0.height);
    for (std::size_t i = 0; i < f.u.size(); ++i) f.u[i] = init.u[i] + 1.f;
    return f;
  }
};

/// Four pairs of 8 x 8 frames: a stream of three (previous -1, 0, 1), then a pair of no stream.
SequenceSet stream_of_three() {
  std::vector<Sequence> pairs(4);
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    pairs[k].name = "p" + std::to_string(k);
    pairs[k].i0 = Image(8, 8, float(k));
    pairs[k].i1 = Image(8, 8, float(k + 1));
  }
  pairs[1].previous = 0;
  pairs[2].previous = 1;
  return SequenceSet(std::move(pairs));
}

// warm_start: each pair of a stream starts from its predecessor's last flow (u counts the
// chain: 1, 2, 3), a repeated run from the same flow; a pair of no stream and a stream's first
// pair start from 0; a predecessor not yet run means a start from 0; without warm_start every
// pair starts from 0.
TEST(FlowRunner, WarmStartChainsTheFlowsOfAStreamAndNothingElse) {
  for (const bool warm : {true, false}) {
    const SequenceSet set = stream_of_three();
    {
      auto runner = make_flow_runner(std::make_unique<ChainSolver>(), set, warm);
      for (std::size_t item : {0, 1, 2, 2, 3}) runner->run(item);
    }
    const float want[4] = {1, warm ? 2.f : 1.f, warm ? 3.f : 1.f, 1};
    for (std::size_t item = 0; item < 4; ++item) {
      std::unique_ptr<KeptItemOutput> out = set.take_output(item);
      ASSERT_TRUE(out && out->flow.u.size() == 64u) << item;
      EXPECT_EQ(out->flow.u[63], want[item]) << "item " << item << (warm ? " warm" : " cold");
    }
  }
  const SequenceSet set = stream_of_three();
  auto runner = make_flow_runner(std::make_unique<ChainSolver>(), set, true);
  runner->run(2);  // its predecessor has not run: from 0
  runner.reset();
  std::unique_ptr<KeptItemOutput> out = set.take_output(2);
  EXPECT_EQ(out->flow.u[0], 1.f);
}

}  // namespace
}  // namespace flowtune
