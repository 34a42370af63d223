// "Best accuracy within a time budget, per precision" of one front (report.md).
#include <algorithm>

#include "reports/budget_table.hpp"
#include "reports/sections/parts.hpp"

namespace flowtune::reports::sections {

std::string budget_md(const DatasetFront& f) {
  double t_min = 1e300, t_max = 0;
  for (const auto& mc : f.measured) {
    t_min = std::min(t_min, mc.measurement.time_ms_median);
    t_max = std::max(t_max, mc.measurement.time_ms_median);
  }
  const auto cells = best_within_budgets(f.measured, f.workload, budgets_for(t_min, t_max));
  if (cells.empty()) return "";
  return "\n### Best accuracy within a time budget, per precision (paper table 2)\n\n" +
         budget_table_md(cells);
}

}  // namespace flowtune::reports::sections
