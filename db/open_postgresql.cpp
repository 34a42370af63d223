// Opening a PostgreSQL database as a flowtune store: a new (empty) database gets the current
// schema from its definition under an advisory lock; a read-only open checks the version.
#include "db/schema.hpp"
#include "db/store.hpp"
#include "db/store_url.hpp"

namespace flowtune::db {

namespace {

void check_readable(Store& store) {
  Connection& c = store.connection();
  c.exec_script("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
  Statement t(c, "SELECT to_regclass('schema_version') IS NOT NULL");
  t.executeStep();
  if (t.getColumn(0).getString() != "t")
    store.fail("not a flowtune database (no schema_version table)");
  store.set_version(store.read_schema_version());
  const int version = store.version();
  if (version > kSchemaVersion) store.fail(newer_schema_problem(version));
  if (version < kSchemaVersion)
    store.fail("schema version " + std::to_string(version) + " is older than this flowtune's (" +
               std::to_string(kSchemaVersion) + "); open it once with `tune` to migrate it");
}

// One process creates the schema; the others wait on the advisory lock.
void create_if_new(Store& store) {
  Connection& c = store.connection();
  Transaction tx(c);
  c.exec_script("SELECT pg_advisory_xact_lock(" + std::to_string(kApplicationId) + ")");
  Statement tables(c,
                   "SELECT count(*) FROM information_schema.tables "
                   "WHERE table_schema = current_schema() AND table_name <> 'schema_version'");
  tables.executeStep();
  const std::int64_t n_tables = tables.getColumn(0).getInt64();
  c.exec_script(schema_version_table_sql(Dialect::postgresql));
  const int current = store.read_schema_version();
  if (current > kSchemaVersion) store.fail(newer_schema_problem(current));
  if (current == 0) {
    if (n_tables > 0)
      store.fail(
          "not a flowtune database (it has tables but no schema_version); use an empty "
          "database");
    c.exec_script(schema_sql(Dialect::postgresql));
    Statement ins(c, "INSERT INTO schema_version(version, description) VALUES (?, ?)");
    ins.bind(1, kSchemaVersion);
    ins.bind(2, "created at this version (PostgreSQL)");
    ins.exec();
  } else if (current < kSchemaVersion) {
    // Only additive steps (new tables) have a PostgreSQL migration.
    for (int v = current + 1; v <= kSchemaVersion; ++v) {
      const std::vector<TableDef> added = additive_tables_of_version(v);
      if (added.empty())
        store.fail("schema version " + std::to_string(current) +
                   " has no PostgreSQL migration in this flowtune");
      for (const TableDef& t : added) c.exec_script(table_sql(t, Dialect::postgresql, true));
      Statement ins(c, "INSERT INTO schema_version(version, description) VALUES (?, ?)");
      ins.bind(1, v);
      ins.bind(2, std::string("additive migration (PostgreSQL): ") + added.front().name);
      ins.exec();
    }
  }
  tx.commit();
  store.set_version(kSchemaVersion);
}

}  // namespace

std::unique_ptr<Store> open_postgresql_store(const std::string& url, OpenMode mode) {
  auto store = std::make_unique<Store>(redact_store_url(url));
  try {
    store->connect(postgresql_connection(url));
  } catch (const BackendError& e) {
    store->fail(e.what());
  }
  try {
    if (mode == OpenMode::read_only) {
      check_readable(*store);
    } else {
      create_if_new(*store);
    }
  } catch (const BackendError& e) {
    store->fail(std::string("cannot initialise the flowtune schema (") + e.what() + ")");
  }
  return store;
}

}  // namespace flowtune::db
