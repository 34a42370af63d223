// Paper table 2 from the DB (reports/budget_table): best accuracy within a time budget, per
// precision, checked against hand-picked answers.
#include <gtest/gtest.h>

#include <cmath>

#include "reports/budget_table.hpp"

namespace flowtune::reports {
namespace {

db::MeasuredConfig mc(const std::string& label, const std::string& precision, double ms,
                      double aepe, double aae) {
  db::MeasuredConfig m;
  m.config.label = label;
  m.config.precision = precision;
  m.measurement.time_ms_median = ms;
  m.measurement.metrics = {{"aepe", aepe}, {"aae", aae}};
  m.config.params = {{"iterations", ms > 1 ? 100.0 : 10.0}, {"theta", 0.3}};
  return m;
}

db::WorkloadRow workload() {
  db::WorkloadRow w;
  w.name = "tvl1";
  w.metrics = {{"aepe", "px", "", true}, {"aae", "deg", "", true}, {"fps", "1/s", "", false}};
  return w;
}

TEST(BudgetTable, BestPerPrecisionWithinEachBudget) {
  const std::vector<db::MeasuredConfig> measured{
      mc("a16", "f16", 0.4, 0.50, 9.0), mc("b16", "f16", 0.9, 0.40, 8.0),
      mc("c16", "f16", 3.0, 0.36, 7.5), mc("a32", "f32", 0.8, 0.45, 8.5),
      mc("b32", "f32", 1.9, 0.38, 7.0), mc("n32", "f32", 0.7, NAN, NAN)};
  const auto cells = best_within_budgets(measured, workload(), {0.5, 1, 2});
  // 3 budgets x 2 precisions x 2 minimised metrics (fps is maximised: not a column).
  ASSERT_EQ(cells.size(), 12u);
  auto at = [&](double b, const std::string& p, const std::string& m) {
    for (const auto& c : cells)
      if (c.budget_ms == b && c.precision == p && c.metric == m) return c;
    ADD_FAILURE() << "no cell " << b << " " << p << " " << m;
    return BudgetCell{};
  };
  EXPECT_EQ(at(0.5, "f16", "aepe").label, "a16");
  EXPECT_DOUBLE_EQ(at(0.5, "f16", "aepe").value, 0.50);
  EXPECT_FALSE(at(0.5, "f32", "aepe").found);  // the NaN config is not an answer
  EXPECT_EQ(at(1, "f16", "aepe").label, "b16");
  EXPECT_EQ(at(1, "f32", "aepe").label, "a32");
  EXPECT_EQ(at(2, "f16", "aepe").label, "b16");  // c16 takes 3 ms
  EXPECT_EQ(at(2, "f32", "aae").label, "b32");
  EXPECT_DOUBLE_EQ(at(2, "f32", "aae").value, 7.0);
  const std::string md = budget_table_md(cells);
  EXPECT_NE(md.find("| 0.5 | f32 | - | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("0.4000 (b16 iterations=10, 0.900)"), std::string::npos) << md;
  EXPECT_EQ(at(2, "f32", "aae").params, "iterations=100");  // theta does not vary
}

TEST(BudgetTable, BudgetsSpanTheMeasuredTimes) {
  EXPECT_EQ(budgets_for(0.3, 2.6), (std::vector<double>{0.5, 1, 2, 5}));
  EXPECT_EQ(budgets_for(120, 900), (std::vector<double>{200, 500, 1000}));
  EXPECT_TRUE(budgets_for(0, 1).empty());
  EXPECT_TRUE(budgets_for(2, 1).empty());
  EXPECT_LE(budgets_for(0.01, 1e5).size(), 8u);
}

}  // namespace
}  // namespace flowtune::reports
