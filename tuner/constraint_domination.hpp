// The strategy's view of a measured point under the request's constraints (Deb's rule), shared
// by the live run (tune_run.cpp) and replay (replay.cpp) so both steer the same way.
#pragma once

#include <utility>
#include <vector>

#include "db/rows.hpp"
#include "select/objectives.hpp"
#include "tuner/strategy.hpp"

namespace flowtune {

/// Objective value given to a point that violates a constraint (plus its violation).
inline constexpr double kInfeasible = 1e12;

/// Total relative violation of `constraints` (figure, bound) by mc: the sum over violated
/// constraints of (value - bound) / max(|bound|, 1e-12), plus 1 for each figure mc lacks
/// (NaN). 0 = feasible. Unitless.
double constraint_violation(const db::MeasuredConfig& mc,
                            const std::vector<std::pair<Objective, double>>& constraints);

/// Per constraint (figure, bound): (value - bound) / max(|bound|, 1e-12), <= 0 where it holds,
/// NaN where mc lacks the figure. Unitless; the Observation::slack of a measured point.
std::vector<double> constraint_slacks(const db::MeasuredConfig& mc,
                                      const std::vector<std::pair<Objective, double>>& constraints);

/// The objectives of mc oriented for minimisation (oriented_value; a missing figure is
/// +infinity), or, when mc violates a constraint, kInfeasible + its violation for every
/// objective: any feasible point beats any infeasible one, and among infeasible ones the
/// smaller violation wins (Deb's constraint-domination rule: K. Deb, "An efficient
/// constraint handling method for genetic algorithms", CMAME 186, 2000, sec. 3.2).
/// Returns one value per objective, in their order.
std::vector<double> constrained_objectives(
    const db::MeasuredConfig& mc, const std::vector<Objective>& objectives,
    const std::vector<std::pair<Objective, double>>& constraints);

/// What the strategy is told for a point known to violate a constraint before it is measured
/// (its accuracy from a table, tuner/accuracy_table.hpp): Deb's rule as constrained_objectives
/// applies it to a measured point, kInfeasible + the sum of the positive slacks for each of
/// n_objectives, no values (nothing was measured) and the slacks (NaN where unknown).
Observation known_infeasible_observation(std::size_t point, std::size_t n_objectives,
                                         const std::vector<double>& slack);

}  // namespace flowtune
