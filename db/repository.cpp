// Repository over SQLite through SQLiteCpp; the schema itself lives in db/schema.cpp.
#include "db/repository.hpp"

#include <SQLiteCpp/SQLiteCpp.h>
#include <signal.h>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iterator>
#include <map>
#include <sstream>
#include <utility>

#include "db/connection.hpp"
#include "db/schema.hpp"

namespace flowtune::db {

namespace {

constexpr int kBusyTimeoutMs = 30000;

// Columns of configs in the order read by read_config (table alias c).
constexpr const char* kConfigColumns =
    "c.board, c.config_key, c.label, c.workload, c.variant, c.precision, c.tunables_json, "
    "c.clock_mhz, c.params_json";
constexpr int kConfigColumnCount = 9;

ConfigRow read_config(Statement& q, int first) {
  ConfigRow c;
  c.board = q.getColumn(first + 0).getString();
  c.key = q.getColumn(first + 1).getString();
  c.label = q.getColumn(first + 2).getString();
  c.workload = q.getColumn(first + 3).getString();
  c.variant = q.getColumn(first + 4).getString();
  c.precision = q.getColumn(first + 5).getString();
  c.tunables = parse_tunables_json(q.getColumn(first + 6).getString());
  c.clock_mhz = q.getColumn(first + 7).getInt();
  c.params = parse_params_json(q.getColumn(first + 8).getString());
  return c;
}

double nan_if_null(const Column& col) {
  return col.isNull() ? std::nan("") : col.getDouble();
}

std::optional<double> optional_double(const Column& col) {
  if (col.isNull()) return std::nullopt;
  return col.getDouble();
}

// NaN and empty optionals are stored as NULL.
void bind_double_or_null(Statement& q, int index, double value) {
  if (std::isnan(value)) {
    q.bind(index);
  } else {
    q.bind(index, value);
  }
}

void bind_optional(Statement& q, int index, const std::optional<double>& value) {
  if (value && !std::isnan(*value)) {
    q.bind(index, *value);
  } else {
    q.bind(index);
  }
}

void bind_optional(Statement& q, int index, const std::optional<int>& value) {
  if (value) {
    q.bind(index, *value);
  } else {
    q.bind(index);
  }
}

}  // namespace

void Repository::fail(const std::string& problem) const {
  throw DbError(path_ + ": " + problem);
}

namespace {
// The URL without its password (postgresql://user:secret@host -> postgresql://user@host),
// for messages.
std::string without_password(const std::string& url) {
  const std::size_t scheme = url.find("://");
  const std::size_t at = url.find('@');
  if (scheme == std::string::npos || at == std::string::npos) return url;
  const std::size_t colon = url.find(':', scheme + 3);
  if (colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon) + url.substr(at);
}
}  // namespace

Repository::Repository(const std::string& path, OpenMode mode) : path_(without_password(path)) {
  if (is_postgresql_url(path)) {
    open_postgresql(path, mode);
    return;
  }
  if (mode == OpenMode::read_only) {
    open_read_only();
    return;
  }
  try {
    db_ = std::make_unique<SQLite::Database>(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE,
                                             kBusyTimeoutMs);
  } catch (const SQLite::Exception& e) {
    fail(std::string("cannot open or create the database (") + e.what() +
         "); check that the directory exists and is writable");
  }
  conn_ = sqlite_connection(*db_);
  if (sqlite3_db_readonly(db_->getHandle(), "main") == 1) {
    fail("the database file is not writable");
  }

  // Identify the file before writing anything into it.
  int n_objects = 0;
  std::int32_t application_id = 0;
  try {
    n_objects = db_->execAndGet("SELECT count(*) FROM sqlite_master").getInt();
    application_id = db_->execAndGet("PRAGMA application_id").getInt();
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_NOTADB) {
      fail(std::string("not an SQLite database (") + e.what() + ")");
    }
    fail(std::string("cannot read the database (") + e.what() + ")");
  }
  if ((n_objects > 0 || application_id != 0) && application_id != kApplicationId) {
    std::string tables;
    SQLite::Statement q(*db_, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
    while (q.executeStep()) tables += (tables.empty() ? "" : ", ") + q.getColumn(0).getString();
    fail("not a flowtune database (SQLite application_id " + std::to_string(application_id) +
         ", tables: " + (tables.empty() ? "none" : tables) + ")");
  }

  try {
    // Foreign keys stay off while migrations rebuild tables (SQLite's ALTER TABLE recipe);
    // they are checked and switched on afterwards.
    db_->exec("PRAGMA foreign_keys = OFF");
    db_->exec("PRAGMA synchronous = FULL");
    db_->execAndGet("PRAGMA journal_mode = WAL");

    // Migrate under a write lock so that two processes opening a new file do not race.
    SQLite::Transaction tx(*db_, SQLite::TransactionBehavior::IMMEDIATE);
    db_->exec(schema_version_table_sql());
    const int current =
        db_->execAndGet("SELECT coalesce(max(version), 0) FROM schema_version").getInt();
    if (current > kSchemaVersion) {
      fail("schema version " + std::to_string(current) +
           " is newer than this flowtune understands (" + std::to_string(kSchemaVersion) +
           "); use a newer flowtune");
    }
    for (const Migration& m : migrations()) {
      if (m.version <= current) continue;
      db_->exec(m.sql);
      if (m.rekey) rekey_configs();
      SQLite::Statement ins(*db_, "INSERT INTO schema_version(version, description) VALUES (?, ?)");
      ins.bind(1, m.version);
      ins.bind(2, m.description);
      ins.exec();
    }
    db_->exec("PRAGMA application_id = " + std::to_string(kApplicationId));
    SQLite::Statement fk(*db_, "PRAGMA foreign_key_check");
    if (fk.executeStep()) fail("foreign key violation in table " + fk.getColumn(0).getString());
    tx.commit();
    db_->exec("PRAGMA foreign_keys = ON");
    version_ = kSchemaVersion;
  } catch (const SQLite::Exception& e) {
    fail(std::string("cannot initialise the flowtune schema (") + e.what() + ")");
  } catch (const std::invalid_argument& e) {
    fail(std::string("cannot migrate the configs (") + e.what() + ")");
  }
  mark_dead_runs_aborted();
}

void Repository::open_read_only() {
  std::error_code ec;
  if (!std::filesystem::exists(path_, ec)) fail("no such database (check --db)");
  if (std::filesystem::is_directory(path_, ec)) fail("is a directory, not a database");
  try {
    db_ = std::make_unique<SQLite::Database>(path_, SQLite::OPEN_READONLY, kBusyTimeoutMs);
  } catch (const SQLite::Exception& e) {
    fail(std::string("cannot open the database read-only (") + e.what() + ")");
  }
  conn_ = sqlite_connection(*db_);
  int version = 0;
  std::int32_t application_id = 0;
  try {
    application_id = db_->execAndGet("PRAGMA application_id").getInt();
    if (application_id == kApplicationId)
      version = db_->execAndGet("SELECT coalesce(max(version), 0) FROM schema_version").getInt();
  } catch (const SQLite::Exception& e) {
    if (e.getErrorCode() == SQLITE_NOTADB)
      fail(std::string("not an SQLite database (") + e.what() + ")");
    fail(std::string("cannot read the database (") + e.what() + ")");
  }
  if (application_id != kApplicationId)
    fail("not a flowtune database (SQLite application_id " + std::to_string(application_id) + ")");
  if (version > kSchemaVersion)
    fail("schema version " + std::to_string(version) +
         " is newer than this flowtune understands (" + std::to_string(kSchemaVersion) +
         "); use a newer flowtune");
  version_ = version;
  if (version < kOldestReadableSchemaVersion)
    fail("schema version " + std::to_string(version) + " is older than this flowtune reads (" +
         std::to_string(kOldestReadableSchemaVersion) +
         "); open it once with `tune` (read-write) to migrate it");
}

void Repository::open_postgresql(const std::string& url, OpenMode mode) {
  try {
    conn_ = postgresql_connection(url);
  } catch (const BackendError& e) {
    fail(e.what());
  }
  try {
    if (mode == OpenMode::read_only) {
      conn_->exec_script("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
      Statement t(*conn_, "SELECT to_regclass('schema_version') IS NOT NULL");
      t.executeStep();
      if (t.getColumn(0).getString() != "t")
        fail("not a flowtune database (no schema_version table)");
      version_ = schema_version();
      if (version_ > kSchemaVersion)
        fail("schema version " + std::to_string(version_) +
             " is newer than this flowtune understands (" + std::to_string(kSchemaVersion) +
             "); use a newer flowtune");
      if (version_ < kSchemaVersion)
        fail("schema version " + std::to_string(version_) + " is older than this flowtune's (" +
             std::to_string(kSchemaVersion) + "); open it once with `tune` to migrate it");
      return;
    }
    // One process creates or migrates the schema; the others wait on the advisory lock.
    Transaction tx(*conn_);
    conn_->exec_script("SELECT pg_advisory_xact_lock(" + std::to_string(kApplicationId) + ")");
    Statement tables(*conn_,
                     "SELECT count(*) FROM information_schema.tables "
                     "WHERE table_schema = current_schema() AND table_name <> 'schema_version'");
    tables.executeStep();
    const std::int64_t n_tables = tables.getColumn(0).getInt64();
    conn_->exec_script(postgresql_schema_version_table_sql());
    const int current = schema_version();
    if (current > kSchemaVersion)
      fail("schema version " + std::to_string(current) +
           " is newer than this flowtune understands (" + std::to_string(kSchemaVersion) +
           "); use a newer flowtune");
    if (current == 0) {
      if (n_tables > 0)
        fail(
            "not a flowtune database (it has tables but no schema_version); use an empty "
            "database");
      conn_->exec_script(postgresql_schema_sql());
      Statement ins(*conn_, "INSERT INTO schema_version(version, description) VALUES (?, ?)");
      ins.bind(1, kSchemaVersion);
      ins.bind(2, "created at this version (PostgreSQL)");
      ins.exec();
    } else if (current < kSchemaVersion) {
      fail("schema version " + std::to_string(current) +
           " has no PostgreSQL migration in this flowtune");
    }
    tx.commit();
    version_ = kSchemaVersion;
  } catch (const BackendError& e) {
    fail(std::string("cannot initialise the flowtune schema (") + e.what() + ")");
  }
  mark_dead_runs_aborted();
}

namespace {
std::string this_host() {
  char name[256] = {};
  if (::gethostname(name, sizeof name - 1) != 0) return "";
  return name;
}
// runs.host is "name" or "name (CPU model)" (tuner/environment.cpp).
bool same_host(const std::string& stored) {
  const std::string h = this_host();
  return !h.empty() && (stored == h || stored.rfind(h + " (", 0) == 0);
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
bool process_alive(long long pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}
}  // namespace

void Repository::mark_dead_runs_aborted() {
  try {
    std::vector<std::int64_t> dead;
    Statement q(*conn_, "SELECT id, pid, host FROM runs WHERE status = 'running'");
    while (q.executeStep())
      if (!q.getColumn(1).isNull() && same_host(q.getColumn(2).getString()) &&
          !process_alive(q.getColumn(1).getInt64()))
        dead.push_back(q.getColumn(0).getInt64());
    Statement u(
        *conn_,
        "UPDATE runs SET status = 'aborted', ended_at = ? WHERE id = ? AND status = 'running'");
    for (std::int64_t id : dead) {
      u.bind(1, utc_now_iso());
      u.bind(2, id);
      u.exec();
      u.reset();
    }
  } catch (const BackendError& e) {
    fail(std::string("cannot mark dead runs aborted (") + e.what() + ")");
  }
}

std::vector<RunRow> Repository::active_runs(const std::string& board, const std::string& workload,
                                            const std::string& dataset,
                                            std::int64_t except_run) const {
  std::vector<RunRow> out;
  for (RunRow& r : runs(board))
    if (r.status == "running" && r.id != except_run && r.info.workload == workload &&
        r.info.dataset == dataset && same_host(r.info.host) && process_alive(r.pid))
      out.push_back(std::move(r));
  return out;
}

// Recomputes configs.config_key from the stored columns (after a migration that changed
// what a key holds), so that a resumed run finds the migrated points.
void Repository::rekey_configs() {
  std::vector<std::pair<std::int64_t, std::string>> keys;
  Statement q(*conn_, std::string("SELECT c.id, ") + kConfigColumns + " FROM configs c");
  while (q.executeStep())
    keys.emplace_back(q.getColumn(0).getInt64(), config_key(read_config(q, 1)));
  Statement u(*conn_, "UPDATE configs SET config_key = ? WHERE id = ?");
  for (const auto& [id, key] : keys) {
    u.bind(1, key);
    u.bind(2, id);
    u.exec();
    u.reset();
  }
}

Repository::~Repository() = default;
Repository::Repository(Repository&&) noexcept = default;
Repository& Repository::operator=(Repository&&) noexcept = default;

int Repository::schema_version() const {
  try {
    Statement q(*conn_, "SELECT coalesce(max(version), 0) FROM schema_version");
    q.executeStep();
    return q.getColumn(0).getInt();
  } catch (const BackendError& e) {
    fail(std::string("cannot read schema_version (") + e.what() + ")");
  }
}

std::string Repository::journal_mode() const {
  if (conn_->dialect() == Dialect::postgresql) return "postgresql";
  Statement q(*conn_, "PRAGMA journal_mode");
  q.executeStep();
  return q.getColumn(0).getString();
}

std::int64_t Repository::begin_run(const RunInfo& info) {
  if (info.workload.empty()) fail("a run needs a workload");
  try {
    Statement q(*conn_,
                "INSERT INTO runs(board, command, git_revision, host, gpu_name, "
                "driver_version, cuda_version, clocks_observed, dataset, status, "
                "workload, pid) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?)");
    q.bind(1, info.board);
    q.bind(2, info.command);
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
    return conn_->last_insert_id("runs");
  } catch (const BackendError& e) {
    fail(std::string("cannot record the start of a run (") + e.what() + ")");
  }
}

void Repository::end_run(std::int64_t run_id, const std::string& status) {
  if (status != "done" && status != "failed" && status != "interrupted") {
    fail("invalid final run status '" + status + "' (allowed: done, failed, interrupted)");
  }
  int changed = 0;
  try {
    Statement q(*conn_, "UPDATE runs SET status = ?, ended_at = ? WHERE id = ?");
    q.bind(1, status);
    q.bind(2, utc_now_iso());
    q.bind(3, run_id);
    changed = q.exec();
  } catch (const BackendError& e) {
    fail(std::string("cannot record the end of run ") + std::to_string(run_id) + " (" + e.what() +
         ")");
  }
  if (changed != 1) fail("no run with id " + std::to_string(run_id));
}

bool Repository::is_measured(const std::string& board, const std::string& config_key,
                             const std::string& dataset) const {
  try {
    Statement q(*conn_,
                "SELECT 1 FROM measurements m JOIN configs c ON c.id = m.config_id "
                "WHERE c.board = ? AND c.config_key = ? AND m.dataset = ?");
    q.bind(1, board);
    q.bind(2, config_key);
    q.bind(3, dataset);
    return q.executeStep();
  } catch (const BackendError& e) {
    fail(std::string("cannot query measurements (") + e.what() + ")");
  }
}

bool Repository::is_pruned(const std::string& board, const std::string& config_key) const {
  try {
    Statement q(*conn_,
                "SELECT 1 FROM pruned p JOIN configs c ON c.id = p.config_id "
                "WHERE c.board = ? AND c.config_key = ?");
    q.bind(1, board);
    q.bind(2, config_key);
    return q.executeStep();
  } catch (const BackendError& e) {
    fail(std::string("cannot query pruned configs (") + e.what() + ")");
  }
}

// Inside a transaction: the id of (board, key), inserting the row when new.
std::int64_t Repository::upsert_config(const ConfigRow& c) {
  Statement ins(*conn_,
                "INSERT INTO configs(board, config_key, label, workload, variant, "
                "precision, tunables_json, clock_mhz, params_json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(board, config_key) DO NOTHING");
  ins.bind(1, c.board);
  ins.bind(2, c.key);
  ins.bind(3, c.label);
  ins.bind(4, c.workload);
  ins.bind(5, c.variant);
  ins.bind(6, c.precision);
  ins.bind(7, tunables_json(c.tunables));
  ins.bind(8, c.clock_mhz);
  ins.bind(9, params_json(c.params));
  ins.exec();
  Statement sel(*conn_, "SELECT id FROM configs WHERE board = ? AND config_key = ?");
  sel.bind(1, c.board);
  sel.bind(2, c.key);
  sel.executeStep();
  return sel.getColumn(0).getInt64();
}

void Repository::check_measurement(const ConfigRow& config, const MeasurementRow& m) const {
  if (config.board.empty() || config.key.empty()) fail("a config needs a board and a key");
  if (config.workload.empty()) fail("config '" + config.key + "' has no workload");
  if (!std::isfinite(m.time_ms_median) || !std::isfinite(m.time_ms_min) ||
      !std::isfinite(m.time_ms_max) || !std::isfinite(m.ns_per_unit)) {
    fail("non-finite time in the measurement of '" + config.key + "'");
  }
}

void Repository::record_measurement(const ConfigRow& config, const MeasurementRow& m) {
  check_measurement(config, m);
  if (is_measured(config.board, config.key, m.dataset)) {
    fail("config '" + config.key + "' on board '" + config.board +
         "' is already measured on dataset '" + m.dataset + "'");
  }
  try {
    Transaction tx(*conn_);
    insert_measurement(config, m);
    tx.commit();
  } catch (const BackendError& e) {
    fail("cannot record the measurement of '" + config.key + "' (run " + std::to_string(m.run_id) +
         "): " + e.what());
  }
}

// Inside a write transaction: the config (when new), the measurement, its metrics and items.
void Repository::insert_measurement(const ConfigRow& config, const MeasurementRow& m) {
  const std::int64_t config_id = upsert_config(config);
  Statement q(*conn_,
              "INSERT INTO measurements(config_id, run_id, dataset, time_ms_median, "
              "time_ms_min, time_ms_max, n_repeats, ns_per_unit, energy_mj, "
              "nj_per_unit, power_w, clock_mhz_observed, resources_json) "
              "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  q.bind(1, config_id);
  q.bind(2, m.run_id);
  q.bind(3, m.dataset);
  q.bind(4, m.time_ms_median);
  q.bind(5, m.time_ms_min);
  q.bind(6, m.time_ms_max);
  q.bind(7, m.n_repeats);
  q.bind(8, m.ns_per_unit);
  bind_optional(q, 9, m.energy_mj);
  bind_optional(q, 10, m.nj_per_unit);
  bind_optional(q, 11, m.power_w);
  bind_optional(q, 12, m.clock_mhz_observed);
  q.bind(13, m.resources_json);
  q.exec();
  const std::int64_t measurement_id = conn_->last_insert_id("measurements");
  Statement mq(*conn_,
               "INSERT INTO metrics(measurement_id, item, name, value) VALUES (?, ?, ?, ?)");
  const auto insert_metrics = [&](const std::string& item,
                                  const std::map<std::string, double>& metrics) {
    for (const auto& [name, value] : metrics) {
      mq.bind(1, measurement_id);
      mq.bind(2, item);
      mq.bind(3, name);
      bind_double_or_null(mq, 4, value);
      mq.exec();
      mq.reset();
    }
  };
  insert_metrics("", m.metrics);
  Statement s(*conn_, "INSERT INTO item_results(measurement_id, item, time_ms) VALUES (?, ?, ?)");
  for (const ItemResult& r : m.items) {
    s.bind(1, measurement_id);
    s.bind(2, r.item);
    s.bind(3, r.time_ms);
    s.exec();
    s.reset();
    insert_metrics(r.item, r.metrics);
  }
}

void Repository::record_pruned(std::int64_t run_id, const ConfigRow& config,
                               const std::string& reason) {
  if (config.board.empty() || config.key.empty()) fail("a config needs a board and a key");
  try {
    Transaction tx(*conn_);
    const std::int64_t config_id = upsert_config(config);
    Statement q(*conn_,
                "INSERT INTO pruned(config_id, run_id, reason) VALUES (?, ?, ?) "
                "ON CONFLICT(config_id) DO NOTHING");
    q.bind(1, config_id);
    q.bind(2, run_id);
    q.bind(3, reason);
    q.exec();
    tx.commit();
  } catch (const BackendError& e) {
    fail("cannot record pruned config '" + config.key + "' (run " + std::to_string(run_id) +
         "): " + e.what());
  }
}

std::vector<MeasuredConfig> Repository::measured(const std::string& board,
                                                 const std::string& dataset) const {
  return measured_where(board, dataset, "");
}

std::optional<MeasuredConfig> Repository::measurement_of(const std::string& board,
                                                         const std::string& config_key,
                                                         const std::string& dataset) const {
  std::vector<MeasuredConfig> found = measured_where(board, dataset, config_key);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

// Measurements of board; dataset "" = all, config_key "" = all.
std::vector<MeasuredConfig> Repository::measured_where(const std::string& board,
                                                       const std::string& dataset,
                                                       const std::string& config_key) const {
  std::vector<MeasuredConfig> out;
  try {
    Statement q(
        *conn_,
        std::string("SELECT ") + kConfigColumns +
            ", m.id, m.measured_at, m.run_id, m.dataset, m.time_ms_median, "
            "m.time_ms_min, m.time_ms_max, m.n_repeats, m.ns_per_unit, "
            "m.energy_mj, m.nj_per_unit, m.power_w, m.clock_mhz_observed, "
            "m.resources_json "
            "FROM measurements m JOIN configs c ON c.id = m.config_id "
            "WHERE c.board = ?1 AND (?2 = '' OR m.dataset = ?2) AND (?3 = '' OR c.config_key = ?3) "
            "ORDER BY m.id");
    q.bind(1, board);
    q.bind(2, dataset);
    q.bind(3, config_key);
    std::map<std::int64_t, std::size_t> index_of;
    while (q.executeStep()) {
      MeasuredConfig mc;
      mc.config = read_config(q, 0);
      int i = kConfigColumnCount;
      mc.measurement_id = q.getColumn(i++).getInt64();
      mc.measured_at = q.getColumn(i++).getString();
      MeasurementRow& m = mc.measurement;
      m.run_id = q.getColumn(i++).getInt64();
      m.dataset = q.getColumn(i++).getString();
      m.time_ms_median = q.getColumn(i++).getDouble();
      m.time_ms_min = q.getColumn(i++).getDouble();
      m.time_ms_max = q.getColumn(i++).getDouble();
      m.n_repeats = q.getColumn(i++).getInt();
      m.ns_per_unit = q.getColumn(i++).getDouble();
      m.energy_mj = optional_double(q.getColumn(i++));
      m.nj_per_unit = optional_double(q.getColumn(i++));
      m.power_w = optional_double(q.getColumn(i++));
      const Column clock = q.getColumn(i++);
      if (!clock.isNull()) m.clock_mhz_observed = clock.getInt();
      m.resources_json = q.getColumn(i++).getString();
      index_of[mc.measurement_id] = out.size();
      out.push_back(std::move(mc));
    }

    Statement s(
        *conn_,
        "SELECT s.measurement_id, s.item, s.time_ms "
        "FROM item_results s JOIN measurements m ON m.id = s.measurement_id "
        "JOIN configs c ON c.id = m.config_id "
        "WHERE c.board = ?1 AND (?2 = '' OR m.dataset = ?2) AND (?3 = '' OR c.config_key = ?3) "
        "ORDER BY s.measurement_id, " +
            conn_->insertion_order("s"));
    s.bind(1, board);
    s.bind(2, dataset);
    s.bind(3, config_key);
    while (s.executeStep()) {
      const auto it = index_of.find(s.getColumn(0).getInt64());
      if (it == index_of.end()) continue;  // written between the two reads
      ItemResult r;
      r.item = s.getColumn(1).getString();
      r.time_ms = s.getColumn(2).getDouble();
      out[it->second].measurement.items.push_back(std::move(r));
    }

    Statement x(
        *conn_,
        "SELECT x.measurement_id, x.item, x.name, x.value "
        "FROM metrics x JOIN measurements m ON m.id = x.measurement_id "
        "JOIN configs c ON c.id = m.config_id "
        "WHERE c.board = ?1 AND (?2 = '' OR m.dataset = ?2) AND (?3 = '' OR c.config_key = ?3)");
    x.bind(1, board);
    x.bind(2, dataset);
    x.bind(3, config_key);
    while (x.executeStep()) {
      const auto it = index_of.find(x.getColumn(0).getInt64());
      if (it == index_of.end()) continue;
      MeasurementRow& m = out[it->second].measurement;
      const std::string item = x.getColumn(1).getString();
      const double value = nan_if_null(x.getColumn(3));
      if (item.empty()) {
        m.metrics[x.getColumn(2).getString()] = value;
        continue;
      }
      for (ItemResult& r : m.items)
        if (r.item == item) r.metrics[x.getColumn(2).getString()] = value;
    }
  } catch (const BackendError& e) {
    fail(std::string("cannot read measurements (") + e.what() + ")");
  }
  return out;
}

std::string Repository::failure_class(const std::string& board, const std::string& config_key,
                                      const std::string& dataset) const {
  try {
    Statement q(*conn_,
                "SELECT f.failure_class FROM failures f JOIN configs c ON c.id = f.config_id "
                "WHERE c.board = ? AND c.config_key = ? AND f.dataset = ? "
                "ORDER BY f.id DESC LIMIT 1");
    q.bind(1, board);
    q.bind(2, config_key);
    q.bind(3, dataset);
    return q.executeStep() ? q.getColumn(0).getString() : std::string();
  } catch (const BackendError& e) {
    fail(std::string("cannot query failures (") + e.what() + ")");
  }
}

void Repository::check_failure(const ConfigRow& config, const std::string& failure_class) const {
  static const char* const kClasses[] = {"compile", "launch",   "runtime",
                                         "timeout", "accuracy", "environment"};
  if (std::find(std::begin(kClasses), std::end(kClasses), failure_class) == std::end(kClasses))
    fail("unknown failure class '" + failure_class +
         "' (allowed: compile, launch, runtime, timeout, accuracy, environment)");
  if (config.board.empty() || config.key.empty()) fail("a config needs a board and a key");
}

void Repository::record_failure(std::int64_t run_id, const ConfigRow& config,
                                const std::string& dataset, const std::string& failure_class,
                                const std::string& message) {
  check_failure(config, failure_class);
  try {
    Transaction tx(*conn_);
    insert_failure(run_id, config, dataset, failure_class, message);
    tx.commit();
  } catch (const BackendError& e) {
    fail("cannot record the failure of '" + config.key + "' (run " + std::to_string(run_id) +
         "): " + e.what());
  }
}

// Inside a write transaction: the config (when new) and one failure row.
void Repository::insert_failure(std::int64_t run_id, const ConfigRow& config,
                                const std::string& dataset, const std::string& failure_class,
                                const std::string& message) {
  const std::int64_t config_id = upsert_config(config);
  Statement q(*conn_,
              "INSERT INTO failures(config_id, run_id, dataset, failure_class, message) "
              "VALUES (?, ?, ?, ?, ?)");
  q.bind(1, config_id);
  q.bind(2, run_id);
  q.bind(3, dataset);
  q.bind(4, failure_class);
  q.bind(5, message);
  q.exec();
}

void Repository::record_workload(const WorkloadRow& w) {
  std::string objectives;
  for (const std::string& o : w.front_objectives) objectives += (objectives.empty() ? "" : " ") + o;
  try {
    Transaction tx(*conn_);
    Statement q(*conn_,
                "INSERT INTO workloads(name, work_unit, front_objectives) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET work_unit = excluded.work_unit, "
                "front_objectives = excluded.front_objectives");
    q.bind(1, w.name);
    q.bind(2, w.work_unit);
    q.bind(3, objectives);
    q.exec();
    Statement m(*conn_,
                "INSERT INTO metric_specs(workload, name, unit, minimize, description) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(workload, name) DO UPDATE SET "
                "unit = excluded.unit, minimize = excluded.minimize, "
                "description = excluded.description");
    for (const MetricSpecRow& spec : w.metrics) {
      m.bind(1, w.name);
      m.bind(2, spec.name);
      m.bind(3, spec.unit);
      m.bind(4, spec.minimize ? 1 : 0);
      m.bind(5, spec.doc);
      m.exec();
      m.reset();
    }
    tx.commit();
  } catch (const BackendError& e) {
    fail("cannot record workload '" + w.name + "': " + e.what());
  }
}

WorkloadRow Repository::workload(const std::string& name) const {
  WorkloadRow w;
  try {
    Statement q(*conn_, "SELECT work_unit, front_objectives FROM workloads WHERE name = ?");
    q.bind(1, name);
    if (!q.executeStep()) fail("workload '" + name + "' is not recorded in this database");
    w.name = name;
    w.work_unit = q.getColumn(0).getString();
    std::istringstream objectives(q.getColumn(1).getString());
    for (std::string o; objectives >> o;) w.front_objectives.push_back(o);
    Statement m(*conn_,
                "SELECT name, unit, minimize, description FROM metric_specs "
                "WHERE workload = ? ORDER BY " +
                    conn_->insertion_order("metric_specs"));
    m.bind(1, name);
    while (m.executeStep()) {
      MetricSpecRow spec;
      spec.name = m.getColumn(0).getString();
      spec.unit = m.getColumn(1).getString();
      spec.minimize = m.getColumn(2).getInt() != 0;
      spec.doc = m.getColumn(3).getString();
      w.metrics.push_back(std::move(spec));
    }
  } catch (const BackendError& e) {
    fail("cannot read workload '" + name + "': " + e.what());
  }
  return w;
}

std::vector<FailureRow> Repository::failures(const std::string& board) const {
  std::vector<FailureRow> out;
  try {
    Statement q(*conn_, std::string("SELECT ") + kConfigColumns +
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
  } catch (const BackendError& e) {
    fail(std::string("cannot read failures (") + e.what() + ")");
  }
  return out;
}

std::vector<PrunedRow> Repository::pruned(const std::string& board) const {
  std::vector<PrunedRow> out;
  try {
    Statement q(*conn_, std::string("SELECT ") + kConfigColumns +
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
  } catch (const BackendError& e) {
    fail(std::string("cannot read pruned configs (") + e.what() + ")");
  }
  return out;
}

std::vector<RunRow> Repository::runs(const std::string& board) const {
  std::vector<RunRow> out;
  try {
    Statement q(*conn_,
                "SELECT id, board, command, git_revision, host, gpu_name, "
                "driver_version, cuda_version, clocks_observed, dataset, started_at, "
                "coalesce(ended_at, ''), status, workload, coalesce(pid, 0), " +
                    std::string(version_ >= 3 ? "coalesce(planned_points, -1)" : "-1") +
                    " FROM runs "
                    "WHERE ?1 = '' OR board = ?1 ORDER BY id");
    q.bind(1, board);
    while (q.executeStep()) {
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
      out.push_back(std::move(r));
    }
  } catch (const BackendError& e) {
    fail(std::string("cannot read runs (") + e.what() + ")");
  }
  return out;
}

std::vector<std::string> Repository::boards() const {
  std::vector<std::string> out;
  try {
    Statement q(*conn_,
                "SELECT DISTINCT c.board FROM configs c "
                "JOIN measurements m ON m.config_id = c.id ORDER BY c.board");
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  } catch (const BackendError& e) {
    fail(std::string("cannot read boards (") + e.what() + ")");
  }
  return out;
}

std::vector<std::string> Repository::datasets(const std::string& board) const {
  std::vector<std::string> out;
  try {
    Statement q(*conn_,
                "SELECT m.dataset FROM measurements m JOIN configs c "
                "ON c.id = m.config_id WHERE c.board = ? GROUP BY m.dataset "
                "ORDER BY count(*) DESC, m.dataset");
    q.bind(1, board);
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  } catch (const BackendError& e) {
    fail(std::string("cannot read datasets (") + e.what() + ")");
  }
  return out;
}

}  // namespace flowtune::db
