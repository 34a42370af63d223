// Distributed tuning, the worker side (ARCHITECTURE.md "Scale-out"): `tune worker --storage S
// --run ID` claims the tasks a run's coordinator published in the store, measures each in
// an isolated measuring process (tuner/worker.hpp), renews its lease by heartbeats while it
// measures, and writes the result in the same transaction that finishes the task. Any
// launcher can start it (srun, mpirun, a shell loop); `tune --workers N` starts N of them.
#pragma once

#include <string>

#include "tuner/worker.hpp"

namespace flowtune {

/// The body of a task (db::TaskRow::request_json): the worker request and what the
/// coordinator adds to the row it stores.
struct TaskRequest {
  WorkerRequest request;
  std::string dataset;         ///< the run's dataset key, e.g. "middlebury:Grove2"
  std::string resources_json;  ///< registers/shared per kernel from the coordinator's build
  bool allow_clock_control = false;
  double config_timeout_s = 0;  ///< 0 = no limit
  /// The progress deadline of the point (s, 0 = none; the coordinator's
  /// --progress-deadline-s, resolved by progress_deadline_s): a measurement without a result
  /// for this long is stopped and the point recorded as failed (timeout); the worker's
  /// heartbeat renews the point's lease for this long plus one lease at most.
  double progress_deadline_s = 0;
};

/// The auto progress deadline (option < 0): max(kAutoProgressDeadlineFloorS,
/// kAutoProgressDeadlineFactor x the run's longest task so far), so that a slow workload is
/// never cut while a hung point is stopped within minutes.
inline constexpr double kAutoProgressDeadlineFloorS = 600;
inline constexpr double kAutoProgressDeadlineFactor = 10;
/// The deadline of a task from the option (> 0 fixed, 0 none, < 0 auto) and the longest task
/// of the run so far (s).
double progress_deadline_s(double option, double longest_task_s);

/// TaskRequest as one JSON object {"request", "dataset", "resources_json",
/// "allow_clock_control", "config_timeout_s", "progress_deadline_s"}.
std::string task_request_json(const TaskRequest& task);
/// Inverse of task_request_json ("progress_deadline_s" may be absent: a task of an older
/// coordinator, 0); throws std::invalid_argument naming the problem.
TaskRequest parse_task_request(const std::string& text);

/// How a worker runs.
struct StoreWorkerOptions {
  std::string storage;  ///< the database (SQLite path)
  std::int64_t run_id = 0;
  double lease_s = 30;  ///< a claim lasts this long without a heartbeat (heartbeat: lease/3)
  double poll_s = 0.2;  ///< wait between claims when no task is pending
  /// Compiled kernels shared through the store (tuner/kernel_store.hpp resolve_kernel_store):
  /// "auto" (the coordinator's choice when it started this worker, else on for PostgreSQL),
  /// "on" or "off".
  std::string kernel_store = "auto";
  /// How long the worker waits for a coordinator while the run's coordinator is gone (its
  /// lease expired) and nothing is left to claim: a restarted `tune` resumes the run within
  /// this time and the worker goes on; past it the worker stops (exit 1).
  double coordinator_wait_s = 600;
};

/// The worker's loop: registers in the store, then claims and measures tasks of the run
/// until the run is no longer "running" and nothing is left to claim, or until SIGINT /
/// SIGTERM (the task in hand is released, unmeasured, for another worker). While the run's
/// coordinator is gone it goes on measuring what is published, and waits for a restarted
/// coordinator up to options.coordinator_wait_s (then exit 1 with a message). A measurement
/// past its task's progress deadline is stopped and recorded as failed (timeout). Its last
/// lines give the kernel builds of its measuring processes ("worker N (...): kernel builds: N
/// compiled ..., M local cache hits, K fetched from the store ...") and the tasks it claimed
/// with the latency of its claim transactions (median, p99, max, in ms; benchmarks/store_load
/// reads it). Log lines go to
/// log. Returns 0, or 1 after an error of the store (message on log). Throws DbError when
/// the store cannot be opened or the run does not exist.
int run_store_worker(const StoreWorkerOptions& options, std::ostream& log);

}  // namespace flowtune
