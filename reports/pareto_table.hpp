// Fixed-width text table of measured configs, as the tune CLI prints the Pareto front.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"

namespace flowtune::reports {

/// A fixed-width table, one line per config in the given order, columns: label, time per
/// frame (ms, median), ns/px, energy per frame (mJ, "n/a" without sensor), AEPE (px), AAE
/// (deg). The label column is as wide as the longest label. Ends with a newline; an empty
/// input gives the header line and "(no configs)".
std::string format_pareto_table(const std::vector<db::MeasuredConfig>& front);

}  // namespace flowtune::reports
