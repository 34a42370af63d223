// The schema definition (db/schema_tables.cpp) rendered for each dialect
// (db/schema_render.cpp) is schema v3 as released: on PostgreSQL the same DDL as the
// reference text below (white space aside); on SQLite the same tables, columns, types,
// defaults, keys, checks, indexes and views as the released migrations v1 -> v2 -> v3 reach,
// for a new file and for a migrated one.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

#include "db/repository.hpp"
#include "db/schema.hpp"

namespace flowtune::db {
namespace {

namespace fs = std::filesystem;

// Schema v6 on PostgreSQL as released (v3, the item_images table of v4, the kernel_binaries
// table of v5 and the coordinators table of v6): the reference for the rendered DDL.
#define PG_NOW "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"

constexpr const char* kPostgresqlV6 = R"sql(
CREATE TABLE runs (
  id              BIGSERIAL PRIMARY KEY,
  board           TEXT NOT NULL,
  workload        TEXT NOT NULL,
  command         TEXT NOT NULL DEFAULT '',
  git_revision    TEXT NOT NULL DEFAULT '',
  host            TEXT NOT NULL DEFAULT '',
  pid             BIGINT,
  gpu_name        TEXT NOT NULL DEFAULT '',
  driver_version  TEXT NOT NULL DEFAULT '',
  cuda_version    TEXT NOT NULL DEFAULT '',
  clocks_observed TEXT NOT NULL DEFAULT '',
  dataset         TEXT NOT NULL DEFAULT '',
  started_at      TEXT NOT NULL DEFAULT )sql" PG_NOW R"sql(,
  ended_at        TEXT,
  status          TEXT NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'done', 'failed', 'interrupted', 'aborted')),
  planned_points  BIGINT
);
CREATE INDEX runs_board ON runs(board);

CREATE TABLE workloads (
  name             TEXT PRIMARY KEY,
  work_unit        TEXT NOT NULL,
  front_objectives TEXT NOT NULL DEFAULT ''
);
CREATE TABLE metric_specs (
  workload    TEXT NOT NULL REFERENCES workloads(name),
  name        TEXT NOT NULL,
  unit        TEXT NOT NULL DEFAULT '',
  minimize    INTEGER NOT NULL DEFAULT 1,
  description TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (workload, name)
);

CREATE TABLE configs (
  id            BIGSERIAL PRIMARY KEY,
  board         TEXT NOT NULL,
  config_key    TEXT NOT NULL,
  label         TEXT NOT NULL DEFAULT '',
  workload      TEXT NOT NULL,
  variant       TEXT NOT NULL,
  precision     TEXT NOT NULL,
  tunables_json TEXT NOT NULL DEFAULT '{}',
  clock_mhz     INTEGER NOT NULL DEFAULT 0,
  params_json   TEXT NOT NULL DEFAULT '{}',
  UNIQUE (board, config_key)
);
CREATE INDEX configs_workload ON configs(workload);

CREATE TABLE measurements (
  id                 BIGSERIAL PRIMARY KEY,
  config_id          BIGINT NOT NULL REFERENCES configs(id),
  run_id             BIGINT NOT NULL REFERENCES runs(id),
  dataset            TEXT NOT NULL,
  measured_at        TEXT NOT NULL DEFAULT )sql" PG_NOW R"sql(,
  time_ms_median     DOUBLE PRECISION NOT NULL,
  time_ms_min        DOUBLE PRECISION NOT NULL,
  time_ms_max        DOUBLE PRECISION NOT NULL,
  n_repeats          INTEGER NOT NULL,
  ns_per_unit        DOUBLE PRECISION NOT NULL,
  energy_mj          DOUBLE PRECISION,
  nj_per_unit        DOUBLE PRECISION,
  power_w            DOUBLE PRECISION,
  clock_mhz_observed INTEGER,
  resources_json     TEXT NOT NULL DEFAULT '',
  UNIQUE (config_id, dataset)
);
CREATE INDEX measurements_run ON measurements(run_id);

