// Schema v1 of the flowtune database; the meaning and units of every column are in
// db/SCHEMA.md (keep both in sync).
#include "db/schema.hpp"

namespace flowtune::db {

namespace {

// Timestamps are ISO 8601 UTC text with milliseconds, e.g. 2024-05-01T12:00:00.123Z.
#define FLOWTUNE_NOW "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE runs (
  id              INTEGER PRIMARY KEY,
  board           TEXT NOT NULL,
  command         TEXT NOT NULL DEFAULT '',
  git_revision    TEXT NOT NULL DEFAULT '',
  host            TEXT NOT NULL DEFAULT '',
  gpu_name        TEXT NOT NULL DEFAULT '',
  driver_version  TEXT NOT NULL DEFAULT '',
  cuda_version    TEXT NOT NULL DEFAULT '',
  clocks_observed TEXT NOT NULL DEFAULT '',
  dataset         TEXT NOT NULL DEFAULT '',
  started_at      TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(,
  ended_at        TEXT,
  status          TEXT NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'done', 'failed', 'interrupted'))
);
CREATE INDEX runs_board ON runs(board);

CREATE TABLE configs (
  id            INTEGER PRIMARY KEY,
  board         TEXT NOT NULL,
  config_key    TEXT NOT NULL,
  label         TEXT NOT NULL DEFAULT '',
  variant       TEXT NOT NULL,
  precision     TEXT NOT NULL,
  tunables_json TEXT NOT NULL DEFAULT '{}',
  clock_mhz     INTEGER NOT NULL DEFAULT 0,
  iterations    INTEGER NOT NULL,
  n_scales      INTEGER NOT NULL,
  n_warpings    INTEGER NOT NULL,
  zoom          REAL NOT NULL,
  epsilon       REAL NOT NULL,
  tau           REAL NOT NULL,
  lambda        REAL NOT NULL,
  theta         REAL NOT NULL,
  UNIQUE (board, config_key)
);

CREATE TABLE measurements (
  id                 INTEGER PRIMARY KEY,
  config_id          INTEGER NOT NULL REFERENCES configs(id),
  run_id             INTEGER NOT NULL REFERENCES runs(id),
  dataset            TEXT NOT NULL,
  measured_at        TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(,
  time_ms_median     REAL NOT NULL,
  time_ms_min        REAL NOT NULL,
  time_ms_max        REAL NOT NULL,
  n_repeats          INTEGER NOT NULL,
  ns_per_px          REAL NOT NULL,
  energy_mj          REAL,
  nj_per_px          REAL,
  power_w            REAL,
  clock_mhz_observed INTEGER,
  aepe               REAL,
  aae_deg            REAL,
  resources_json     TEXT NOT NULL DEFAULT '',
  UNIQUE (config_id, dataset)
);
CREATE INDEX measurements_run ON measurements(run_id);

CREATE TABLE sequence_results (
  measurement_id INTEGER NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  sequence       TEXT NOT NULL,
  time_ms        REAL NOT NULL,
  aepe           REAL,
  aae_deg        REAL,
  PRIMARY KEY (measurement_id, sequence)
);

CREATE TABLE pruned (
  id        INTEGER PRIMARY KEY,
  config_id INTEGER NOT NULL UNIQUE REFERENCES configs(id),
  run_id    INTEGER NOT NULL REFERENCES runs(id),
  reason    TEXT NOT NULL,
  pruned_at TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(
);
)sql";

constexpr const char* kSchemaVersionTable = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (
  version     INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at  TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(
);
)sql";

#undef FLOWTUNE_NOW

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> kMigrations = {
      {1, "runs, configs, measurements, sequence_results, pruned", kSchemaV1},
  };
  return kMigrations;
}

const char* schema_version_table_sql() {
  return kSchemaVersionTable;
}

}  // namespace flowtune::db
