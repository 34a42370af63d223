#include "tuner/coordinator_lease.hpp"

#include <chrono>
#include <iomanip>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "db/host_name.hpp"

namespace flowtune {
namespace {

// The "running" runs of info's board, workload and dataset, in id order.
std::vector<db::RunRow> running_runs_of(const db::Repository& repo, const db::RunInfo& info) {
  std::vector<db::RunRow> out;
  for (db::RunRow& r : repo.runs(info.board))
    if (r.status == "running" && r.info.workload == info.workload && r.info.dataset == info.dataset)
      out.push_back(std::move(r));
  return out;
}

// Whether r's coordinator role is held by a live process as far as the store tells: a lease
// not expired, or (a run without a coordinators row: `tune search`, an older flowtune) a live
// process of this host. A run without a row of another host cannot be told: it is ignored, as
// before the lease existed.
bool held_by_live_process(const db::RunRow& r) {
  return r.coordinator_alive && (!r.coordinator_host.empty() || db::is_this_host(r.info.host));
}

std::string refusal(const db::Repository& repo, const db::RunRow& r, double now_s) {
  std::ostringstream out;
  out << repo.path() << ": run " << r.id << " (board " << r.info.board << ", workload "
      << r.info.workload << ", dataset " << r.info.dataset << ") is coordinated by pid "
      << (r.coordinator_host.empty() ? r.pid : r.coordinator_pid) << " on host "
      << (r.coordinator_host.empty() ? r.info.host : r.coordinator_host);
  if (!r.coordinator_host.empty())
    out << " (its lease is renewed while it lives; it runs " << std::fixed << std::setprecision(1)
        << r.coordinator_lease_until_s - now_s << " s more)";
  out << "; one coordinator per run: wait for it to end, stop it, or use another --db";
  return out.str();
}

// Whether the live-looking coordinator of run r lives: a process of this host by its pid; one
// of another host (or without a role row) by watching its lease: renewed = alive, expired =
// gone. Waits at most until the lease's end (plus a little).
bool holder_lives(const db::Repository& repo, const db::RunRow& r, std::ostream& log) {
  if (r.coordinator_host.empty()) return true;  // an older flowtune's run of this host, alive
  if (db::is_this_host(r.coordinator_host)) return db::process_alive(r.coordinator_pid);
  const double wait_s = r.coordinator_lease_until_s - repo.store_now_s();
  if (wait_s > 1)
    log << "run " << r.id << " is coordinated by pid " << r.coordinator_pid << " on host "
        << r.coordinator_host << "; watching its lease for up to " << std::fixed
        << std::setprecision(0) << wait_s << " s (renewed: it lives; expired: it is gone)\n";
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    std::optional<db::RunRow> now_row;
    for (db::RunRow& x : repo.runs(r.info.board))
      if (x.id == r.id) now_row = std::move(x);
    if (!now_row || now_row->status != "running") return false;  // ended: look again
    if (now_row->coordinator_host != r.coordinator_host ||
        now_row->coordinator_pid != r.coordinator_pid ||
        now_row->coordinator_lease_until_s > r.coordinator_lease_until_s)
      return true;  // renewed, or taken over by another process: somebody coordinates it
    if (!now_row->coordinator_alive) return false;
  }
}

}  // namespace

CoordinatorClaim claim_coordinator_role(db::Repository& repo, const db::RunInfo& info,
                                        double lease_s, std::ostream& log) {
  for (int attempt = 0; attempt < 10; ++attempt) {
    const std::vector<db::RunRow> running = running_runs_of(repo, info);
    const db::RunRow* live = nullptr;
    const db::RunRow* orphan = nullptr;
    for (const db::RunRow& r : running) {
      if (held_by_live_process(r) && !live) live = &r;
      if (!r.coordinator_alive) orphan = &r;  // the latest one
    }
    if (live) {
      if (holder_lives(repo, *live, log))
        throw std::runtime_error(refusal(repo, *live, repo.store_now_s()));
      continue;  // its lease expired: look again
    }
    if (orphan) {
      if (!repo.take_over_run(*orphan, repo.store_now_s(), lease_s)) continue;
      log << "run " << orphan->id << ": resuming it (its coordinator, pid "
          << (orphan->coordinator_host.empty() ? orphan->pid : orphan->coordinator_pid)
          << " on host "
          << (orphan->coordinator_host.empty() ? orphan->info.host : orphan->coordinator_host)
          << ", is gone; " << orphan->live_workers << " worker(s) of it still at work)\n";
      return {orphan->id, true};
    }
    const std::int64_t id = repo.begin_run(info, lease_s);
    for (const db::RunRow& other : repo.active_runs(info.board, info.workload, info.dataset, id)) {
      if (other.id > id || !held_by_live_process(other)) continue;
      repo.end_run(id, "failed");
      throw std::runtime_error(refusal(repo, other, repo.store_now_s()));
    }
    return {id, false};
  }
  throw std::runtime_error(repo.path() + ": the coordinator role of board " + info.board +
                           ", workload " + info.workload + ", dataset " + info.dataset +
                           " changed hands 10 times while this process tried to take it; "
                           "try again");
}

namespace {

db::Repository with_retry_limit(const std::string& storage, double seconds) {
  db::Repository repo(storage);
  repo.set_retry_limit_s(seconds);
  return repo;
}

}  // namespace

CoordinatorLease::CoordinatorLease(const std::string& storage, std::int64_t run_id, double lease_s)
    : repo_(with_retry_limit(storage, lease_s / 3)),
      run_id_(run_id),
      lease_s_(lease_s),
      thread_([this, run_id, lease_s] {
        std::unique_lock<std::mutex> lock(mutex_);
        while (!done_) {
          cv_.wait_for(lock, std::chrono::duration<double>(lease_s / 3), [this] { return done_; });
          if (done_) break;
          try {
            if (!repo_.renew_coordinator(run_id, repo_.store_now_s(), lease_s)) {
              lost_ = true;
              break;
            }
          } catch (const std::exception&) {
            // The store is away: the next beat tries again (the lease has slack for two).
          }
        }
      }) {}

bool CoordinatorLease::lost_now() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (lost_ || done_) return lost_;
  try {
    if (!repo_.renew_coordinator(run_id_, repo_.store_now_s(), lease_s_)) lost_ = true;
  } catch (const std::exception&) {
    // The store is away: the beats decide, as during the run.
  }
  return lost_;
}

void CoordinatorLease::stop() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    done_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

CoordinatorLease::~CoordinatorLease() {
  stop();
}

}  // namespace flowtune
