// How far predictions are from measurements: the figures `tune report` (predicted next to
// measured), `tune predict --calibrate-from` (refit error) and the validation reports use.
#pragma once

#include <vector>

namespace flowtune {

/// Median over i of |ln(predicted[i] / measured[i])| (0.25 = within ~28 %). Pairs where either
/// value is not finite or not > 0 are skipped. NaN when no pair is left. Throws
/// std::invalid_argument when the vectors differ in length.
double median_abs_log_ratio(const std::vector<double>& predicted,
                            const std::vector<double>& measured);

/// Spearman's rank correlation rho of a and b: the Pearson correlation of their ranks, tied
/// values getting the mean of their ranks (Spearman 1904; e.g. Press et al., Numerical
/// Recipes 3rd ed., sec. 14.6). NaN with fewer than 2 pairs or when either side is constant.
/// Throws std::invalid_argument when the vectors differ in length.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace flowtune
