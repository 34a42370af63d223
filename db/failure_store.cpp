// Recording and reading failures and pruned configs.
#include "db/failure_store.hpp"

#include <algorithm>
#include <iterator>
#include <utility>

#include "db/config_rows.hpp"
#include "db/shared_writes.hpp"
#include "db/store.hpp"

namespace flowtune::db {

void check_failure(const Store& store, const ConfigRow& config, const std::string& failure_class) {
  static const char* const kClasses[] = {"compile", "launch",   "runtime",
                                         "timeout", "accuracy", "environment"};
  if (std::find(std::begin(kClasses), std::end(kClasses), failure_class) == std::end(kClasses))
    store.fail("unknown failure class '" + failure_class +
               "' (allowed: compile, launch, runtime, timeout, accuracy, environment)");
  if (config.board.empty() || config.key.empty()) store.fail("a config needs a board and a key");
}

void insert_failure(Connection& c, std::int64_t run_id, const ConfigRow& config,
                    const std::string& dataset, const std::string& failure_class,
                    const std::string& message) {
  insert_failure(c, run_id, upsert_config(c, config), dataset, failure_class, message);
}

void insert_failure(Connection& c, std::int64_t run_id, std::int64_t config_id,
                    const std::string& dataset, const std::string& failure_class,
                    const std::string& message) {
  Statement q(c,
              "INSERT INTO failures(config_id, run_id, dataset, failure_class, message) "
              "VALUES (?, ?, ?, ?, ?)");
  q.bind(1, config_id);
  q.bind(2, run_id);
  q.bind(3, dataset);
  q.bind(4, failure_class);
  q.bind(5, message);
  q.exec();
}

bool FailureStore::is_pruned(const std::string& board, const std::string& config_key) const {
  return store_->retrying("cannot query pruned configs", [&] {
    Statement q(store_->connection(),
                "SELECT 1 FROM pruned p JOIN configs c ON c.id = p.config_id "
                "WHERE c.board = ? AND c.config_key = ?");
    q.bind(1, board);
    q.bind(2, config_key);
    return q.executeStep();
  });
}

std::string FailureStore::failure_class(const std::string& board, const std::string& config_key,
                                        const std::string& dataset) const {
  return store_->retrying("cannot query failures", [&] {
    Statement q(store_->connection(),
                "SELECT f.failure_class FROM failures f JOIN configs c ON c.id = f.config_id "
                "WHERE c.board = ? AND c.config_key = ? AND f.dataset = ? "
                "ORDER BY f.id DESC LIMIT 1");
    q.bind(1, board);
    q.bind(2, config_key);
    q.bind(3, dataset);
    return q.executeStep() ? q.getColumn(0).getString() : std::string();
  });
}

void FailureStore::record_pruned(std::int64_t run_id, const ConfigRow& config,
                                 const std::string& reason) {
  if (config.board.empty() || config.key.empty()) store_->fail("a config needs a board and a key");
  return store_->retrying(
      "cannot record pruned config '" + config.key + "' (run " + std::to_string(run_id) + ")", [&] {
        Connection& c = store_->connection();
        Transaction tx(c);
        const std::int64_t config_id = upsert_config(c, config);
        Statement q(c,
                    "INSERT INTO pruned(config_id, run_id, reason) VALUES (?, ?, ?) "
                    "ON CONFLICT(config_id) DO NOTHING");
        q.bind(1, config_id);
        q.bind(2, run_id);
        q.bind(3, reason);
        q.exec();
        tx.commit();
      });
}

void FailureStore::record_failure(std::int64_t run_id, const ConfigRow& config,
                                  const std::string& dataset, const std::string& failure_class,
                                  const std::string& message) {
  check_failure(*store_, config, failure_class);
  return store_->retrying(
      "cannot record the failure of '" + config.key + "' (run " + std::to_string(run_id) + ")",
      [&] {
        Transaction tx(store_->connection());
        insert_failure(store_->connection(), run_id, config, dataset, failure_class, message);
        tx.commit();
      });
}

std::vector<PrunedRow> FailureStore::pruned(const std::string& board) const {
  std::vector<PrunedRow> out;
  store_->retrying("cannot read pruned configs", [&] {
    out.clear();
    Statement q(store_->connection(), std::string("SELECT ") + kConfigColumns +
                                          ", p.run_id, p.reason FROM pruned p "
                                          "JOIN configs c ON c.id = p.config_id WHERE c.board = ? "
                                          "ORDER BY p.id");
    q.bind(1, board);
    while (q.executeStep()) {
      PrunedRow p;
      p.config = read_config(q, 0);
      p.run_id = q.getColumn(kConfigColumnCount).getInt64();
      p.reason = q.getColumn(kConfigColumnCount + 1).getString();
      out.push_back(std::move(p));
    }
  });
  return out;
}

std::vector<FailureRow> FailureStore::failures(const std::string& board) const {
  std::vector<FailureRow> out;
  store_->retrying("cannot read failures", [&] {
    out.clear();
    Statement q(store_->connection(),
                std::string("SELECT ") + kConfigColumns +
                    ", f.run_id, f.dataset, f.failure_class, f.message, f.failed_at "
                    "FROM failures f JOIN configs c ON c.id = f.config_id "
                    "WHERE c.board = ? ORDER BY f.id");
    q.bind(1, board);
    while (q.executeStep()) {
      FailureRow f;
      f.config = read_config(q, 0);
      int i = kConfigColumnCount;
      f.run_id = q.getColumn(i++).getInt64();
      f.dataset = q.getColumn(i++).getString();
      f.failure_class = q.getColumn(i++).getString();
      f.message = q.getColumn(i++).getString();
      f.failed_at = q.getColumn(i++).getString();
      out.push_back(std::move(f));
    }
  });
  return out;
}

}  // namespace flowtune::db
