// A progress line with ETA for long tuning runs (stderr, one line per point).
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace flowtune {

/// A duration in the unit a reader takes in at once: "45 s" below 2 min, "17 min" below 2 h,
/// else "2.5 h". The run's whole-space estimate and every progress line's elapsed time and
/// ETA use it, so they never speak in different units.
std::string duration_text(double seconds);

/// Prints "[k/n] 37% label  12 s elapsed, ETA 17 min" lines (duration_text). The ETA weighs points
/// by their cost (Workload::relative_cost): time per unit of cost measured so far times the cost
/// left, so a space whose expensive points come last is not under-estimated. total_cost is the cost
/// of the n points the run will visit (e.g. the budget times the space's mean cost).
class Progress {
 public:
  Progress(std::size_t total, double total_cost, std::ostream& out);
  /// Marks one point as done; `measured` false for a point that took no measuring time
  /// (already in the DB, pruned); cost its relative cost (<= 0 counts as 1).
  void step(const std::string& label, bool measured, double cost = 1);
  std::size_t done() const { return done_; }

 private:
  std::size_t total_, done_ = 0, measured_ = 0;
  double total_cost_, done_cost_ = 0, measured_cost_ = 0;
  std::ostream& out_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace flowtune
