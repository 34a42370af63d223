// Progress of long tuning runs on stderr: one line per point (logs, pipes), one updating
// bar line (a terminal), or nothing (--quiet).
#pragma once

#include <chrono>
#include <cstddef>
#include <optional>
#include <ostream>
#include <string>

namespace flowtune {

/// A duration in the unit a reader takes in at once: "45 s" below 2 min, "17 min" below 2 h,
/// else "2.5 h". The run's whole-space estimate and every progress line's elapsed time and
/// ETA use it, so they never speak in different units.
std::string duration_text(double seconds);

/// How Progress writes: `lines` one line per point (stderr is a file or a pipe: CI logs keep
/// every point), `bar` one line redrawn in place (stderr is a terminal), `quiet` nothing.
enum class ProgressStyle { lines, bar, quiet };

/// What the bar line shows.
struct ProgressState {
  std::size_t done = 0, total = 0, failed = 0;
  double elapsed_s = 0;
  std::optional<double> eta_s;  ///< none before the first measured point or when done
  double time_budget_s = 0;     ///< 0 = none
  std::string best;             ///< e.g. "time_ms 4.21, aepe 0.312"; "" = nothing measured yet
};

/// The bar line of `state` for a terminal of `columns` columns (without control
/// characters), e.g. "[#####.....] 12/40 30% | best time_ms 4.21, aepe 0.312 | 2 failed |
/// 1.2 min of 5 min budget | ETA 3 min"; "failed" only when some failed, the budget only
/// when there is one (else "12 s elapsed"). Cut to columns - 1 characters (the last one
/// would wrap on some terminals); columns < 20 counts as 20.
std::string progress_bar_line(const ProgressState& state, int columns);

/// Reports each point of a run. `lines`: "[k/n] 37% label  12 s elapsed, ETA 17 min" per
/// point (duration_text). `bar`: "\r" + progress_bar_line + erase-to-end-of-line per point,
/// failures also as a line of their own above the bar; finish() ends the bar's line.
/// The ETA weighs points by their cost (Workload::relative_cost): time per unit of cost
/// measured so far times the cost left, so a space whose expensive points come last is not
/// under-estimated. total_cost is the cost of the n points the run will visit (e.g. the
/// budget times the space's mean cost).
class Progress {
 public:
  Progress(std::size_t total, double total_cost, std::ostream& out,
           ProgressStyle style = ProgressStyle::lines, int columns = 100);
  /// Marks one point as done; `measured` false for a point that took no measuring time
  /// (already in the DB, pruned); cost its relative cost (<= 0 counts as 1); failed: the
  /// point failed (counted on the bar, and its label printed as a line).
  void step(const std::string& label, bool measured, double cost = 1, bool failed = false);
  /// The run's wall-clock budget in seconds (0 = none), shown on the bar.
  void set_time_budget(double seconds) { time_budget_s_ = seconds; }
  /// The best objective values so far, shown on the bar from the next step on.
  void set_best(std::string text) { best_ = std::move(text); }
  /// Ends the bar's line (nothing in the other styles); idempotent.
  void finish();
  std::size_t done() const { return done_; }

 private:
  std::size_t total_, done_ = 0, measured_ = 0, failed_ = 0;
  double total_cost_, done_cost_ = 0, measured_cost_ = 0, time_budget_s_ = 0;
  std::ostream& out_;
  ProgressStyle style_;
  int columns_;
  bool bar_open_ = false;
  std::string best_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace flowtune
