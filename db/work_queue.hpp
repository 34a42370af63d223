// Rows of the distributed-tuning tables (schema v3: workers, tasks); the calls that claim,
// renew and finish tasks are members of db::Repository (db/work_queue.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace flowtune::db {

/// A measuring process registered for a run (`tune worker`). Times are Unix seconds.
struct WorkerRow {
  std::int64_t id = 0, run_id = 0;
  std::string host;  ///< host name of the worker's machine
  long long pid = 0;
  std::string gpu;  ///< e.g. "CUDA_VISIBLE_DEVICES=1", "" when not pinned
  double started_s = 0, heartbeat_s = 0;
  std::string status;  ///< "running" or "exited" (a killed worker stays "running")
  std::size_t n_done = 0, n_failed = 0;  ///< tasks it finished
};

/// One point of a run to measure, published by the run's coordinator. state: "pending"
/// (never claimed), "claimed" (a worker holds its lease until lease_until_s), "done"
/// (measured), "failed" (recorded in failures), "cancelled" (the run ended first).
/// attempts counts claims: 2 or more means a lease expired and another worker took it.
struct TaskRow {
  std::int64_t id = 0, run_id = 0;
  std::string config_key, request_json, state;
  std::int64_t worker_id = 0;  ///< the last claimer, 0 when never claimed
  int attempts = 0;
  double published_s = 0, claimed_s = 0, lease_until_s = 0, finished_s = 0;  ///< 0 = not yet
};

/// Tasks of a run by state, and the mean claim-to-finish time of finished ones (s, 0 = none).
struct TaskCounts {
  std::size_t pending = 0, claimed = 0, done = 0, failed = 0, cancelled = 0;
  double mean_task_s = 0;
};

}  // namespace flowtune::db