CREATE TABLE metrics (
  measurement_id BIGINT NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  item           TEXT NOT NULL DEFAULT '',
  name           TEXT NOT NULL,
  value          DOUBLE PRECISION,
  PRIMARY KEY (measurement_id, item, name)
);

CREATE TABLE item_results (
  measurement_id BIGINT NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  item           TEXT NOT NULL,
  time_ms        DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (measurement_id, item)
);

CREATE TABLE failures (
  id            BIGSERIAL PRIMARY KEY,
  config_id     BIGINT NOT NULL REFERENCES configs(id),
  run_id        BIGINT NOT NULL REFERENCES runs(id),
  dataset       TEXT NOT NULL,
  failure_class TEXT NOT NULL CHECK (failure_class IN
                  ('compile', 'launch', 'runtime', 'timeout', 'accuracy', 'environment')),
  message       TEXT NOT NULL,
  failed_at     TEXT NOT NULL DEFAULT )sql" PG_NOW R"sql(
);
CREATE INDEX failures_config ON failures(config_id, dataset);

CREATE TABLE pruned (
  id        BIGSERIAL PRIMARY KEY,
  config_id BIGINT NOT NULL UNIQUE REFERENCES configs(id),
  run_id    BIGINT NOT NULL REFERENCES runs(id),
  reason    TEXT NOT NULL,
  pruned_at TEXT NOT NULL DEFAULT )sql" PG_NOW R"sql(
);

CREATE TABLE workers (
  id          BIGSERIAL PRIMARY KEY,
  run_id      BIGINT NOT NULL REFERENCES runs(id),
  host        TEXT NOT NULL DEFAULT '',
  pid         BIGINT NOT NULL DEFAULT 0,
  gpu         TEXT NOT NULL DEFAULT '',
  started_s   DOUBLE PRECISION NOT NULL,
  heartbeat_s DOUBLE PRECISION NOT NULL,
  status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'exited'))
);
CREATE INDEX workers_run ON workers(run_id);

CREATE TABLE tasks (
  id             BIGSERIAL PRIMARY KEY,
  run_id         BIGINT NOT NULL REFERENCES runs(id),
  config_key     TEXT NOT NULL,
  request_json   TEXT NOT NULL,
  state          TEXT NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'claimed', 'done', 'failed', 'cancelled')),
  worker_id      BIGINT REFERENCES workers(id),
  attempts       INTEGER NOT NULL DEFAULT 0,
  published_s    DOUBLE PRECISION NOT NULL,
  claimed_s      DOUBLE PRECISION,
  lease_until_s  DOUBLE PRECISION,
  finished_s     DOUBLE PRECISION,
  UNIQUE (run_id, config_key)
);
CREATE INDEX tasks_run_state ON tasks(run_id, state);

CREATE TABLE item_images (
  measurement_id BIGINT NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  item           TEXT NOT NULL,
  kind           TEXT NOT NULL,
  width          INTEGER NOT NULL,
  height         INTEGER NOT NULL,
  scale          DOUBLE PRECISION NOT NULL DEFAULT 0,
  png_base64     TEXT NOT NULL,
  PRIMARY KEY (measurement_id, item, kind)
);

CREATE TABLE kernel_binaries (
  cache_key      TEXT PRIMARY KEY,
  arch           TEXT NOT NULL,
  nvrtc_version  TEXT NOT NULL,
  size_bytes     BIGINT NOT NULL,
  hash           TEXT NOT NULL,
  binary_base64  TEXT NOT NULL,
  log            TEXT NOT NULL,
  host           TEXT NOT NULL DEFAULT '',
  created_s      DOUBLE PRECISION NOT NULL
);

CREATE TABLE coordinators (
  run_id        BIGINT PRIMARY KEY REFERENCES runs(id),
  host          TEXT NOT NULL DEFAULT '',
  pid           BIGINT NOT NULL DEFAULT 0,
  since_s       DOUBLE PRECISION NOT NULL,
  lease_until_s DOUBLE PRECISION NOT NULL
);

