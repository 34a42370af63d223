// The main-effects surrogate of the model-based strategies (additive_surrogate, kernel_staged):
// a figure (an objective, or a constraint's slack) modelled as a constant plus one effect per
// dimension and value, the first-order terms of a functional ANOVA decomposition (Hooker 2007;
// Hutter, Hoos and Leyton-Brown 2014, "An efficient approach for assessing hyperparameter
// importance", sec. 3), fitted by backfitting with shrinkage towards 0 (Hastie and Tibshirani
// 1990, "Generalized additive models", sec. 4.3).
#pragma once

#include <cstddef>
#include <random>
#include <vector>

#include "tuner/strategy.hpp"

namespace flowtune::strategies {

/// Prior weight of a zero effect, in observations (the shrinkage of every effect).
inline constexpr double kEffectShrink = 1.0;
/// Backfitting sweeps over the dimensions.
inline constexpr int kBackfitSweeps = 8;
/// Fewest usable observations a figure is fitted from.
inline constexpr std::size_t kMinFitPoints = 4;
/// ParEGO's augmentation rho of the Tchebycheff scalarisation (Knowles 2006, sec. III-B).
inline constexpr double kParegoAugment = 0.05;

/// The levels of the dimensions of a space: each dimension's values + 1 ("does not apply",
/// a coordinate of -1).
std::vector<std::size_t> dimension_levels(const SearchSpace& space);

/// A point's level on every dimension (n_levels[d] - 1 where dimension d does not apply):
/// what the models below read of a point. Computed once per point by a caller that predicts
/// or fits often (a generated space computes coordinates per call).
using PointLevels = std::vector<std::size_t>;
PointLevels point_levels(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                         std::size_t point);

/// prediction = mean + sum over dimensions d of effect[d][level of the point on d].
struct MainEffects {
  double mean = 0;
  std::vector<std::vector<double>> effect;
  /// The level of `point` on dimension d (n_levels[d] - 1 where the dimension does not apply).
  static std::size_t level(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                           std::size_t point, std::size_t d);
  double predict(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                 std::size_t point) const;
  /// The same from the point's levels (point_levels).
  double predict(const PointLevels& levels) const;
};

/// Backfitting of y (one value per point) over the dimensions of space: each of
/// kBackfitSweeps sweeps sets every dimension's effects to the mean of the partial residuals
/// of its levels, shrunk by kEffectShrink. points and y have the same size.
MainEffects fit_main_effects(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                             const std::vector<std::size_t>& points, const std::vector<double>& y);
/// The same from each point's levels (levels[i] of point i, as point_levels gives them).
MainEffects fit_main_effects(const std::vector<std::size_t>& n_levels,
                             const std::vector<const PointLevels*>& levels,
                             const std::vector<double>& y);

/// The model of one figure over the points where it is finite. log_space: fitted on the
/// logarithm (every value positive: times and errors multiply across a kernel's schedule and
/// the algorithm's work). A slack s is fitted as log(1 + s) = log(value / bound) where every
/// 1 + s > 0, else as s; either way the constraint holds where the fitted figure is <= 0.
struct FigureModel {
  MainEffects model;
  bool log_space = false;
  double lo = 0, hi = 0;  ///< range of the fitted values
  bool valid = false;     ///< fitted from at least kMinFitPoints points
  /// Root mean square of the fit's residuals over its points, in fitted units.
  double residual_sd = 0;
  /// Fitted points per dimension and level (the evidence behind each effect).
  std::vector<std::vector<double>> count;

  /// The fitted transform of a raw value (log, log(1 + s), or as is).
  double fitted(double raw, bool slack) const;
  /// Predicted standard deviation of the fitted figure at point: residual_sd x sqrt(1 + sum
  /// over dimensions of 1 / (count + kEffectShrink)), the variance of a ridge-shrunk level
  /// mean added per dimension (an approximate posterior of the additive model; an unseen
  /// level adds one residual variance).
  double predicted_sd(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                      std::size_t point) const;
  /// The same from the point's levels (point_levels).
  double predicted_sd(const PointLevels& levels) const;
};

/// Fits a figure from (point, raw value) pairs; non-finite values are left out. slack: the
/// values are constraint slacks (FigureModel). Not valid below kMinFitPoints finite values.
FigureModel fit_figure(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                       const std::vector<std::size_t>& points, const std::vector<double>& raw,
                       bool slack);
/// The same from each point's levels (levels[i] of point i, as point_levels gives them).
FigureModel fit_figure(const std::vector<std::size_t>& n_levels,
                       const std::vector<const PointLevels*>& levels,
                       const std::vector<double>& raw, bool slack);

/// Objective k of o as measured: Observation::values, or where the caller gave none, the
/// objective unless the constraint rule replaced it (then NaN).
double measured_value(const Observation& o, std::size_t k);

/// A measured observation carrying every objective (a surrogate learns from it).
bool usable_observation(const Observation* o, std::size_t n_objectives);

/// ParEGO weights: uniform on the simplex (normalised exponentials); all 1 for one objective
/// (no draw then).
std::vector<double> parego_weights(std::size_t n_objectives, std::mt19937_64& rng);

/// ParEGO's augmented Tchebycheff scalarisation of normalised objectives z: max_k(w_k z_k) +
/// kParegoAugment x sum_k w_k z_k (Knowles 2006, "ParEGO", IEEE TEVC 10(1), sec. III-B).
double tchebycheff(const std::vector<double>& weight, const std::vector<double>& z);

}  // namespace flowtune::strategies
