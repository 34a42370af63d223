#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "tuner/measure.hpp"

namespace flowtune {
namespace {

// Items of known work; the oracle for the harness's arithmetic.
class FixedInputs : public InputSet {
 public:
  explicit FixedInputs(std::vector<double> work) : work_(std::move(work)) {}
  std::string key() const override { return "fixed:" + std::to_string(work_.size()); }
  std::size_t size() const override { return work_.size(); }
  std::string item_name(std::size_t i) const override { return "item" + std::to_string(i); }
  double item_work(std::size_t i) const override { return work_.at(i); }

 private:
  std::vector<double> work_;
};

// Sleeps a fixed delay per run; scores item i as error = 5 + i.
class FixedRunner : public Runner {
 public:
  explicit FixedRunner(int delay_ms) : delay_ms_(delay_ms) {}
  void run(std::size_t) override {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
  }
  std::map<std::string, double> score(std::size_t i) override {
    ++scores;
    return {{"error", 5.0 + double(i)}};
  }
  int calls = 0, scores = 0;

 private:
  int delay_ms_;
};

class FixedSensor : public EnergySensor {
 public:
  std::string name() const override { return "fixed"; }
  void start() override {}
  std::optional<double> stop_mj() override { return 1000.0; }
};

TEST(Measure, MetricsTimeAndRepeatsFollowTheProtocol) {
  const FixedInputs inputs({1200, 1200});
  FixedRunner runner(5);
  MeasureOptions o;
  o.warmup_rounds = 1;
  o.min_rounds = 4;  // timed runs per item
  o.min_window_ms = 0;
  o.ci_fraction = 0;  // exactly min_rounds (the adaptive rule is tested below)
  const db::MeasurementRow m = measure_runner(runner, inputs, nullptr, o);
  EXPECT_NEAR(m.metric("error"), 5.5, 1e-12);  // mean of 5 and 6
  ASSERT_EQ(m.items.size(), 2u);
  EXPECT_EQ(m.items[1].item, "item1");
  EXPECT_DOUBLE_EQ(m.items[1].metrics.at("error"), 6.0);
  EXPECT_EQ(m.n_repeats, 4);
  EXPECT_EQ(runner.calls, 2 * 5);
  EXPECT_EQ(runner.scores, 2);  // the first (warm-up) output of each item is scored
  EXPECT_GE(m.time_ms_median, 5.0);
  EXPECT_LE(m.time_ms_min, m.time_ms_median);
  EXPECT_GE(m.time_ms_max, m.time_ms_median);
  EXPECT_NEAR(m.ns_per_unit, m.time_ms_median * 1e6 / 1200, m.time_ms_median * 1e6 / 1200 * 1e-9);
  EXPECT_FALSE(m.energy_mj.has_value()) << "no sensor: energy must be NULL, not 0";
  EXPECT_EQ(m.dataset, "fixed:2");
}

// A runner whose scoring sleeps too: each phase's time is known from the sleeps.
class SlowScoringRunner : public FixedRunner {
 public:
  SlowScoringRunner() : FixedRunner(5) {}
  std::map<std::string, double> score(std::size_t i) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    return FixedRunner::score(i);
  }
};

TEST(Measure, PhasesAccountForTheRunsAndTheScoring) {
  const FixedInputs inputs({100, 100});
  SlowScoringRunner runner;
  MeasureOptions o;
  o.warmup_rounds = 2;  // the scored first run and one more per item
  o.min_rounds = 4;
  o.ci_fraction = 0;
  o.picture_max_side = 0;
  MeasurePhases p;
  const auto start = std::chrono::steady_clock::now();
  measure_runner(runner, inputs, nullptr, o, &p);
  const double wall_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // 2 items: 2 scored runs of >= 5 ms, 2 scorings of >= 20 ms, 2 more warm-up runs, 8 timed.
  EXPECT_GE(p.first_run_s, 2 * 0.005);
  EXPECT_GE(p.score_s, 2 * 0.020);
  EXPECT_GE(p.warmup_s, 2 * 0.005);
  EXPECT_GE(p.timed_s, 8 * 0.005);
  EXPECT_LT(p.score_s, p.total_s());
  EXPECT_EQ(p.build_s, 0.0) << "measure_runner does not build";
  EXPECT_LE(p.total_s(), wall_s + 1e-9) << "the phases cannot exceed the wall time";
  MeasurePhases twice = p;
  twice += p;
  EXPECT_DOUBLE_EQ(twice.total_s(), 2 * p.total_s());
  EXPECT_EQ(p.teardown_s + p.protocol_s, 0.0) << "measure_runner neither frees nor encodes";
  MeasurePhases around;  // what measure_config and the worker add: 0.25 s + 0.125 s
  around.teardown_s = 0.25;
  around.protocol_s = 0.125;
  MeasurePhases with_around = p;
  with_around += around;
  EXPECT_DOUBLE_EQ(with_around.total_s(), p.total_s() + 0.375);
}

TEST(Measure, MedianConfidenceIntervalHalfWidthByHand) {
  EXPECT_TRUE(std::isinf(median_ci_halfwidth({1, 2})));      // too few runs
  EXPECT_DOUBLE_EQ(median_ci_halfwidth({10, 10, 10}), 0.0);  // no spread
  // n = 3: 1.96 * 1.2533 * s / sqrt(3) / median with s = 1, median 10.
  EXPECT_NEAR(median_ci_halfwidth({11, 9, 10}), 1.96 * 1.2533 / std::sqrt(3.0) / 10, 1e-12);
  // n = 6: ranks floor(3 - 2.40) = 0 -> 1 and ceil(3 + 2.40) + 1 = 7 -> 6: (6 - 1) / 2 / 3.5.
  EXPECT_NEAR(median_ci_halfwidth({6, 1, 5, 2, 4, 3}), 5.0 / 2 / 3.5, 1e-12);
  // n = 25: ranks floor(12.5 - 4.9) = 7 and ceil(12.5 + 4.9) + 1 = 19 of 1..25: (19 - 7) / 2 / 13.
  std::vector<double> v;
  for (int i = 25; i >= 1; --i) v.push_back(i);
  EXPECT_NEAR(median_ci_halfwidth(v), 12.0 / 2 / 13, 1e-12);
}

TEST(Measure, AdaptiveRepetitionStopsOnceTheIntervalIsTight) {
  const FixedInputs inputs({1200});
  FixedRunner runner(3);
  MeasureOptions o;
  o.min_rounds = 3;
  o.ci_fraction = 10;  // any spread passes: the minimum ends it, even on a loaded machine
  o.max_window_ms = 10000;
  EXPECT_EQ(measure_runner(runner, inputs, nullptr, o).n_repeats, 3);
  o.ci_fraction = 1e-9;  // never tight enough: the window cap ends it
  o.max_window_ms = 40;
  const db::MeasurementRow m = measure_runner(runner, inputs, nullptr, o);
  EXPECT_GT(m.n_repeats, 3);  // past the minimum, up to the 40 ms cap of >= 3 ms runs
  EXPECT_LE(m.n_repeats, 15);
}

TEST(Measure, WindowRepeatsShortRunsAndEnergyIsPerRun) {
  const FixedInputs inputs({1200});
  FixedRunner runner(2);
  FixedSensor sensor;
  MeasureOptions o;
  o.min_rounds = 1;
  o.min_window_ms = 50;
  const db::MeasurementRow m = measure_runner(runner, inputs, &sensor, o);
  EXPECT_GE(m.n_repeats * m.time_ms_max, 50 * 0.9) << "window shorter than asked";
  ASSERT_TRUE(m.energy_mj.has_value());
  EXPECT_NEAR(*m.energy_mj, 1000.0 / m.n_repeats, 1e-9);
  EXPECT_NEAR(*m.nj_per_unit, 1000.0 * 1e6 / (m.n_repeats * 1200.0), 1e-6);
}

TEST(Measure, ACheckFailureReachesTheCaller) {
  class Failing : public FixedRunner {
   public:
    Failing() : FixedRunner(0) {}
    std::map<std::string, double> score(std::size_t) override { throw CheckFailed("3 mismatches"); }
  } runner;
  EXPECT_THROW(measure_runner(runner, FixedInputs({10}), nullptr, MeasureOptions{}), CheckFailed);
}

}  // namespace
}  // namespace flowtune
