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
  /// its id. With coordinator_lease_s > 0 this process (host_name(), pid) takes the run's
  /// coordinator role in the same transaction, leased until the store's now +
  /// coordinator_lease_s (renew_coordinator keeps it). A PostgreSQL URL in info.command is
  /// stored without its password. Throws DbError for a run without a workload.
  std::int64_t begin_run(const RunInfo& info, double coordinator_lease_s = 0);
  /// Takes over the coordinator role of the run `seen` (a row read by runs(), its coordinator
  /// gone) for this process, leased until now_s + lease_s: a compare-and-set on what seen
  /// read (the holder's host, pid and lease end, or no holder), so that of two processes that
  /// saw the same dead coordinator one wins. Returns false (and writes nothing) when the role
  /// changed meanwhile or the run is no longer "running" in the store.
  bool take_over_run(const RunRow& seen, double now_s, double lease_s);
  /// The coordinator's heartbeat: extends the lease of run_id's coordinator role to now_s +
  /// lease_s if this process (host_name(), pid) still holds it and the run is "running";
  /// false otherwise (another process took the role over, or the run ended).
  bool renew_coordinator(std::int64_t run_id, double now_s, double lease_s);
  /// Runs other than except_run that are "running" on board for workload and dataset with a
  /// live coordinator, on any host (RunRow::coordinator_alive: what a second coordinator of
  /// the same points must not race with).
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
  /// Runs in id order; board "" = all boards. A "running" run whose coordinator is gone
  /// (its lease expired on the store's clock, or its process of this host is gone) and
  /// which has no live worker reads as "aborted" (read-only opens included); one whose
  /// coordinator is gone while workers of it live reads as "running" (a restarted `tune`
  /// resumes it), with coordinator_alive false.
  std::vector<RunRow> runs(const std::string& board = "") const;
  /// The run with this id; throws DbError when there is none.
  RunRow run(std::int64_t run_id) const;

 protected:
  /// Marks "aborted" (ended_at now) every "running" run that reads as "aborted" (runs():
  /// its coordinator gone and no live worker), with its pending and claimed tasks
  /// "cancelled" and its "running" workers "exited".
  void mark_dead_runs_aborted();

 private:
  // Inside a write transaction: run_id's pending and claimed tasks "cancelled", its
  // "running" workers "exited" (all of them, or those of this host whose process is gone).
  void release_claims_of(std::int64_t run_id, bool all_workers);
  // Fills the coordinator and worker liveness of the "running" runs (RunRow) and reads those
  // nobody works on as "aborted".
  void read_liveness(std::vector<RunRow>& runs) const;

  Store* store_;
};

}  // namespace flowtune::db
