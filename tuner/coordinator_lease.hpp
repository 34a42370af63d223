// One coordinator per run, on every host of a fleet (ARCHITECTURE.md "Scale-out"): the
// coordinator role of a run is a lease in the store (table coordinators, store clock),
// renewed by a heartbeat while the coordinator lives. A second `tune` of the same board,
// workload and dataset is refused while the lease is renewed; once it expired (or the
// process of this host is gone), the same command takes the role over and resumes the SAME
// run, so that its external workers (`tune worker --run N`) go on without a restart.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>

#include "db/repository.hpp"

namespace flowtune {

/// The run this process coordinates and whether it resumed one.
struct CoordinatorClaim {
  std::int64_t run_id = 0;
  bool resumed = false;  ///< an existing run whose coordinator was gone (its workers live)
};

/// Takes the coordinator role for a run of info.board, info.workload and info.dataset:
/// - a "running" run of them whose coordinator lives (db::RunRow::coordinator_alive) refuses:
///   std::runtime_error naming the run, the holder's host and pid and the store. A holder of
///   another host is watched until its lease is renewed (it lives: refused, within about
///   lease/3 s) or expires (then taken over); a holder of this host is checked by its pid;
/// - else a "running" run of them whose coordinator is gone but whose workers live is taken
///   over (db::RunStore::take_over_run) and resumed: the same run id;
/// - else a new run is begun with the role (two new coordinators that begin at once: the
///   later run is ended as failed and refused).
/// The lease lasts lease_s (store clock); keep it with a CoordinatorLease. Progress lines go
/// to log. Throws db::DbError from the store.
CoordinatorClaim claim_coordinator_role(db::Repository& repo, const db::RunInfo& info,
                                        double lease_s, std::ostream& log);

/// Renews this process's coordinator lease of a run every lease_s / 3 seconds on its own
/// connection, from construction to destruction. lost() becomes true when a renewal finds
/// the role held by another process or the run no longer running in the store (this
/// process was stopped, or cut off from the store, for longer than the lease): the
/// coordinator must then stop without writing to the run.
class CoordinatorLease {
 public:
  CoordinatorLease(const std::string& storage, std::int64_t run_id, double lease_s);
  ~CoordinatorLease();
  CoordinatorLease(const CoordinatorLease&) = delete;
  CoordinatorLease& operator=(const CoordinatorLease&) = delete;

  bool lost() const { return lost_.load(); }
  /// lost() after a renewal made now (a store that cannot answer leaves it as the last beat
  /// found it): the check before the run is ended, since a process stopped and woken up may
  /// reach the end of its loop before its next beat runs.
  bool lost_now();
  /// After the run ended (end_run): renewals stop finding a running run; not "lost".
  void stop();

 private:
  db::Repository repo_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::atomic<bool> lost_{false};
  std::int64_t run_id_ = 0;
  double lease_s_ = 0;
  std::thread thread_;
};

}  // namespace flowtune
