// The runs table: a run's start and end, its environment, and whether its process lives.
#include "db/run_store.hpp"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <utility>

#include "db/host_name.hpp"
#include "db/store.hpp"
#include "db/store_url.hpp"

namespace flowtune::db {

namespace {

bool same_host(const std::string& stored) {
  return is_this_host(stored);
}

// Now as ISO 8601 UTC with milliseconds, e.g. 2024-05-01T12:00:00.123Z (db/SCHEMA.md).
std::string utc_now_iso() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  const long ms = long(
      std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count() % 1000);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[96];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ", tm.tm_year + 1900,
                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ms);
  return buf;
}

RunRow read_run(Statement& q) {
  RunRow r;
  r.id = q.getColumn(0).getInt64();
  r.info.board = q.getColumn(1).getString();
  r.info.command = q.getColumn(2).getString();
  r.info.git_revision = q.getColumn(3).getString();
  r.info.host = q.getColumn(4).getString();
  r.info.gpu_name = q.getColumn(5).getString();
  r.info.driver_version = q.getColumn(6).getString();
  r.info.cuda_version = q.getColumn(7).getString();
  r.info.clocks_observed = q.getColumn(8).getString();
  r.info.dataset = q.getColumn(9).getString();
  r.started_at = q.getColumn(10).getString();
  r.ended_at = q.getColumn(11).getString();
  r.status = q.getColumn(12).getString();
  r.info.workload = q.getColumn(13).getString();
  r.pid = q.getColumn(14).getInt64();
  r.planned_points = q.getColumn(15).getInt64();
  return r;
}

}  // namespace

std::int64_t RunStore::begin_run(const RunInfo& info, double coordinator_lease_s) {
  if (info.workload.empty()) store_->fail("a run needs a workload");
  const double now = coordinator_lease_s > 0 ? store_->now_s() : 0;
  return store_->retrying("cannot record the start of a run", [&] {
    Connection& c = store_->connection();
    Transaction tx(c);
    Statement q(c,
                "INSERT INTO runs(board, command, git_revision, host, gpu_name, "
                "driver_version, cuda_version, clocks_observed, dataset, status, "
                "workload, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)");
    q.bind(1, info.board);
    q.bind(2, redact_store_urls(info.command));  // never a password in the DB
    q.bind(3, info.git_revision);
    q.bind(4, info.host);
    q.bind(5, info.gpu_name);
    q.bind(6, info.driver_version);
    q.bind(7, info.cuda_version);
    q.bind(8, info.clocks_observed);
    q.bind(9, info.dataset);
    q.bind(10, info.workload);
    q.bind(11, static_cast<std::int64_t>(::getpid()));
    q.exec();
    const std::int64_t id = c.last_insert_id("runs");
    if (coordinator_lease_s > 0) {
      Statement role(c,
                     "INSERT INTO coordinators(run_id, host, pid, since_s, lease_until_s) "
                     "VALUES (?, ?, ?, ?, ?)");
      role.bind(1, id);
      role.bind(2, host_name());
      role.bind(3, static_cast<std::int64_t>(::getpid()));
      role.bind(4, now);
      role.bind(5, now + coordinator_lease_s);
      role.exec();
    }
    tx.commit();
    return id;
  });
}

bool RunStore::take_over_run(const RunRow& seen, double now_s, double lease_s) {
  return store_->retrying(
      "cannot take over the coordinator role of run " + std::to_string(seen.id), [&] {
        Connection& c = store_->connection();
        Transaction tx(c);
        Statement run(c, "SELECT status FROM runs WHERE id = ?" + c.for_update(false));
        run.bind(1, seen.id);
        if (!run.executeStep() || run.getColumn(0).getString() != "running") return false;
        run.reset();
        Statement role(c,
                       "SELECT host, pid, lease_until_s FROM coordinators "
                       "WHERE run_id = ?" +
                           c.for_update(false));
        role.bind(1, seen.id);
        const bool held = role.executeStep();
        if (held != !seen.coordinator_host.empty()) return false;
        if (held && (role.getColumn(0).getString() != seen.coordinator_host ||
                     role.getColumn(1).getInt64() != seen.coordinator_pid ||
                     role.getColumn(2).getDouble() != seen.coordinator_lease_until_s))
          return false;
        role.reset();
        Statement put(c, held ? "UPDATE coordinators SET host = ?2, pid = ?3, "
                                "since_s = ?4, lease_until_s = ?5 "
                                "WHERE run_id = ?1"
                              : "INSERT INTO coordinators(run_id, host, pid, "
                                "since_s, lease_until_s) "
                                "VALUES (?1, ?2, ?3, ?4, ?5)");
        put.bind(1, seen.id);
        put.bind(2, host_name());
        put.bind(3, static_cast<std::int64_t>(::getpid()));
        put.bind(4, now_s);
        put.bind(5, now_s + lease_s);
        put.exec();
        Statement pid(c, "UPDATE runs SET pid = ? WHERE id = ?");
        pid.bind(1, static_cast<std::int64_t>(::getpid()));
        pid.bind(2, seen.id);
        pid.exec();
        tx.commit();
        return true;
      });
}