CREATE VIEW results AS
  SELECT m.id AS measurement_id, c.board, c.workload, m.dataset, c.label, c.variant,
         c.precision, c.tunables_json, c.params_json, c.clock_mhz,
         m.time_ms_median AS time_ms, m.ns_per_unit, m.energy_mj, m.power_w,
         (SELECT json_object_agg(x.name, x.value) FROM metrics x
          WHERE x.measurement_id = m.id AND x.item = '')::text AS metrics_json,
         m.run_id, m.measured_at, c.config_key
  FROM measurements m JOIN configs c ON c.id = m.config_id;

CREATE VIEW result_values AS
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'param' AS kind,
         j.key AS name, j.value::double precision AS value
  FROM results r, json_each_text(r.params_json::json) j
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'tunable', j.key,
         j.value::double precision
  FROM results r, json_each_text(r.tunables_json::json) j
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'metric', x.name, x.value
  FROM results r JOIN metrics x ON x.measurement_id = r.measurement_id AND x.item = ''
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'measure', 'time_ms', r.time_ms
  FROM results r
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'measure', 'energy_mj',
         r.energy_mj
  FROM results r WHERE r.energy_mj IS NOT NULL;
)sql";

constexpr const char* kPostgresqlVersionTable = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (
  version     INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at  TEXT NOT NULL DEFAULT )sql" PG_NOW R"sql(
);
)sql";

#undef PG_NOW

// The schema_version table of SQLite files as released.
constexpr const char* kSqliteVersionTable = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (
  version     INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
)sql";

