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
};

/// TaskRequest as one JSON object {"request", "dataset", "resources_json",
/// "allow_clock_control", "config_timeout_s"}.
std::string task_request_json(const TaskRequest& task);
/// Inverse of task_request_json; throws std::invalid_argument naming the problem.
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
};

/// The worker's loop: registers in the store, then claims and measures tasks of the run
/// until the run is no longer "running" and nothing is left to claim, or until SIGINT /
/// SIGTERM (the task in hand is released, unmeasured, for another worker). Its last lines
/// give the kernel builds of its measuring processes ("worker N (...): kernel builds: N
/// compiled ..., M local cache hits, K fetched from the store ...") and the tasks it claimed
/// with the latency of its claim transactions (median, p99, max, in ms; benchmarks/store_load
/// reads it). Log lines go to
/// log. Returns 0, or 1 after an error of the store (message on log). Throws DbError when
/// the store cannot be opened or the run does not exist.
int run_store_worker(const StoreWorkerOptions& options, std::ostream& log);

}  // namespace flowtune
