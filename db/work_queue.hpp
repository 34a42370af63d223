// Distributed tuning (tables workers and tasks, db/SCHEMA.md): the coordinator of a run
// publishes the points it wants measured as tasks; workers register, claim a task with a
// lease, renew it by heartbeats while they measure, and finish it together with its
// measurement or failure in one transaction. Every worker coordinates through the store
// alone (ARCHITECTURE.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// The work-queue part of a Repository, over the store it shares with the other parts.
/// Times are Unix seconds given by the caller: the store's clock (Repository::store_now_s),
/// so that hosts whose clocks disagree still agree on leases; tests may pass their own. Every call
/// throws DbError "<store>: <problem>" when the store fails. On a v2 file opened
/// read-only, the reads return nothing (no distributed runs).
class WorkQueue {
 public:
  explicit WorkQueue(Store& store) : store_(&store) {}

  /// Publishes a point of run_id for the workers; request_json is what a worker needs to
  /// measure it. Returns the task id; publishing the same (run, config_key) again returns
  /// the existing task unchanged, except that a "cancelled" one becomes "pending" again (a
  /// resumed run wants it).
  std::int64_t publish_task(std::int64_t run_id, const std::string& config_key,
                            const std::string& request_json, double now_s);
  /// Registers a worker of run_id; returns its id. Throws DbError for an unknown run.
  std::int64_t register_worker(std::int64_t run_id, const std::string& host, long long pid,
                               const std::string& gpu, double now_s);
  /// Marks a worker "exited" (its normal end).
  void end_worker(std::int64_t worker_id);
  /// Claims, in one write transaction, the oldest task of run_id that is pending or whose
  /// lease expired (lease_until_s < now_s): it becomes "claimed" by worker_id until
  /// now_s + lease_s, attempts + 1. Returns nullopt when there is none. Two workers never
  /// hold the same task at the same time. When the store fails and the claim runs again
  /// (Store::retrying), a task worker_id already holds (an attempt whose commit went through
  /// but whose answer was lost) is returned instead.
  std::optional<TaskRow> claim_task(std::int64_t run_id, std::int64_t worker_id, double now_s,
                                    double lease_s);
  /// The worker's heartbeat: its heartbeat_s = now_s and, with renew_claims, the lease of
  /// every task it still holds extended to now_s + lease_s (without: the worker lives but its
  /// point made no progress, so the lease runs out). Returns the number of tasks it still
  /// holds (0 when its lease expired and another worker claimed the task).
  std::size_t heartbeat(std::int64_t worker_id, double now_s, double lease_s,
                        bool renew_claims = true);
  /// Finishes a claimed task with its measurement, in one transaction: only if worker_id
  /// still holds it (else returns false and writes nothing: the point belongs to another
  /// worker now). The measurement is not written a second time when (board, key, dataset)
  /// is already measured (then the task is "done" all the same). Throws DbError as
  /// ResultStore::record_measurement for a malformed measurement.
  bool finish_task_measured(std::int64_t task_id, std::int64_t worker_id, const ConfigRow& config,
                            const MeasurementRow& m, double now_s);
  /// Finishes a claimed task as failed (one failures row) if worker_id still holds it;
  /// false otherwise. Throws DbError for an unknown failure class.
  bool finish_task_failed(std::int64_t task_id, std::int64_t worker_id, const ConfigRow& config,
                          const std::string& dataset, const std::string& failure_class,
                          const std::string& message, double now_s);
  /// Returns a claimed task to "pending" (a worker that stops before measuring it) if
  /// worker_id holds it.
  void release_task(std::int64_t task_id, std::int64_t worker_id);
  /// Sets every pending task of run_id to "cancelled"; returns how many.
  std::size_t cancel_pending_tasks(std::int64_t run_id);
  /// Tasks of run_id in id order; state "" = all.
  std::vector<TaskRow> tasks(std::int64_t run_id, const std::string& state = "") const;
  /// Tasks of run_id finished ("done" or "failed") with id > after_id, in id order.
  std::vector<TaskRow> finished_tasks(std::int64_t run_id, std::int64_t after_id = 0) const;
  /// Counts of the tasks of run_id by state.
  TaskCounts task_counts(std::int64_t run_id) const;
  /// Workers of run_id in id order, with the tasks each finished.
  std::vector<WorkerRow> workers(std::int64_t run_id) const;

 private:
  // Inside a write transaction: whether worker_id holds task_id now.
  bool holds_task(std::int64_t task_id, std::int64_t worker_id);
  // Inside a write transaction: the task's final state.
  void finish_task(std::int64_t task_id, const std::string& state, double now_s);
  // False for a v2 store opened read-only (no workers and tasks tables).
  bool has_queue() const;

  Store* store_;
};

}  // namespace flowtune::db
