// The report's three-objective front (time, energy and the accuracy metric; the paper's three
// objectives) of make_dataset_front (reports/report_model.hpp), against a hand-made set.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "reports/report_model.hpp"

namespace flowtune::reports {
namespace {

db::MeasuredConfig point(std::int64_t id, double time_ms, std::optional<double> energy_mj,
                         double aepe) {
  db::MeasuredConfig mc;
  mc.measurement_id = id;
  mc.config.label = "p" + std::to_string(id);
  mc.measurement.time_ms_median = time_ms;
  mc.measurement.energy_mj = energy_mj;
  mc.measurement.metrics = {{"aepe", aepe}};
  return mc;
}

std::vector<std::int64_t> ids(const std::vector<db::MeasuredConfig>& front) {
  std::vector<std::int64_t> out;
  for (const auto& mc : front) out.push_back(mc.measurement_id);
  return out;
}

TEST(ThreeObjectiveFront, HoldsThePointsWithEnergyThatNoneDominatesInAllThree) {
  db::WorkloadRow w;
  w.name = "tvl1";
  w.work_unit = "px";
  w.front_objectives = {"time_ms", "aepe"};
  w.metrics = {{"aepe", "px", "", true}};
  // (time ms, energy mJ, aepe): 5 is dominated by 2 in all three; 6 has no energy reading and
  // dominates everything on time and aepe, so it alone is the time-aepe front.
  const DatasetFront f = make_dataset_front(
      "d", w,
      {point(1, 1.0, 10, 0.5), point(2, 2.0, 5, 0.4), point(3, 3.0, 20, 0.3), point(4, 1.5, 4, 0.6),
       point(5, 2.5, 6, 0.45), point(6, 0.5, std::nullopt, 0.1)});
  EXPECT_EQ(ids(f.front), (std::vector<std::int64_t>{6}));
  ASSERT_EQ(f.three_objectives.size(), 3u);
  EXPECT_EQ(f.three_objectives[0].name, "time_ms");
  EXPECT_EQ(f.three_objectives[1].name, "energy_mj");
  EXPECT_EQ(f.three_objectives[2].name, "aepe");
  EXPECT_EQ(ids(f.three_objective_front), (std::vector<std::int64_t>{1, 4, 2, 3}))
      << "sorted by time; 5 dominated, 6 without energy";
  EXPECT_EQ(ids(f.time_energy), (std::vector<std::int64_t>{1, 4}));
}

TEST(ThreeObjectiveFront, EmptyWithoutEnergy) {
  db::WorkloadRow w;
  w.name = "tvl1";
  w.front_objectives = {"time_ms", "aepe"};
  w.metrics = {{"aepe", "px", "", true}};
  const DatasetFront f = make_dataset_front(
      "d", w, {point(1, 1.0, std::nullopt, 0.5), point(2, 2.0, std::nullopt, 0.4)});
  EXPECT_TRUE(f.three_objectives.empty());
  EXPECT_TRUE(f.three_objective_front.empty());
}

}  // namespace
}  // namespace flowtune::reports