bool RunStore::renew_coordinator(std::int64_t run_id, double now_s, double lease_s) {
  return store_->retrying("cannot renew the coordinator lease of run " + std::to_string(run_id),
                          [&] {
                            Statement q(store_->connection(),
                                        "UPDATE coordinators SET lease_until_s = ?1 "
                                        "WHERE run_id = ?2 AND host = ?3 AND pid = ?4 AND "
                                        "EXISTS (SELECT 1 FROM runs WHERE id = ?2 AND "
                                        "status = 'running')");
                            q.bind(1, now_s + lease_s);
                            q.bind(2, run_id);
                            q.bind(3, host_name());
                            q.bind(4, static_cast<std::int64_t>(::getpid()));
                            return q.exec() == 1;
                          });
}

std::vector<RunRow> RunStore::active_runs(const std::string& board, const std::string& workload,
                                          const std::string& dataset,
                                          std::int64_t except_run) const {
  std::vector<RunRow> out;
  for (RunRow& r : runs(board))
    if (r.status == "running" && r.coordinator_alive && r.id != except_run &&
        r.info.workload == workload && r.info.dataset == dataset)
      out.push_back(std::move(r));
  return out;
}

void RunStore::end_run(std::int64_t run_id, const std::string& status) {
  if (status != "done" && status != "failed" && status != "interrupted") {
    store_->fail("invalid final run status '" + status + "' (allowed: done, failed, interrupted)");
  }
  const int changed =
      store_->retrying(std::string("cannot record the end of run ") + std::to_string(run_id), [&] {
        Connection& c = store_->connection();
        Transaction tx(c);
        Statement q(c, "UPDATE runs SET status = ?, ended_at = ? WHERE id = ?");
        q.bind(1, status);
        q.bind(2, utc_now_iso());
        q.bind(3, run_id);
        const int n = q.exec();
        release_claims_of(run_id, false);
        tx.commit();
        return n;
      });
  if (changed != 1) store_->fail("no run with id " + std::to_string(run_id));
}

void RunStore::release_claims_of(std::int64_t run_id, bool all_workers) {
  Connection& c = store_->connection();
  Statement tasks(c,
                  "UPDATE tasks SET state = 'cancelled', lease_until_s = NULL "
                  "WHERE run_id = ? AND state IN ('pending', 'claimed')");
  tasks.bind(1, run_id);
  tasks.exec();
  std::vector<std::int64_t> gone;
  Statement w(c, "SELECT id, host, pid FROM workers WHERE run_id = ? AND status = 'running'");
  w.bind(1, run_id);
  while (w.executeStep())
    if (all_workers ||
        (same_host(w.getColumn(1).getString()) && !process_alive(w.getColumn(2).getInt64())))
      gone.push_back(w.getColumn(0).getInt64());
  w.reset();
  Statement up(c, "UPDATE workers SET status = 'exited' WHERE id = ?");
  for (std::int64_t id : gone) {
    up.bind(1, id);
    up.exec();
    up.reset();
  }
}

void RunStore::set_planned_points(std::int64_t run_id, long long n) {
  return store_->retrying("cannot update run " + std::to_string(run_id), [&] {
    Statement q(store_->connection(), "UPDATE runs SET planned_points = ? WHERE id = ?");
    q.bind(1, static_cast<std::int64_t>(n));
    q.bind(2, run_id);
    if (q.exec() != 1) store_->fail("no run with id " + std::to_string(run_id));
  });
}

