// The work queue: tasks published by a run's coordinator, claimed with a lease by workers,
// renewed by heartbeats, finished with their measurement or failure in one transaction (the
// model is Optuna's RDB storage, where every worker coordinates through the database alone).
#include "db/work_queue.hpp"

#include "db/config_rows.hpp"
#include "db/result_store.hpp"
#include "db/run_store.hpp"
#include "db/shared_writes.hpp"
#include "db/store.hpp"

namespace flowtune::db {

namespace {

constexpr const char* kTaskColumns =
    "id, run_id, config_key, request_json, state, coalesce(worker_id, 0), attempts, "
    "published_s, claimed_s, lease_until_s, finished_s";

TaskRow read_task(Statement& q) {
  TaskRow t;
  t.id = q.getColumn(0).getInt64();
  t.run_id = q.getColumn(1).getInt64();
  t.config_key = q.getColumn(2).getString();
  t.request_json = q.getColumn(3).getString();
  t.state = q.getColumn(4).getString();
  t.worker_id = q.getColumn(5).getInt64();
  t.attempts = q.getColumn(6).getInt();
  t.published_s = q.getColumn(7).getDouble();
  t.claimed_s = zero_if_null(q.getColumn(8));
  t.lease_until_s = zero_if_null(q.getColumn(9));
  t.finished_s = zero_if_null(q.getColumn(10));
  return t;
}

}  // namespace

bool WorkQueue::has_queue() const {
  return store_->version() >= 3;
}

std::int64_t WorkQueue::publish_task(std::int64_t run_id, const std::string& config_key,
                                     const std::string& request_json, double now_s) {
  return store_->retrying("cannot publish a task of run " + std::to_string(run_id), [&] {
    Transaction tx(store_->connection());
    Statement ins(store_->connection(),
                  "INSERT INTO tasks(run_id, config_key, request_json, published_s) "
                  "VALUES (?, ?, ?, ?) ON CONFLICT(run_id, config_key) DO NOTHING");
    ins.bind(1, run_id);
    ins.bind(2, config_key);
    ins.bind(3, request_json);
    ins.bind(4, now_s);
    ins.exec();
    // A task cancelled earlier (its coordinator stopped) is wanted again: pending.
    Statement again(store_->connection(),
                    "UPDATE tasks SET state = 'pending', request_json = ?, worker_id = NULL, "
                    "claimed_s = NULL, lease_until_s = NULL, published_s = ? "
                    "WHERE run_id = ? AND config_key = ? AND state = 'cancelled'");
    again.bind(1, request_json);
    again.bind(2, now_s);
    again.bind(3, run_id);
    again.bind(4, config_key);
    again.exec();
    Statement sel(store_->connection(), "SELECT id FROM tasks WHERE run_id = ? AND config_key = ?");
    sel.bind(1, run_id);
    sel.bind(2, config_key);
    sel.executeStep();
    const std::int64_t id = sel.getColumn(0).getInt64();
    tx.commit();
    return id;
  });
}

std::int64_t WorkQueue::register_worker(std::int64_t run_id, const std::string& host, long long pid,
                                        const std::string& gpu, double now_s) {
  RunStore(*store_).run(run_id);  // throws for an unknown run, naming it
  return store_->retrying("cannot register a worker of run " + std::to_string(run_id), [&] {
    Statement q(store_->connection(),
                "INSERT INTO workers(run_id, host, pid, gpu, started_s, heartbeat_s) "
                "VALUES (?, ?, ?, ?, ?, ?)");
    q.bind(1, run_id);
    q.bind(2, host);
    q.bind(3, static_cast<std::int64_t>(pid));
    q.bind(4, gpu);
    q.bind(5, now_s);
    q.bind(6, now_s);
    q.exec();
    return store_->connection().last_insert_id("workers");
  });
}

void WorkQueue::end_worker(std::int64_t worker_id) {
  return store_->retrying("cannot end worker " + std::to_string(worker_id), [&] {
    Statement q(store_->connection(), "UPDATE workers SET status = 'exited' WHERE id = ?");
    q.bind(1, worker_id);
    q.exec();
  });
}

std::optional<TaskRow> WorkQueue::claim_task(std::int64_t run_id, std::int64_t worker_id,
                                             double now_s, double lease_s) {
  int attempt = 0;
  return store_->retrying(
      "worker " + std::to_string(worker_id) + " cannot claim a task of run " +
          std::to_string(run_id),
      [&]() -> std::optional<TaskRow> {
        // SQLite: BEGIN IMMEDIATE takes the write lock before reading, so no other connection
        // claims between the SELECT and the UPDATE. PostgreSQL: the row is locked by FOR UPDATE,
        // and rows other workers are claiming are skipped (SKIP LOCKED).
        ++attempt;
        Transaction tx(store_->connection());
        // Run again after a failure: a task claimed by this worker already is the claim of
        // the attempt whose commit went through but whose answer was lost with the
        // connection; it is handed out now, not left behind under a lease kept by heartbeats.
        Statement mine(store_->connection(),
                       std::string("SELECT ") + kTaskColumns +
                           " FROM tasks WHERE run_id = ? AND state = 'claimed' AND worker_id = ? "
                           "ORDER BY id LIMIT 1" +
                           store_->connection().for_update(false));
        mine.bind(1, run_id);
        mine.bind(2, worker_id);
        const bool held = attempt > 1 && mine.executeStep();
        Statement sel(store_->connection(),
                      std::string("SELECT ") + kTaskColumns +
                          " FROM tasks WHERE run_id = ? AND (state = 'pending' OR "
                          "(state = 'claimed' AND lease_until_s < ?)) "
                          "ORDER BY id LIMIT 1" +
                          store_->connection().for_update(true));
        if (!held) {
          sel.bind(1, run_id);
          sel.bind(2, now_s);
          if (!sel.executeStep()) return std::nullopt;
        }
        TaskRow t = held ? read_task(mine) : read_task(sel);
        mine.reset();
        sel.reset();
        Statement up(store_->connection(),
                     "UPDATE tasks SET state = 'claimed', worker_id = ?, claimed_s = ?, "
                     "lease_until_s = ?, attempts = attempts + ? WHERE id = ?");
        up.bind(1, worker_id);
        up.bind(2, held ? t.claimed_s : now_s);
        up.bind(3, now_s + lease_s);
        up.bind(4, held ? 0 : 1);
        up.bind(5, t.id);
        up.exec();
        tx.commit();
        t.state = "claimed";
        t.worker_id = worker_id;
        if (!held) {
          t.claimed_s = now_s;
          ++t.attempts;
        }
        t.lease_until_s = now_s + lease_s;
        return t;
      });
}

std::size_t WorkQueue::heartbeat(std::int64_t worker_id, double now_s, double lease_s,
                                 bool renew_claims) {
  return store_->retrying(
      "cannot record the heartbeat of worker " + std::to_string(worker_id), [&] {
        Transaction tx(store_->connection());
        Statement w(store_->connection(), "UPDATE workers SET heartbeat_s = ? WHERE id = ?");
        w.bind(1, now_s);
        w.bind(2, worker_id);
        w.exec();
        Statement t(store_->connection(),
                    "UPDATE tasks SET lease_until_s = CASE WHEN ?1 = 1 THEN ?2 ELSE "
                    "lease_until_s END WHERE worker_id = ?3 AND state = 'claimed'");
        t.bind(1, renew_claims ? 1 : 0);
        t.bind(2, now_s + lease_s);
        t.bind(3, worker_id);
        const int held = t.exec();
        tx.commit();
        return std::size_t(held);
      });
}

bool WorkQueue::holds_task(std::int64_t task_id, std::int64_t worker_id) {
  Statement q(store_->connection(),
              std::string("SELECT 1 FROM tasks WHERE id = ? AND worker_id = ? AND state = "
                          "'claimed'") +
                  store_->connection().for_update(false));
  q.bind(1, task_id);
  q.bind(2, worker_id);
  return q.executeStep();
}

void WorkQueue::finish_task(std::int64_t task_id, const std::string& state, double now_s) {
  Statement q(store_->connection(), "UPDATE tasks SET state = ?, finished_s = ? WHERE id = ?");
  q.bind(1, state);
  q.bind(2, now_s);
  q.bind(3, task_id);
  q.exec();
}

bool WorkQueue::finish_task_measured(std::int64_t task_id, std::int64_t worker_id,
                                     const ConfigRow& config, const MeasurementRow& m,
                                     double now_s) {
  check_measurement(*store_, config, m);
  return store_->retrying(
      "cannot record the measurement of '" + config.key + "' (task " + std::to_string(task_id) +
          ")",
      [&] {
        Transaction tx(store_->connection());
        if (!holds_task(task_id, worker_id)) return false;
        if (!ResultStore(*store_).is_measured(config.board, config.key, m.dataset))
          insert_measurement(store_->connection(), config, m);
        finish_task(task_id, "done", now_s);
        tx.commit();
        return true;
      });
}

bool WorkQueue::finish_task_failed(std::int64_t task_id, std::int64_t worker_id,
                                   const ConfigRow& config, const std::string& dataset,
                                   const std::string& failure_class, const std::string& message,
                                   double now_s) {
  check_failure(*store_, config, failure_class);
  return store_->retrying(
      "cannot record the failure of '" + config.key + "' (task " + std::to_string(task_id) + ")",
      [&] {
        Transaction tx(store_->connection());
        if (!holds_task(task_id, worker_id)) return false;
        Statement run_of(store_->connection(), "SELECT run_id FROM tasks WHERE id = ?");
        run_of.bind(1, task_id);
        run_of.executeStep();
        insert_failure(store_->connection(), run_of.getColumn(0).getInt64(), config, dataset,
                       failure_class, message);
        finish_task(task_id, "failed", now_s);
        tx.commit();
        return true;
      });
}

void WorkQueue::release_task(std::int64_t task_id, std::int64_t worker_id) {
  return store_->retrying("cannot release task " + std::to_string(task_id), [&] {
    Statement q(store_->connection(),
                "UPDATE tasks SET state = 'pending', lease_until_s = NULL "
                "WHERE id = ? AND worker_id = ? AND state = 'claimed'");
    q.bind(1, task_id);
    q.bind(2, worker_id);
    q.exec();
  });
}

std::size_t WorkQueue::cancel_pending_tasks(std::int64_t run_id) {
  return store_->retrying("cannot cancel the tasks of run " + std::to_string(run_id), [&] {
    Statement q(store_->connection(),
                "UPDATE tasks SET state = 'cancelled' WHERE run_id = ? AND state = "
                "'pending'");
    q.bind(1, run_id);
    return std::size_t(q.exec());
  });
}

std::vector<TaskRow> WorkQueue::tasks(std::int64_t run_id, const std::string& state) const {
  std::vector<TaskRow> out;
  if (!has_queue()) return out;
  store_->retrying("cannot read the tasks of run " + std::to_string(run_id), [&] {
    out.clear();
    Statement q(store_->connection(),
                std::string("SELECT ") + kTaskColumns +
                    " FROM tasks WHERE run_id = ?1 AND (?2 = '' OR state = ?2) "
                    "ORDER BY id");
    q.bind(1, run_id);
    q.bind(2, state);
    while (q.executeStep()) out.push_back(read_task(q));
  });
  return out;
}

std::vector<TaskRow> WorkQueue::finished_tasks(std::int64_t run_id, std::int64_t after_id) const {
  std::vector<TaskRow> out;
  if (!has_queue()) return out;
  store_->retrying("cannot read the tasks of run " + std::to_string(run_id), [&] {
    out.clear();
    Statement q(store_->connection(), std::string("SELECT ") + kTaskColumns +
                                          " FROM tasks WHERE run_id = ? AND id > ? AND state IN "
                                          "('done', 'failed') ORDER BY id");
    q.bind(1, run_id);
    q.bind(2, after_id);
    while (q.executeStep()) out.push_back(read_task(q));
  });
  return out;
}

TaskCounts WorkQueue::task_counts(std::int64_t run_id) const {
  TaskCounts c;
  if (!has_queue()) return c;
  store_->retrying("cannot count the tasks of run " + std::to_string(run_id), [&] {
    c = TaskCounts{};
    Statement q(store_->connection(),
                "SELECT state, count(*), avg(finished_s - claimed_s) FROM tasks "
                "WHERE run_id = ? GROUP BY state");
    q.bind(1, run_id);
    double weighted = 0;
    std::size_t finished = 0;
    while (q.executeStep()) {
      const std::string state = q.getColumn(0).getString();
      const std::size_t n = std::size_t(q.getColumn(1).getInt64());
      if (state == "pending") c.pending = n;
      if (state == "claimed") c.claimed = n;
      if (state == "done") c.done = n;
      if (state == "failed") c.failed = n;
      if (state == "cancelled") c.cancelled = n;
      if ((state == "done" || state == "failed") && !q.getColumn(2).isNull()) {
        weighted += q.getColumn(2).getDouble() * double(n);
        finished += n;
      }
    }
    c.mean_task_s = finished ? weighted / double(finished) : 0;
  });
  return c;
}

std::vector<WorkerRow> WorkQueue::workers(std::int64_t run_id) const {
  std::vector<WorkerRow> out;
  if (!has_queue()) return out;
  store_->retrying("cannot read the workers of run " + std::to_string(run_id), [&] {
    out.clear();
    Statement q(
        store_->connection(),
        "SELECT w.id, w.run_id, w.host, w.pid, w.gpu, w.started_s, w.heartbeat_s, w.status, "
        "(SELECT count(*) FROM tasks t WHERE t.worker_id = w.id AND t.state = 'done'), "
        "(SELECT count(*) FROM tasks t WHERE t.worker_id = w.id AND t.state = 'failed') "
        "FROM workers w WHERE w.run_id = ? ORDER BY w.id");
    q.bind(1, run_id);
    while (q.executeStep()) {
      WorkerRow w;
      w.id = q.getColumn(0).getInt64();
      w.run_id = q.getColumn(1).getInt64();
      w.host = q.getColumn(2).getString();
      w.pid = q.getColumn(3).getInt64();
      w.gpu = q.getColumn(4).getString();
      w.started_s = q.getColumn(5).getDouble();
      w.heartbeat_s = q.getColumn(6).getDouble();
      w.status = q.getColumn(7).getString();
      w.n_done = std::size_t(q.getColumn(8).getInt64());
      w.n_failed = std::size_t(q.getColumn(9).getInt64());
      out.push_back(std::move(w));
    }
  });
  return out;
}

}  // namespace flowtune::db
