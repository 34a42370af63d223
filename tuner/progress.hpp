// Progress of long tuning runs on stderr: one line per point (logs, pipes), one updating
// bar line (a terminal), or nothing (--quiet). Both speak of the run's budget (evaluations
// and wall-clock time, whichever ends first), never of the whole space.
#pragma once

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <ostream>
#include <string>

namespace flowtune {

/// A duration in the unit a reader takes in at once: "45 s" below 2 min, "17 min" below 2 h,
/// else "2.5 h". The run's estimate and every progress line's elapsed time, budget left and
/// ETA use it, so they never speak in different units.
std::string duration_text(double seconds);

/// A counter of work of known size: "checking kernel configs: 1200/4410 (27%), 3.1 s
/// elapsed, ETA 8.3 s (estimated from the rate so far)" (what: "checking kernel configs").
/// The ETA assumes the rate so far holds; none before anything is done or once done_ ==
/// total. `tune space` and `tune predict` print it every 2 s on stderr.
std::string count_progress_line(const std::string& what, std::size_t done, std::size_t total,
                                double elapsed_s);

/// count_progress_line on `out` at most every 2 s: tick(done) with the work done so far.
class CountProgress {
 public:
  CountProgress(std::string what, std::size_t total, std::ostream& out)
      : what_(std::move(what)), total_(total), out_(out) {}
  /// Prints the line when 2 s have passed since the last one (or the start).
  void tick(std::size_t done);
  /// Prints the line of the end (done of total, the time it took), whatever the time.
  void finish(std::size_t done);

 private:
  std::string what_;
  std::size_t total_;
  std::ostream& out_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now(), last_ = start_;
};

/// How far a run is through its budget and when it ends (budget_progress).
struct BudgetProgress {
  double fraction = 0;          ///< of the budget spent, in [0, 1]
  std::optional<double> eta_s;  ///< seconds to the end; none when done or nothing to go on
  double points_per_s = 0;      ///< points done per second of wall clock (0 before any)
};

/// The budget arithmetic of the progress display. done of total evaluations, elapsed_s of
/// the run's time_budget_s (0 = none); s_per_cost: wall seconds per unit of relative cost
/// measured so far (<= 0: nothing measured yet); cost_left: the relative cost of the points
/// still to come. fraction = max(done / total, elapsed / time budget), capped at 1. ETA: the
/// evaluations left at the measured rate (s_per_cost x cost_left), capped by the time budget
/// left; with a time budget and nothing measured yet, the time budget left; none once done
/// (done >= total or the time budget spent). points_per_s = done / elapsed_s. total 0 means
/// no limit on evaluations (a run bounded by its time budget alone): the fraction and the ETA
/// are the time budget's.
BudgetProgress budget_progress(std::size_t done, std::size_t total, double elapsed_s,
                               double time_budget_s, double s_per_cost, double cost_left);

/// How Progress writes: `lines` one line per point (stderr is a file or a pipe: CI logs keep
/// every point), `bar` one line redrawn in place (stderr is a terminal), `quiet` nothing.
enum class ProgressStyle { lines, bar, quiet };

/// What the bar line shows.
struct ProgressState {
  std::size_t done = 0, total = 0, failed = 0;
  double elapsed_s = 0;
  double time_budget_s = 0;  ///< 0 = none
  BudgetProgress budget;     ///< budget_progress of the other fields
  std::string best;          ///< e.g. "time_ms 4.21, aepe 0.312"; "" = nothing measured yet
  /// Where the wall clock went, e.g. "measuring 83%, waiting for builds 9%"; "" = not known.
  std::string activity;
};

/// The bar line of `state` for a terminal of `columns` columns (without control
/// characters): a bar of the budget's fraction, e.g. "[######..............] 12/40 30% |
/// 0.17 points/s | best time_ms 4.21, aepe 0.312 | 2 failed | 72 s of 5 min budget | ETA
/// 3 min"; "failed" only when some failed, points/s once a point is done, the time budget
/// only when there is one (else "12 s elapsed"). Cut to columns - 1 characters (the last one
/// would wrap on some terminals); columns < 20 counts as 20.
std::string progress_bar_line(const ProgressState& state, int columns);

/// What a progress line says of the budget left: "budget left: 14 s, 37 evaluations; ETA
/// 9 s" (the time only with a time budget, the evaluations only with a limit on them (total
/// > 0), the ETA only when there is one), then "; " and the activity when known.
std::string budget_left_text(const ProgressState& state);

/// Reports each point of a run. `lines`: "[k/n] P% label | 6 s elapsed, budget left: ..."
/// ("[k]" without a limit on evaluations)
/// per point (P: the budget's fraction, budget_left_text). `bar`: "\r" + progress_bar_line +
/// erase-to-end-of-line per point, failures also as a line of their own above the bar;
/// finish() ends the bar's line. The ETA weighs points by their cost
/// (Workload::relative_cost): time per unit of cost measured so far times the cost left, so
/// a space whose expensive points come last is not under-estimated. total_cost is the cost of
/// the n points the run will visit (e.g. the budget times the space's mean cost).
class Progress {
 public:
  /// The wall clock of the run in seconds since it began (tests pass their own).
  using Clock = std::function<double()>;
  Progress(std::size_t total, double total_cost, std::ostream& out,
           ProgressStyle style = ProgressStyle::lines, int columns = 100, Clock clock = {});
  /// Marks one point as done; `measured` false for a point that took no measuring time
  /// (already in the DB, pruned); cost its relative cost (<= 0 counts as 1); failed: the
  /// point failed (counted on the bar, and its label printed as a line).
  void step(const std::string& label, bool measured, double cost = 1, bool failed = false);
  /// A line above the progress that counts no point (a point pruned, or cancelled at the
  /// time budget); nothing when quiet, and on a terminal only when on_bar (a space of
  /// thousands of pruned points would push everything else off the screen).
  void note(const std::string& text, bool on_bar = true);
  /// The run's wall-clock budget in seconds (0 = none).
  void set_time_budget(double seconds) { time_budget_s_ = seconds; }
  /// The best objective values so far, shown on the bar from the next step on.
  void set_best(std::string text) { best_ = std::move(text); }
  /// Where the wall clock went so far (ProgressState::activity), shown from the next step on.
  void set_activity(std::string text) { activity_ = std::move(text); }
  /// Ends the bar's line (nothing in the other styles); idempotent.
  void finish();
  std::size_t done() const { return done_; }

 private:
  ProgressState state() const;
  std::size_t total_, done_ = 0, measured_ = 0, failed_ = 0;
  double total_cost_, done_cost_ = 0, measured_cost_ = 0, time_budget_s_ = 0;
  std::ostream& out_;
  ProgressStyle style_;
  int columns_;
  bool bar_open_ = false;
  std::string best_, activity_;
  Clock clock_;
};

}  // namespace flowtune