// SQL with every run of white space made one space, none after '(' or before ')' and ','.
std::string normalized(const std::string& sql) {
  std::string out;
  for (char c : sql) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ' && out.back() != '(') out += ' ';
      continue;
    }
    if ((c == ')' || c == ',' || c == ';') && !out.empty() && out.back() == ' ') out.pop_back();
    out += c;
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

// The CHECK (...) clauses of a CREATE TABLE statement, normalized and sorted.
std::vector<std::string> checks(const std::string& sql) {
  std::vector<std::string> out;
  for (std::size_t at = sql.find("CHECK"); at != std::string::npos;
       at = sql.find("CHECK", at + 1)) {
    std::size_t i = sql.find('(', at);
    int depth = 0;
    std::size_t end = i;
    for (; end < sql.size(); ++end) {
      depth += sql[end] == '(' ? 1 : sql[end] == ')' ? -1 : 0;
      if (depth == 0) break;
    }
    out.push_back(normalized(sql.substr(at, end + 1 - at)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<std::string> rows(SQLite::Database& db, const std::string& sql) {
  std::vector<std::string> out;
  SQLite::Statement q(db, sql);
  while (q.executeStep()) {
    std::string row;
    for (int i = 0; i < q.getColumnCount(); ++i)
      row += (i ? "|" : "") + (q.getColumn(i).isNull() ? "NULL" : q.getColumn(i).getString());
    out.push_back(row);
  }
  return out;
}

// A text that lists everything of the schema of db that SQLite knows, independent of how the
// DDL was written: per table its columns (name, type, NOT NULL, default, primary key), foreign
// keys, checks, and indexes (named ones by name, those of UNIQUE and PRIMARY KEY constraints
// by their columns); per view its columns and its normalized SELECT.
std::string describe(SQLite::Database& db) {
  std::ostringstream out;
  SQLite::Statement objects(db,
                            "SELECT type, name, sql FROM sqlite_master WHERE type IN "
                            "('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY type, name");
  while (objects.executeStep()) {
    const std::string type = objects.getColumn(0).getString();
    const std::string name = objects.getColumn(1).getString();
    const std::string sql = objects.getColumn(2).getString();
    out << type << " " << name << "\n";
    for (const std::string& c :
         rows(db, "SELECT cid, name, type, \"notnull\", dflt_value, pk FROM pragma_table_info('" +
                      name + "')"))
      out << "  column " << c << "\n";
    if (type == "view") {
      out << "  select " << normalized(sql.substr(sql.find(" AS") + 3)) << "\n";
      continue;
    }
    std::vector<std::string> fks =
        rows(db,
             "SELECT \"table\", \"from\", \"to\", on_update, on_delete, match FROM "
             "pragma_foreign_key_list('" +
                 name + "')");
    std::sort(fks.begin(), fks.end());
    for (const std::string& fk : fks) out << "  foreign key " << fk << "\n";
    for (const std::string& check : checks(sql)) out << "  " << check << "\n";
    std::vector<std::string> indexes;
    SQLite::Statement list(
        db, "SELECT name, \"unique\", origin, partial FROM pragma_index_list('" + name + "')");
    while (list.executeStep()) {
      const std::string index = list.getColumn(0).getString();
      const std::string origin = list.getColumn(2).getString();
      std::string columns;
      for (const std::string& c :
           rows(db, "SELECT name FROM pragma_index_info('" + index + "') ORDER BY seqno"))
        columns += c + ",";
      indexes.push_back((origin == "c" ? index : origin) +
                        " unique=" + list.getColumn(1).getString() +
                        " partial=" + list.getColumn(3).getString() + " (" + columns + ")");
    }
    std::sort(indexes.begin(), indexes.end());
    for (const std::string& index : indexes) out << "  index " << index << "\n";
  }
  return out.str();
}

class SchemaTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_schema_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A file at kSchemaVersion built by the released migrations alone, as a v3 release did.
  std::string migrated_file() {
    const std::string path = (dir_ / "migrated.db").string();
    SQLite::Database raw(path, SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
    raw.exec(kSqliteVersionTable);
    for (const Migration& m : migrations()) raw.exec(m.sql);
    return path;
  }

  fs::path dir_;
};

TEST(SchemaRender, PostgresqlDdlIsTheReleasedV5Ddl) {
  EXPECT_EQ(normalized(schema_sql(Dialect::postgresql)), normalized(kPostgresqlV6));
  EXPECT_EQ(normalized(schema_version_table_sql(Dialect::postgresql)),
            normalized(kPostgresqlVersionTable));
}

TEST(SchemaRender, SqliteVersionTableIsTheReleasedOne) {
  EXPECT_EQ(normalized(schema_version_table_sql(Dialect::sqlite)), normalized(kSqliteVersionTable));
}

TEST(SchemaRender, TypesAndTokensFollowTheDialect) {
  const std::string sqlite = schema_sql(Dialect::sqlite);
  const std::string pg = schema_sql(Dialect::postgresql);
  EXPECT_EQ(sqlite.find('$'), std::string::npos);
  EXPECT_EQ(pg.find('$'), std::string::npos);
  for (const char* absent : {"BIGSERIAL", "BIGINT", "DOUBLE PRECISION", "json_object_agg", "::"})
    EXPECT_EQ(sqlite.find(absent), std::string::npos) << absent;
  for (const char* absent : {"json_group_object", "strftime", " REAL"})
    EXPECT_EQ(pg.find(absent), std::string::npos) << absent;
  EXPECT_NE(
      normalized(sqlite).find("CREATE TABLE runs (id INTEGER PRIMARY KEY, board TEXT NOT NULL,"),
      std::string::npos);
  EXPECT_THROW(render_schema_text("SELECT $nope", Dialect::sqlite), std::logic_error);
}

// The definition and the migrations must agree: a new file (created from the definition) and
// a file that ran every migration have the same schema.
TEST_F(SchemaTest, SqliteDdlIsTheSchemaTheMigrationsReach) {
  SQLite::Database migrated(migrated_file(), SQLite::OPEN_READONLY);
  SQLite::Database rendered((dir_ / "rendered.db").string(),
                            SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
  rendered.exec(schema_version_table_sql(Dialect::sqlite));
  rendered.exec(schema_sql(Dialect::sqlite));
  const std::string expected = describe(migrated);
  EXPECT_NE(expected.find("table tasks"), std::string::npos);
  EXPECT_NE(expected.find("table item_images"), std::string::npos);
  EXPECT_NE(expected.find("table kernel_binaries"), std::string::npos);
  EXPECT_NE(expected.find("table coordinators"), std::string::npos);
  EXPECT_EQ(describe(rendered), expected);
}

// What Repository writes: a new file has the migrations' schema and a schema_version row per
// migration, as when it was built by running them; so has the v1 release's file once opened.
TEST_F(SchemaTest, NewAndMigratedFilesHaveTheSameSchemaAndVersionRows) {
  const std::string fresh = (dir_ / "fresh.db").string();
  const std::string v1 = (dir_ / "v1.db").string();
  fs::copy_file(fs::path(FLOWTUNE_TEST_SOURCE_DIR) / "tests/db/fixtures/v1_flowtune.db", v1);
  { Repository repo(fresh); }
  { Repository repo(v1); }
  SQLite::Database migrated(migrated_file(), SQLite::OPEN_READONLY);
  SQLite::Database fresh_db(fresh, SQLite::OPEN_READONLY);
  SQLite::Database v1_db(v1, SQLite::OPEN_READONLY);
  EXPECT_EQ(describe(fresh_db), describe(migrated));
  EXPECT_EQ(describe(v1_db), describe(migrated));
  const std::string versions = "SELECT version, description FROM schema_version ORDER BY version";
  std::vector<std::string> expected;
  for (const Migration& m : migrations())
    expected.push_back(std::to_string(m.version) + "|" + m.description);
  EXPECT_EQ(rows(fresh_db, versions), expected);
  EXPECT_EQ(rows(v1_db, versions), expected);
}

// The PostgreSQL steps v3 -> v4 and v5 -> v6 add exactly the tables the SQLite migrations add.
TEST(SchemaRender, AdditivePostgresqlStepsAreTheItemImagesAndCoordinatorsTables) {
  const std::vector<TableDef> v4 = additive_tables_of_version(4);
  ASSERT_EQ(v4.size(), 1u);
  EXPECT_EQ(std::string(v4[0].name), "item_images");
  const std::vector<TableDef> v6 = additive_tables_of_version(6);
  ASSERT_EQ(v6.size(), 1u);
  EXPECT_EQ(std::string(v6[0].name), "coordinators");
  EXPECT_TRUE(additive_tables_of_version(3).empty());  // v3 changed runs: no additive step
  for (const TableDef& t : {v4[0], v6[0]})
    EXPECT_NE(normalized(schema_sql(Dialect::postgresql))
                  .find(normalized(table_sql(t, Dialect::postgresql))),
              std::string::npos);
}

// The PostgreSQL step v4 -> v5 adds exactly the table the SQLite migration adds.
TEST(SchemaRender, AdditivePostgresqlStepV5IsTheKernelBinariesTable) {
  const std::vector<TableDef> v5 = additive_tables_of_version(5);
  ASSERT_EQ(v5.size(), 1u);
  EXPECT_EQ(std::string(v5[0].name), "kernel_binaries");
  EXPECT_NE(normalized(schema_sql(Dialect::postgresql))
                .find(normalized(table_sql(v5[0], Dialect::postgresql))),
            std::string::npos);
}

// Every table and column of the definition is in a new file, in the defined order.
TEST_F(SchemaTest, NewFileHasEveryDefinedColumnInOrder) {
  const std::string path = (dir_ / "fresh.db").string();
  { Repository repo(path); }
  SQLite::Database db(path, SQLite::OPEN_READONLY);
  std::vector<TableDef> tables = schema_tables();
  tables.push_back(schema_version_table());
  for (const TableDef& table : tables) {
    std::vector<std::string> defined;
    for (const ColumnDef& c : table.columns) defined.push_back(c.name);
    EXPECT_EQ(rows(db, std::string("SELECT name FROM pragma_table_info('") + table.name + "')"),
              defined)
        << table.name;
  }
}

}  // namespace
}  // namespace flowtune::db
