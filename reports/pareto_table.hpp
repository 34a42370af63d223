// Fixed-width text table of measured configs, as the tune CLI prints the Pareto front.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"

namespace flowtune::reports {

/// A fixed-width table, one line per config in the given order, columns: label, the
/// parameters that differ between the rows (name=value; every parameter when none differs,
/// e.g. for one row: sections::shown_params), time per run (ms, median), ns per
/// work unit, energy per run (mJ, "n/a" without sensor), then each metric (by name, in name
/// order over the rows). The label column is as wide as the longest label. Ends with a
/// newline; an empty input gives the header line and "(no configs)".
std::string format_pareto_table(const std::vector<db::MeasuredConfig>& front);

}  // namespace flowtune::reports
