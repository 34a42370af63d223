// Recording an imported file in one transaction (db/import_store.hpp).
#include "db/import_store.hpp"

#include <unistd.h>

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <utility>

#include "db/config_rows.hpp"
#include "db/shared_writes.hpp"
#include "db/store.hpp"
#include "db/store_url.hpp"

namespace flowtune::db {

namespace {

/// Sets an SQLite connection's page cache size (PRAGMA cache_size: pages, or KiB when
/// negative) for its lifetime, then restores the previous one.
class PageCacheSize {
 public:
  PageCacheSize(Connection& c, std::int64_t size) : c_(c) {
    Statement q(c, "PRAGMA cache_size");
    if (q.executeStep()) before_ = q.getColumn(0).getInt64();
    c_.exec_script("PRAGMA cache_size = " + std::to_string(size));
  }
  ~PageCacheSize() {
    try {
      c_.exec_script("PRAGMA cache_size = " + std::to_string(before_));
    } catch (const BackendError&) {
      // the connection is gone; nothing to restore
    }
  }
  PageCacheSize(const PageCacheSize&) = delete;
  PageCacheSize& operator=(const PageCacheSize&) = delete;

 private:
  Connection& c_;
  std::int64_t before_ = -2000;  // SQLite's default: 2000 KiB
};

std::string ms_text(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
}

}  // namespace

ImportOutcome ImportStore::record_import(const RunInfo& info,
                                         const std::vector<ImportedEntry>& entries) {
  if (info.workload.empty()) store_->fail("an import needs a workload");
  for (const ImportedEntry& e : entries) {
    try {
      if (e.kind == ImportedEntry::Kind::measured)
        check_measurement(*store_, e.config, e.measurement);
      if (e.kind == ImportedEntry::Kind::failed) check_failure(*store_, e.config, e.failure_class);
      if (e.config.board.empty() || e.config.key.empty())
        store_->fail("a config needs a board and a key");
    } catch (const DbError& x) {
      std::string problem = x.what();
      const std::string prefix = store_->path() + ": ";
      if (problem.rfind(prefix, 0) == 0) problem = problem.substr(prefix.size());
      store_->fail(e.where + ": " + problem);
    }
  }
  ImportOutcome out;
  const ImportedEntry* at = nullptr;  // the entry being written
  try {
    Connection& c = store_->connection();
    // SQLite: a page cache as large as the pages the transaction changes (about 1.5 KiB per
    // entry: a configs row with its ~250-byte key in two b-trees, a measurements row; 512 MiB
    // at least, 4 GiB at most), so that they stay in memory until the commit instead of
    // spilling to the WAL and being read and written there again (an import of 10^6 entries
    // with 512 MiB spent a third of its time so).
    std::optional<PageCacheSize> larger_cache;
    const std::int64_t cache_kib =
        std::clamp<std::int64_t>(std::int64_t(entries.size()) * 3 / 2, 512 << 10, 4 << 20);
    if (c.dialect() == Dialect::sqlite) larger_cache.emplace(c, -cache_kib);
    Transaction tx(c);
    // A (board, dataset) without any measurement in the store holds none of the entries:
    // their lookups below are skipped (a first import of 10^6 entries).
    std::set<std::pair<std::string, std::string>> with_measurements;
    {
      Statement any(c,
                    "SELECT 1 FROM measurements m JOIN configs c ON c.id = m.config_id "
                    "WHERE c.board = ? AND m.dataset = ? LIMIT 1");
      std::set<std::pair<std::string, std::string>> seen;
      for (const ImportedEntry& e : entries) {
        if (e.kind != ImportedEntry::Kind::measured) continue;
        const auto pair = std::make_pair(e.config.board, e.measurement.dataset);
        if (!seen.insert(pair).second) continue;
        any.bind(1, pair.first);
        any.bind(2, pair.second);
        if (any.executeStep()) with_measurements.insert(pair);
        any.reset();
      }
    }
    Statement run(c,
                  "INSERT INTO runs(board, command, git_revision, host, gpu_name, "
                  "driver_version, cuda_version, clocks_observed, dataset, status, "
                  "workload, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)");
    run.bind(1, info.board);
    run.bind(2, redact_store_urls(info.command));
    run.bind(3, info.git_revision);
    run.bind(4, info.host);
    run.bind(5, info.gpu_name);
    run.bind(6, info.driver_version);
    run.bind(7, info.cuda_version);
    run.bind(8, info.clocks_observed);
    run.bind(9, info.dataset);
    run.bind(10, info.workload);
    run.bind(11, static_cast<std::int64_t>(::getpid()));
    run.exec();
    const std::int64_t run_id = c.last_insert_id("runs");
    Statement measured(c,
                       "SELECT m.time_ms_median FROM measurements m JOIN configs c "
                       "ON c.id = m.config_id WHERE c.board = ? AND c.config_key = ? "
                       "AND m.dataset = ?");
    Statement failed(c,
                     "SELECT 1 FROM failures f JOIN configs c ON c.id = f.config_id "
                     "WHERE c.board = ? AND c.config_key = ? AND f.dataset = ? "
                     "AND f.failure_class = ? AND f.message = ?");
    MeasurementInserter measurements(c);
    ConfigUpserter configs(c);
    Statement pruned(c,
                     "INSERT INTO pruned(config_id, run_id, reason) VALUES (?, ?, ?) "
                     "ON CONFLICT(config_id) DO NOTHING");
    std::string tunables_text, params_text;  // of an entry that does not give them
    const auto config_id = [&](const ImportedEntry& e) {
      if (!e.tunables_json.empty() && !e.params_json.empty())
        return configs.id(e.config, e.tunables_json, e.params_json);
      tunables_text = tunables_json(e.config.tunables);
      params_text = params_json(e.config.params);
      return configs.id(e.config, tunables_text, params_text);
    };
    for (const ImportedEntry& e : entries) {
      at = &e;
      switch (e.kind) {
        case ImportedEntry::Kind::measured: {
          if (with_measurements.count({e.config.board, e.measurement.dataset})) {
            measured.bind(1, e.config.board);
            measured.bind(2, e.config.key);
            measured.bind(3, e.measurement.dataset);
            const bool found = measured.executeStep();
            const double stored = found ? measured.getColumn(0).getDouble() : 0.0;
            measured.reset();
            if (found) {
              if (stored != e.measurement.time_ms_median)
                store_->fail(e.where + ": config '" + e.config.label +
                             "' is measured on dataset '" + e.measurement.dataset +
                             "' already, with " + ms_text(stored) + " ms (the file says " +
                             ms_text(e.measurement.time_ms_median) + " ms)");
              ++out.already;
              break;
            }
          }
          measurements.insert(config_id(e), run_id, e.measurement);
          ++out.measured;
          break;
        }
        case ImportedEntry::Kind::failed: {
          failed.bind(1, e.config.board);
          failed.bind(2, e.config.key);
          failed.bind(3, e.measurement.dataset);
          failed.bind(4, e.failure_class);
          failed.bind(5, e.message);
          const bool found = failed.executeStep();
          failed.reset();
          if (found) {
            ++out.already;
            break;
          }
          insert_failure(c, run_id, config_id(e), e.measurement.dataset, e.failure_class,
                         e.message);
          ++out.failed;
          break;
        }
        case ImportedEntry::Kind::pruned: {
          pruned.bind(1, config_id(e));
          pruned.bind(2, run_id);
          pruned.bind(3, e.message);
          if (pruned.exec() == 1)
            ++out.pruned;
          else
            ++out.already;
          pruned.reset();
          break;
        }
      }
    }
    if (out.measured + out.failed + out.pruned == 0) return out;  // rolled back: a no-op
    Statement end(c, "UPDATE runs SET status = 'done', ended_at = " +
                         std::string(c.dialect() == Dialect::sqlite
                                         ? "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                                         : "to_char(now() AT TIME ZONE 'UTC', "
                                           "'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')") +
                         " WHERE id = ?");
    end.bind(1, run_id);
    end.exec();
    tx.commit();
    out.run_id = run_id;
  } catch (const BackendError& e) {
    store_->fail("cannot record the import" + (at ? " (at " + at->where + ")" : "") + ": " +
                 e.what());
  }
  return out;
}

}  // namespace flowtune::db
