// One tuning run: board -> space -> prune -> strategy -> build -> measure -> DB -> Pareto.
#pragma once

#include <chrono>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/config_rows.hpp"
#include "select/objectives.hpp"
#include "tuner/accuracy_table.hpp"
#include "tuner/measure.hpp"
#include "tuner/model_estimate.hpp"
#include "tuner/progress.hpp"
#include "tuner/resources_json.hpp"
#include "tuner/space.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune {

/// TuneOptions::workers: one local worker per visible GPU.
inline constexpr int kWorkersAuto = -2;

struct TuneOptions {
  std::string board = "host";
  std::string db_path = "flowtune.db";
  InputOptions inputs;  ///< the workload's inputs (data folder, item names)
  SpaceOptions space;   ///< space.workload names the workload
  /// tuner/strategy.hpp's names, or "auto": choose_strategy's choice for the request.
  std::string strategy = "brute_force";
  std::size_t max_evals = 0;   ///< evaluations (measured + failed points; 0 = the whole space)
  double budget_fraction = 0;  ///< > 0: the budget is this fraction of the unpruned points
  std::uint64_t seed = 1;
  /// Objectives the strategy minimises (the first for single-objective strategies); empty =
  /// time_ms, then the workload's front objectives. Energy is measured (with the sensor's
  /// long window) on every point when an objective or a constraint needs it (energy_mj,
  /// power_w, edp_mj_ms); otherwise on the front's points after the search
  /// (tuner/front_energy.hpp), where the board has a sensor.
  std::vector<std::string> objectives;
  int build_threads = -1;  ///< threads building kernels ahead (-1 = cores - 1 on GPU boards)
  MeasureOptions measure;
  bool allow_clock_control = false;  ///< set GPU clocks (needs privileges); else observe them
  bool retry_failed = false;         ///< re-measure configs that failed permanently before
  bool isolate = true;               ///< measure in a worker process (tuner/worker.hpp)
  double config_timeout_s = 0;       ///< isolate: longer than this fails as timeout (0 = no limit)
  std::string command;               ///< the command line, recorded with the run
  /// Distributed tuning (tuner/dispatch.hpp): -1 = measure in this run's own worker process
  /// (the classic single process); 0 = publish the points in the store for workers started
  /// elsewhere (`tune worker --storage DB --run ID`); N >= 1 = also start N local workers,
  /// pinned one per visible GPU; kWorkersAuto = one per visible GPU on a GPU board, 1 on a
  /// host board or without GPU.
  int workers = -1;
  /// A worker's claim on a point, and the coordinator's role of the run
  /// (tuner/coordinator_lease.hpp), last this long without a heartbeat.
  double lease_s = 30;
  /// Distributed runs: a worker whose measurement of a point makes no progress for this long
  /// (s) stops it and records the point as failed (timeout), and its heartbeat stops
  /// renewing the point's lease (tuner/store_worker.hpp): > 0 seconds, 0 = no deadline,
  /// < 0 = auto: max(kAutoProgressDeadlineFloorS, kAutoProgressDeadlineFactor x the run's
  /// longest task so far).
  double progress_deadline_s = -1;
  /// Wall-clock budget of the run in seconds, setup and kernel builds included (0 = none):
  /// a point expected to take longer than the time left is not started (tuner/time_budget.hpp:
  /// the wall time per point measured so far, else this board's rate in the DB), points still
  /// measuring when it is spent are cancelled (not recorded), and the run ends as done; the
  /// same command (with more budget) goes on where it stopped. It counts from `start`.
  double time_budget_s = 0;
  /// When the run began for its time budget: when these options were made (the command's
  /// start, so that its set-up counts), unless the caller sets it.
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  /// What the user wants: "" = the front of the objectives; else one figure ("time",
  /// "energy" or a workload metric) that the search minimises (or maximises, by its
  /// direction) subject to `constraints`.
  std::string objective;
  /// Multi-fidelity: every point is first screened on the first item with 3 timed runs, and
  /// measured on every item only when promoted by asynchronous successive halving
  /// (tuner/screening.hpp). Screens are stored under the dataset key "<item key>#screen",
  /// never as full-fidelity points. Off with one item or with energy as an objective. Off by
  /// default (docs/decisions.md, "Multi-fidelity off by default").
  bool multi_fidelity = false;
  std::vector<Constraint> constraints;  ///< bounds the search steers towards (figure <= max)
  /// model_guided's prior from another model (tuner/model_estimate.hpp strategy_prior), e.g.
  /// `tune predict`'s (cli: --prior predict); empty = model_estimate.
  PriorModel prior_model;
  /// A store to take accuracy from (tuner/accuracy_table.hpp; "" = none): a point whose
  /// accuracy key (workload, precision, parameters) it holds on the run's dataset, with a
  /// metric breaking one of `constraints` by more than accuracy_tolerance (relative), is told
  /// to the strategy as infeasible without being built or timed, and is not stored (the board
  /// never measured it). The run ends with the table checked against the board's measurements.
  std::string accuracy_from;
  double accuracy_tolerance = kAccuracyTolerance;
  /// How the points are reported on the log (tuner/progress.hpp): a line each, one updating
  /// bar (a terminal of progress_columns columns), or not at all.
  ProgressStyle progress = ProgressStyle::lines;
  int progress_columns = 100;
  /// Compiled kernels shared through the store (tuner/kernel_store.hpp resolve_kernel_store):
  /// "auto" (on for a PostgreSQL store), "on" or "off".
  std::string kernel_store = "auto";
};

