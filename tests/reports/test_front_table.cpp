// The Markdown front table (reports/sections/parts.hpp front_table_md): where no parameter
// takes two values on the front, the first row's parameters are shown on every row, and a row
// whose canonical config leaves one out (it holds its absent value) reads "-" instead of ending
// the report with an exception.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "reports/sections/parts.hpp"

namespace flowtune::reports {
namespace {

TEST(FrontTable, ARowWithoutAVaryingParameterShowsADash) {
  db::WorkloadRow w;
  w.name = "tvl1";
  w.work_unit = "px";
  w.metrics = {{"aepe", "px", "", true}};
  std::vector<db::MeasuredConfig> front(2);
  front[0].config.label = "simd_fused f32";
  front[0].config.params = {{"iterations", 50}, {"median_window", 5}};
  front[0].measurement.time_ms_median = 1.5;
  front[0].measurement.metrics = {{"aepe", 0.25}};
  front[1].config.label = "simd_fused f32";
  front[1].config.params = {{"iterations", 50}};  // median_window at its absent value
  front[1].measurement.time_ms_median = 6.25;
  front[1].measurement.metrics = {{"aepe", 0.2}};
  const std::string table = sections::front_table_md(front, w);
  EXPECT_NE(table.find("| iterations=50 median_window=5 | 1.500 |"), std::string::npos) << table;
  EXPECT_NE(table.find("| iterations=50 median_window=- | 6.250 |"), std::string::npos) << table;
}

}  // namespace
}  // namespace flowtune::reports
