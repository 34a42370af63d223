// Opening an SQLite file as a flowtune store: identify it, create or migrate its schema under
// the write lock (read-write), or check that its schema is readable (read-only).
#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "db/config_rows.hpp"
#include "db/schema.hpp"
#include "db/store.hpp"

namespace flowtune::db {

namespace {

// How long SQLite itself waits for another connection's write lock; beyond it the store's
// operations retry with backoff (Store::retrying, up to --store-retry-s) and say so.
constexpr int kBusyTimeoutMs = 5000;

// The first column of the first row of sql.
std::int64_t query_int(Connection& c, const std::string& sql) {
  Statement q(c, sql);
  q.executeStep();
  return q.getColumn(0).getInt64();
}

[[noreturn]] void fail_reading(const Store& store, const BackendError& e) {
  if (e.not_a_database) store.fail(std::string("not an SQLite database (") + e.what() + ")");
  store.fail(std::string("cannot read the database (") + e.what() + ")");
}

// Refuses a file of another application before anything is written into it.
void check_identity(const Store& store) {
  Connection& c = store.connection();
  std::int64_t n_objects = 0;
  std::int32_t application_id = 0;
  try {
    n_objects = query_int(c, "SELECT count(*) FROM sqlite_master");
    application_id = std::int32_t(query_int(c, "PRAGMA application_id"));
  } catch (const BackendError& e) {
    fail_reading(store, e);
  }
  if ((n_objects == 0 && application_id == 0) || application_id == kApplicationId) return;
  std::string tables;
  Statement q(c, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  while (q.executeStep()) tables += (tables.empty() ? "" : ", ") + q.getColumn(0).getString();
  store.fail("not a flowtune database (SQLite application_id " + std::to_string(application_id) +
             ", tables: " + (tables.empty() ? "none" : tables) + ")");
}

void insert_schema_version(Connection& c, int version, const char* description) {
  Statement ins(c, "INSERT INTO schema_version(version, description) VALUES (?, ?)");
  ins.bind(1, version);
  ins.bind(2, description);
  ins.exec();
}

// Inside the write transaction: a new file gets the current schema from its definition
// (with a schema_version row per migration, as if each had run); an older one runs the
// migrations it lacks.
void create_or_migrate(const Store& store, int current) {
  Connection& c = store.connection();
  if (current == 0) {
    c.exec_script(schema_sql(Dialect::sqlite));
    for (const Migration& m : migrations()) insert_schema_version(c, m.version, m.description);
    return;
  }
  for (const Migration& m : migrations()) {
    if (m.version <= current) continue;
    c.exec_script(m.sql);
    if (m.rekey) rekey_configs(c);
    insert_schema_version(c, m.version, m.description);
  }
}

// Whether the file is a flowtune store at kSchemaVersion in WAL mode already: then opening it
// takes no write lock (64 workers opening one file at once would queue for it).
bool up_to_date(const Store& store) {
  Connection& c = store.connection();
  return store.retrying("cannot read the schema version", [&] {
    if (std::int32_t(query_int(c, "PRAGMA application_id")) != kApplicationId) return false;
    if (query_int(c, "SELECT count(*) FROM sqlite_master WHERE name = 'schema_version'") == 0)
      return false;
    if (query_int(c, "SELECT coalesce(max(version), 0) FROM schema_version") != kSchemaVersion)
      return false;
    Statement mode(c, "PRAGMA journal_mode");
    return mode.executeStep() && mode.getColumn(0).getString() == "wal";
  });
}

// Brings the file to kSchemaVersion, stamped with kApplicationId, foreign keys checked.
void migrate(Store& store) {
  Connection& c = store.connection();
  if (up_to_date(store)) {
    c.exec_script("PRAGMA synchronous = FULL");
    c.exec_script("PRAGMA foreign_keys = ON");
    store.set_version(kSchemaVersion);
    return;
  }
  try {
    store.retrying("cannot initialise the flowtune schema", [&] {
      // Foreign keys stay off while migrations rebuild tables (SQLite's ALTER TABLE recipe);
      // they are checked and switched on afterwards.
      c.exec_script("PRAGMA foreign_keys = OFF");
      c.exec_script("PRAGMA synchronous = FULL");
      query_int(c, "PRAGMA journal_mode = WAL");  // answers the mode ("wal"), read and ignored

      // Migrate under a write lock so that two processes opening a new file do not race.
      Transaction tx(c);
      c.exec_script(schema_version_table_sql(Dialect::sqlite));
      const int current = int(query_int(c, "SELECT coalesce(max(version), 0) FROM schema_version"));
      if (current > kSchemaVersion) store.fail(newer_schema_problem(current));
      create_or_migrate(store, current);
      c.exec_script("PRAGMA application_id = " + std::to_string(kApplicationId));
      Statement fk(c, "PRAGMA foreign_key_check");
      if (fk.executeStep())
        store.fail("foreign key violation in table " + fk.getColumn(0).getString());
      tx.commit();
      c.exec_script("PRAGMA foreign_keys = ON");
    });
    store.set_version(kSchemaVersion);
  } catch (const std::invalid_argument& e) {
    store.fail(std::string("cannot migrate the configs (") + e.what() + ")");
  }
}

std::unique_ptr<Store> open_read_only(const std::string& path) {
  auto store = std::make_unique<Store>(path);
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) store->fail("no such database (check --db)");
  if (std::filesystem::is_directory(path, ec)) store->fail("is a directory, not a database");
  try {
    // In a folder this process cannot write, SQLite cannot create the -shm file that reading
    // a WAL database needs ("attempt to write a readonly database"); with no -wal file there
    // no writer can be at work, so the file is read as immutable.
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
    const bool folder_writable = ::access(folder.c_str(), W_OK) == 0;
    if (!folder_writable && !std::filesystem::exists(path + "-wal", ec))
      store->connect(sqlite_immutable_connection(path));
    else
      store->connect(sqlite_connection(path, true, kBusyTimeoutMs));
  } catch (const BackendError& e) {
    store->fail(std::string("cannot open the database read-only (") + e.what() + ")");
  }
  Connection& c = store->connection();
  int version = 0;
  std::int32_t application_id = 0;
  try {
    application_id = std::int32_t(query_int(c, "PRAGMA application_id"));
    if (application_id == kApplicationId)
      version = int(query_int(c, "SELECT coalesce(max(version), 0) FROM schema_version"));
  } catch (const BackendError& e) {
    fail_reading(*store, e);
  }
  if (application_id != kApplicationId)
    store->fail("not a flowtune database (SQLite application_id " + std::to_string(application_id) +
                ")");
  if (version > kSchemaVersion) store->fail(newer_schema_problem(version));
  store->set_version(version);
  if (version < kOldestReadableSchemaVersion)
    store->fail("schema version " + std::to_string(version) +
                " is older than this flowtune reads (" +
                std::to_string(kOldestReadableSchemaVersion) +
                "); open it once with `tune` (read-write) to migrate it");
  return store;
}

}  // namespace

std::unique_ptr<Store> open_sqlite_store(const std::string& path, OpenMode mode) {
  if (mode == OpenMode::read_only) return open_read_only(path);
  auto store = std::make_unique<Store>(path);
  try {
    store->connect(sqlite_connection(path, false, kBusyTimeoutMs));
  } catch (const BackendError& e) {
    store->fail(std::string("cannot open or create the database (") + e.what() +
                "); check that the directory exists and is writable");
  }
  if (store->connection().read_only()) store->fail("the database file is not writable");
  check_identity(*store);
  migrate(*store);
  return store;
}

}  // namespace flowtune::db
