// Multi-fidelity by screening (tuner/tune_run.cpp): each point is first measured on one item
// with a short timing window, and measured in full only when promoted. The promotion rule is
// asynchronous successive halving (Li et al., "A system for massively parallel
// hyperparameter tuning", MLSys 2020, ASHA: a point goes up a rung when it is in the top
// 1/eta of the points of its rung so far), with Pareto dominance for several objectives.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

namespace flowtune {

/// One rung of screened points and the promotions out of it. Objectives are oriented for
/// minimisation (as the strategies see them).
class Screening {
 public:
  /// eta > 1: the reduction factor (3, Hyperband's and ASHA's usual choice).
  explicit Screening(double eta = 3);

  /// Records the screen objectives of point; returns true when it is promoted: fewer than
  /// ceil(n / eta) of the n screened points (itself included) dominate it (Pareto dominance:
  /// <= in every objective, < in one). A point with a NaN objective is never promoted.
  bool screen(std::size_t point, const std::vector<double>& objectives);

  /// The full-fidelity objectives of a promoted point: they calibrate surrogate().
  void full_result(std::size_t point, const std::vector<double>& objectives);

  /// What the strategy is told for a point screened out: its screen objectives, each times
  /// the median ratio full / screen of that objective over the promoted points measured in
  /// full (1 before there is one); values <= 0, not finite, or at or above `cap` (a
  /// constraint penalty) are kept as they are. Throws std::out_of_range for a point not
  /// screened.
  std::vector<double> surrogate(std::size_t point, double cap) const;

  std::size_t screened() const { return screen_.size(); }
  std::size_t promoted() const { return n_promoted_; }

 private:
  double eta_;
  std::map<std::size_t, std::vector<double>> screen_, full_;
  std::size_t n_promoted_ = 0;
};

}  // namespace flowtune
