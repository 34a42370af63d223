// The wall-clock budget of a tuning run (TuneOptions::time_budget_s): which point may still
// start, and when the points in flight are cancelled, so that a run ends within 5% of it
// (the 5% is the run's wind-down: stopping the measuring process, the front, the summary).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

namespace flowtune {

/// Points measure within this fraction of the time budget; the rest, and the 5%, are the
/// run's wind-down (a cancelled measurement noticed within the evaluator's 100 ms poll, the
/// measuring process stopped, the front and the summary).
inline constexpr double kTimeBudgetPointsFraction = 0.98;

/// Wall seconds a point takes (start to outcome: build, warm-up, timed runs), per unit of
/// Workload::relative_cost, from the points measured so far; before the first one, a prior
/// rate (e.g. from this board's measurements in the DB), or none.
class PointTimeEstimate {
 public:
  /// prior_s_per_cost <= 0: no prior (seconds() is none until a point is observed).
  explicit PointTimeEstimate(double prior_s_per_cost = 0) : prior_(prior_s_per_cost) {}
  /// A point of relative cost `cost` (<= 0 counts as 1) took wall_s seconds.
  void observe(double cost, double wall_s);
  /// The expected wall seconds of a point of relative cost `cost` (<= 0 counts as 1): the
  /// median of the observed seconds per cost unit times cost once kMinObserved points are
  /// observed (a run's first point also pays the measuring process's start and its first
  /// builds: one such point would make every later one look too long to start), else the
  /// prior's; none without either.
  std::optional<double> seconds(double cost) const;
  static constexpr std::size_t kMinObserved = 3;

 private:
  double prior_;
  std::vector<double> s_per_cost_;  ///< per observed point
};

/// Whether a point may start at elapsed_s into a run of time_budget_s (0 = no budget: always)
/// when it is expected to take point_s: elapsed_s + point_s <= kTimeBudgetPointsFraction x
/// time_budget_s. Without an estimate (nothing measured, no prior) it starts while the budget
/// is not spent (past_time_budget false): the cancellation bounds it.
bool point_fits_time_budget(double elapsed_s, double time_budget_s, std::optional<double> point_s);

/// Whether the budget is spent: no point starts, and the points in flight are cancelled (not
/// recorded: a resumed run measures them again): elapsed_s >= kTimeBudgetPointsFraction x
/// time_budget_s (never without a budget).
bool past_time_budget(double elapsed_s, double time_budget_s);

}  // namespace flowtune