/// What the energy pass after the search did (tuner/front_energy.hpp).
struct FrontEnergySummary {
  bool ran = false;      ///< false: see `why_not`
  std::string why_not;   ///< e.g. "no energy sensor found for board host (rapl)"; "" when it ran
  std::string sensor;    ///< the sensor's name, e.g. "nvml energy counter"
  double window_ms = 0;  ///< the sensor's window per item
  std::size_t n_points = 0;  ///< front points and picks without energy when the pass began
  std::size_t n_measured = 0, n_failed = 0;
  std::size_t n_left = 0;    ///< not started: the pass's share of the time budget was spent
  double seconds = 0;        ///< wall time of the pass
  double time_budget_s = 0;  ///< the run's whole time budget (0 = none)
  double share_s = 0;        ///< the pass's share of it (0 = no time budget)
};

struct TuneSummary {
  std::int64_t run_id = 0;
  std::size_t n_space = 0, n_pruned = 0, n_measured = 0, n_resumed = 0, n_failed = 0;
  bool interrupted = false;
  bool time_budget_spent = false;  ///< the run stopped because its time budget ran out
  std::size_t n_screened_out = 0;  ///< multi-fidelity: points measured on the screen only
  /// --accuracy-from: points skipped as known to break a constraint (never timed or stored),
  /// the table's size and where it came from, and its check against this board's measurements
  /// of the dataset at the end of the run.
  std::size_t n_known_infeasible = 0, accuracy_keys = 0;
  std::string accuracy_from;
  AccuracyAgreement accuracy_check;
  /// Points stopped in flight at the time budget (not recorded; the same command measures them).
  std::size_t n_cancelled = 0;
  double elapsed_s = 0;  ///< wall-clock time of the run
  std::string strategy;  ///< the strategy that ran (auto resolved)
  int stop_signal = 0;   ///< SIGINT or SIGTERM when interrupted by one
  std::string dataset;
  std::vector<std::string> front_objectives;  ///< e.g. {"time_ms", "aepe"}
  std::vector<db::MeasuredConfig> front;      ///< Pareto front of the dataset over them
  /// Kernel builds of this run (variants/kernel_binary_cache.hpp): in this process (the
  /// constraint checks' build threads; the in-process evaluator) and in the measuring
  /// processes it started (the worker-process evaluator; store workers log their own).
  KernelBuildCounts builds_here, builds_measuring;
  FrontEnergySummary front_energy;  ///< the energy pass after the search
};

/// Estimated wall time of measuring `configs` (seconds): per config and item, warm-up plus
/// the timed window, from the rate measured on this board for the workload in the DB (time
/// per Workload::relative_cost unit), else the board target's rough default rate. Returns
/// a negative value when the workload gives no cost model.
double estimate_seconds(const Workload& workload, const ConfigSpace& configs,
                        const InputSet& inputs, const MeasureOptions& measure, double ms_per_cost);

/// The strategy "auto" stands for: brute_force for a space of at most 256 points (measuring
/// all of it is cheap and exact); else additive_surrogate, for one objective under constraints
/// as for a front (the most constrained picks within 5% of the recording's best at small
/// budgets in replays of a recorded H200 run, ahead of greedy_ils and nsga2; docs/decisions.md,
/// "Default strategy"). n_objectives is kept for callers that choose per request. Any other
/// name is returned as it is.
std::string choose_strategy(const std::string& requested, std::size_t space_size,
                            std::size_t n_objectives);

/// Runs a tuning session. Every measured, pruned or failed config is committed to the DB as
/// soon as it is known, so a run killed at any point resumes: configs already measured (or
/// pruned, or failed permanently unless retry_failed) for the same board and dataset are
/// skipped. A first SIGINT/SIGTERM cancels the current config within about one iteration
/// (kernels/cancellation.hpp; the config is not recorded) and ends the run as "interrupted";
/// a second one exits at once with 128 + signal (the next open marks the run "aborted").
/// A second process tuning the same board, workload and dataset in the same DB refuses
/// with a message naming the first run. A config whose build or run throws is recorded as failed
/// with its class and message, and the run goes on. Throws (before measuring anything) on an
/// unknown board or workload, unreadable data, a DB that cannot be opened, or a board that does not
/// match the present GPU. Progress lines, the space size and the estimated duration go to log.
/// With options.workers >= 0 this process is the coordinator: the strategy's points (up to
/// 2 per worker ahead) become tasks in the store, workers measure them, and the strategy is
/// told each result as it comes back; every point is measured once even when a worker dies
/// (its lease expires and another worker takes the point).
TuneSummary run_tuning(const TuneOptions& options, std::ostream& log);

}  // namespace flowtune
