#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "tuner/measure.hpp"

namespace flowtune {
namespace {

// Returns a fixed flow after a fixed delay: the oracle for the harness's arithmetic.
class FixedSolver : public FlowSolver {
 public:
  FixedSolver(FlowField flow, int delay_ms) : flow_(std::move(flow)), delay_ms_(delay_ms) {}
  FlowField compute(const Image&, const Image&) override {
    ++calls;
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
    return flow_;
  }
  int calls = 0;

 private:
  FlowField flow_;
  int delay_ms_;
};

class FixedSensor : public EnergySensor {
 public:
  std::string name() const override { return "fixed"; }
  void start() override {}
  std::optional<double> stop_mj() override { return 1000.0; }
};

Sequence make_sequence(float u, float v) {
  Sequence s;
  s.name = "synthetic";
  s.i0 = Image(40, 30, 10.f);
  s.i1 = Image(40, 30, 20.f);
  s.ground_truth = FlowField(40, 30);
  std::fill(s.ground_truth.u.begin(), s.ground_truth.u.end(), u);
  std::fill(s.ground_truth.v.begin(), s.ground_truth.v.end(), v);
  return s;
}

TEST(Measure, AccuracyTimeAndRepeatsFollowTheProtocol) {
  const Sequence seq = make_sequence(3.f, 4.f);
  FixedSolver solver(FlowField(40, 30), 5);  // zero flow: AEPE = |(3,4)| = 5 px
  MeasureOptions o;
  o.warmup_rounds = 1;
  o.min_rounds = 4;  // frames per sequence
  o.min_window_ms = 0;
  const db::MeasurementRow m = measure_frames(solver, {seq}, nullptr, o);
  EXPECT_NEAR(m.aepe, 5.0, 1e-6);
  EXPECT_EQ(m.n_repeats, 4);
  EXPECT_EQ(solver.calls, 5);
  EXPECT_GE(m.time_ms_median, 5.0);
  EXPECT_LE(m.time_ms_min, m.time_ms_median);
  EXPECT_GE(m.time_ms_max, m.time_ms_median);
  EXPECT_NEAR(m.ns_per_px, m.time_ms_median * 1e6 / (40 * 30), m.time_ms_median * 1e6 / (40 * 30) * 0.5);
  EXPECT_FALSE(m.energy_mj.has_value()) << "no sensor: energy must be NULL, not 0";
  EXPECT_EQ(m.dataset, "middlebury:synthetic");
}

TEST(Measure, WindowRepeatsShortKernelsAndEnergyIsPerFrame) {
  const Sequence seq = make_sequence(0.f, 0.f);
  FixedSolver solver(FlowField(40, 30), 2);
  FixedSensor sensor;
  MeasureOptions o;
  o.min_rounds = 1;
  o.min_window_ms = 50;
  const db::MeasurementRow m = measure_frames(solver, {seq}, &sensor, o);
  EXPECT_GE(m.n_repeats * 2, 50 * 0.9) << "window shorter than asked";
  ASSERT_TRUE(m.energy_mj.has_value());
  EXPECT_NEAR(*m.energy_mj, 1000.0 / m.n_repeats, 1e-9);
  EXPECT_NEAR(*m.nj_per_px, 1000.0 * 1e6 / (m.n_repeats * 40.0 * 30.0), 1e-6);
}

}  // namespace
}  // namespace flowtune
