// The runs of a store (table runs): their start, end, environment and liveness.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// The runs part of a Repository, over the store it shares with the other parts. Every
/// call throws DbError "<store>: <problem>" when the store fails.
class RunStore {
 public:
  explicit RunStore(Store& store) : store_(&store) {}

  /// Inserts a run with status "running", started_at now and this process's pid; returns
  /// its id. A PostgreSQL URL in info.command is stored without its password. Throws DbError for a
  /// run without a workload.
  std::int64_t begin_run(const RunInfo& info);
  /// Runs other than except_run that are "running" on board for workload and dataset, by a
  /// live process of this host (what a second `tune` on the same DB must not race with).
  std::vector<RunRow> active_runs(const std::string& board, const std::string& workload,
                                  const std::string& dataset, std::int64_t except_run = 0) const;
  /// Sets ended_at now and the final status ("done" | "failed" | "interrupted"); in the same
  /// transaction the run's pending and claimed tasks become "cancelled" (a worker still
  /// measuring one drops its result) and its "running" workers of this host whose process
  /// is gone "exited" (a worker that stopped at a store error could not sign off).
  /// Throws DbError for another status or an unknown run id.
  void end_run(std::int64_t run_id, const std::string& status);
  /// Records how many points the coordinator of run_id plans to publish at most (for ETAs).
  /// Throws DbError for an unknown run id.
  void set_planned_points(std::int64_t run_id, long long n);
  /// Runs in id order; board "" = all boards. A "running" run of this host whose process is
  /// gone reads as "aborted" (read-only opens included).
  std::vector<RunRow> runs(const std::string& board = "") const;
  /// The run with this id; throws DbError when there is none.
  RunRow run(std::int64_t run_id) const;

 protected:
  /// Marks "aborted" (ended_at now) every "running" run of this host whose process is gone,
  /// with its pending and claimed tasks "cancelled" and its "running" workers "exited".
  void mark_dead_runs_aborted();

 private:
  // Inside a write transaction: run_id's pending and claimed tasks "cancelled", its
  // "running" workers "exited" (all of them, or those of this host whose process is gone).
  void release_claims_of(std::int64_t run_id, bool all_workers);

  Store* store_;
};

}  // namespace flowtune::db
