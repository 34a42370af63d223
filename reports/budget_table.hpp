// "What accuracy does each precision reach within a time budget?" (Romera et al. 2023,
// table 2: at a fixed time per frame, F16 against F32), from the DB's measurements.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"

namespace flowtune::reports {

/// One cell: the best config of `precision` whose median time is within `budget_ms`.
struct BudgetCell {
  double budget_ms = 0;
  std::string precision;
  std::string metric;  ///< a minimised metric of the workload (aepe, aae, ...)
  bool found = false;
  double value = 0;    ///< the smallest metric value among those configs
  std::string label;   ///< the config that reaches it
  std::string params;  ///< its parameters that vary among the measurements ("iterations=30 ...")
  double time_ms = 0;  ///< its median time
};

/// Budgets for a table over measurements whose times span [t_min, t_max] ms: those of
/// {1, 2, 5} x 10^k (k from -2 to 5) that are >= t_min and <= 2 t_max (so the last
/// column shows the unconstrained best), at most 8, ascending. Empty when t_min > t_max or
/// t_min <= 0.
std::vector<double> budgets_for(double t_min, double t_max);

/// For each budget, each precision present in `measured` and each minimised metric of w:
/// the smallest metric value among the configs of that precision with time_ms_median <=
/// budget (NaN values ignored). Cells are ordered budget, precision, metric.
std::vector<BudgetCell> best_within_budgets(const std::vector<db::MeasuredConfig>& measured,
                                            const db::WorkloadRow& w,
                                            const std::vector<double>& budgets_ms);

/// The cells as a Markdown table: one row per budget and precision, one column per metric
/// ("value (label, time ms)"; "-" where no config of that precision fits the budget).
std::string budget_table_md(const std::vector<BudgetCell>& cells);

}  // namespace flowtune::reports
