#include <gtest/gtest.h>

#include <chrono>
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
