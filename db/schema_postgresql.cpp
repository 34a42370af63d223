// The schema on PostgreSQL: the current version (3) of db/schema.cpp's SQLite schema in
// PostgreSQL's types (BIGSERIAL ids, DOUBLE PRECISION for REAL, json functions in the
// views). Column meanings and units are in db/SCHEMA.md. A PostgreSQL store is created at
// version 3; later versions append a migration for both back-ends.
#include "db/schema.hpp"

namespace flowtune::db {

namespace {

#define FLOWTUNE_PG_NOW "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"

constexpr const char* kSchemaPostgresql = R"sql(
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
  started_at      TEXT NOT NULL DEFAULT )sql" FLOWTUNE_PG_NOW R"sql(,
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
  measured_at        TEXT NOT NULL DEFAULT )sql" FLOWTUNE_PG_NOW R"sql(,
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
  failed_at     TEXT NOT NULL DEFAULT )sql" FLOWTUNE_PG_NOW R"sql(
);
CREATE INDEX failures_config ON failures(config_id, dataset);

CREATE TABLE pruned (
  id        BIGSERIAL PRIMARY KEY,
  config_id BIGINT NOT NULL UNIQUE REFERENCES configs(id),
  run_id    BIGINT NOT NULL REFERENCES runs(id),
  reason    TEXT NOT NULL,
  pruned_at TEXT NOT NULL DEFAULT )sql" FLOWTUNE_PG_NOW R"sql(
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

constexpr const char* kSchemaVersionTablePostgresql = R"sql(
CREATE TABLE IF NOT EXISTS schema_version (
  version     INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  applied_at  TEXT NOT NULL DEFAULT )sql" FLOWTUNE_PG_NOW R"sql(
);
)sql";

#undef FLOWTUNE_PG_NOW

}  // namespace

const char* postgresql_schema_sql() {
  return kSchemaPostgresql;
}

const char* postgresql_schema_version_table_sql() {
  return kSchemaVersionTablePostgresql;
}

}  // namespace flowtune::db
