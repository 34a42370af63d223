// Hypervolume indicator of a set of points (minimisation), the measure of a front's quality
// used to compare multi-objective searches (Zitzler and Thiele 1998).
#pragma once

#include <vector>

namespace flowtune {

/// Lebesgue measure of the region dominated by `points` and bounded by `reference` (every
/// objective minimised): the union over points p of the boxes [p_1, r_1] x ... x [p_d, r_d].
/// Points not strictly better than the reference in every objective, or with a NaN, add
/// nothing. Exact, by slicing along the last objective (hypervolume by slicing objectives,
/// While et al. 2006), O(n^d) at worst: meant for fronts of up to a few thousand points in 2-3
/// objectives. Throws std::invalid_argument when a point's size differs from the reference's.
/// Example: {(1,2),(2,1)} with reference (3,3) -> 3.
double hypervolume(std::vector<std::vector<double>> points, const std::vector<double>& reference);

}  // namespace flowtune