std::vector<RunRow> RunStore::runs(const std::string& board) const {
  std::vector<RunRow> out;
  store_->retrying("cannot read runs", [&] {
    out.clear();
    // planned_points exists from v3 on (a v2 file opened read-only has none).
    Statement q(store_->connection(),
                "SELECT id, board, command, git_revision, host, gpu_name, "
                "driver_version, cuda_version, clocks_observed, dataset, started_at, "
                "coalesce(ended_at, ''), status, workload, coalesce(pid, 0), " +
                    std::string(store_->version() >= 3 ? "coalesce(planned_points, -1)" : "-1") +
                    " FROM runs "
                    "WHERE ?1 = '' OR board = ?1 ORDER BY id");
    q.bind(1, board);
    while (q.executeStep()) out.push_back(read_run(q));
  });
  bool any_running = false;
  for (const RunRow& r : out) any_running = any_running || r.status == "running";
  if (any_running) read_liveness(out);
  return out;
}

void RunStore::read_liveness(std::vector<RunRow>& runs) const {
  const double now = store_->now_s();
  store_->retrying("cannot read the liveness of runs", [&] {
    Connection& c = store_->connection();
    for (RunRow& r : runs) {
      if (r.status != "running") continue;
      r.coordinator_host.clear();
      r.coordinator_pid = 0;
      r.coordinator_lease_until_s = 0;
      r.live_workers = 0;
      bool gone = r.pid > 0 && same_host(r.info.host) && !process_alive(r.pid);
      if (store_->version() >= 5) {
        Statement role(c, "SELECT host, pid, lease_until_s FROM coordinators WHERE run_id = ?");
        role.bind(1, r.id);
        if (role.executeStep()) {
          r.coordinator_host = role.getColumn(0).getString();
          r.coordinator_pid = role.getColumn(1).getInt64();
          r.coordinator_lease_until_s = role.getColumn(2).getDouble();
          gone = r.coordinator_lease_until_s < now ||
                 (same_host(r.coordinator_host) && !process_alive(r.coordinator_pid));
        }
      }
      r.coordinator_alive = !gone;
      if (store_->version() >= 3) {
        Statement w(c,
                    "SELECT host, pid, heartbeat_s, (SELECT max(t.lease_until_s) FROM tasks t "
                    "WHERE t.worker_id = w.id AND t.state = 'claimed') "
                    "FROM workers w WHERE run_id = ? AND status = 'running'");
        w.bind(1, r.id);
        while (w.executeStep()) {
          if (same_host(w.getColumn(0).getString()) && !process_alive(w.getColumn(1).getInt64()))
            continue;
          const bool beats = w.getColumn(2).getDouble() >= now - kWorkerAliveS;
          const bool holds = !w.getColumn(3).isNull() && w.getColumn(3).getDouble() >= now;
          if (beats || holds) ++r.live_workers;
        }
      }
      // A run nobody works on reads as what it is (the next read-write open records it:
      // mark_dead_runs_aborted), never as running.
      if (gone && r.live_workers == 0) r.status = "aborted";
    }
  });
}

RunRow RunStore::run(std::int64_t run_id) const {
  for (RunRow& r : runs())
    if (r.id == run_id) return std::move(r);
  store_->fail("no run with id " + std::to_string(run_id));
}

void RunStore::mark_dead_runs_aborted() {
  std::vector<std::int64_t> dead;
  for (const RunRow& r : runs())
    if (r.status == "aborted" && r.ended_at.empty()) dead.push_back(r.id);
  if (dead.empty()) return;  // the usual case: no write lock taken
  store_->retrying("cannot mark dead runs aborted", [&] {
    Connection& c = store_->connection();
    Transaction tx(c);
    Statement run(
        c, "UPDATE runs SET status = 'aborted', ended_at = ? WHERE id = ? AND status = 'running'");
    for (std::int64_t id : dead) {
      run.bind(1, utc_now_iso());
      run.bind(2, id);
      run.exec();
      run.reset();
      release_claims_of(id, true);
    }
    tx.commit();
  });
}

}  // namespace flowtune::db
