// The history of the SQLite schema: migrations 1 to 5, each the released SQL that takes a
// file from the previous version to its own. The current version is defined once for both
// dialects in db/schema_tables.cpp; these steps must lead to it (tests/db/test_schema.cpp).
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

// v2: workload-generic configs and results (parameters as JSON, a metrics table, failures,
// the workloads' metric specs, views). v1 rows are TV-L1 configs: their parameters move into
// params_json (presmoothing_sigma, fixed at 0.8 in v1, becomes explicit), aepe/aae_deg move
// into metrics, sequence_results into item_results. The config keys are recomputed by the
// repository after this SQL (Migration::rekey). Foreign keys are off during migrations.
// runs gains workload, pid (to tell a dead run from a live one) and the status 'aborted'
// (v1 runs left 'running' by a killed process become 'aborted').
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE runs_v2 (
  id              INTEGER PRIMARY KEY,
  board           TEXT NOT NULL,
  workload        TEXT NOT NULL,
  command         TEXT NOT NULL DEFAULT '',
  git_revision    TEXT NOT NULL DEFAULT '',
  host            TEXT NOT NULL DEFAULT '',
  pid             INTEGER,
  gpu_name        TEXT NOT NULL DEFAULT '',
  driver_version  TEXT NOT NULL DEFAULT '',
  cuda_version    TEXT NOT NULL DEFAULT '',
  clocks_observed TEXT NOT NULL DEFAULT '',
  dataset         TEXT NOT NULL DEFAULT '',
  started_at      TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(,
  ended_at        TEXT,
  status          TEXT NOT NULL DEFAULT 'running'
                  CHECK (status IN ('running', 'done', 'failed', 'interrupted', 'aborted'))
);
INSERT INTO runs_v2(id, board, workload, command, git_revision, host, pid, gpu_name,
                    driver_version, cuda_version, clocks_observed, dataset, started_at,
                    ended_at, status)
  SELECT id, board, 'tvl1', command, git_revision, host, NULL, gpu_name, driver_version,
         cuda_version, clocks_observed, dataset, started_at, ended_at,
         CASE status WHEN 'running' THEN 'aborted' ELSE status END
  FROM runs;
DROP TABLE runs;
ALTER TABLE runs_v2 RENAME TO runs;
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
INSERT INTO workloads(name, work_unit, front_objectives)
  SELECT 'tvl1', 'px', 'time_ms aepe' WHERE EXISTS (SELECT 1 FROM configs);
INSERT INTO metric_specs(workload, name, unit, minimize, description)
  SELECT 'tvl1', 'aepe', 'px', 1, 'average endpoint error vs ground truth (Baker et al. 2011)'
  WHERE EXISTS (SELECT 1 FROM configs)
  UNION ALL
  SELECT 'tvl1', 'aae_deg', 'deg', 1, 'average angular error vs ground truth (Baker et al. 2011)'
  WHERE EXISTS (SELECT 1 FROM configs);

CREATE TABLE configs_v2 (
  id            INTEGER PRIMARY KEY,
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
INSERT INTO configs_v2(id, board, config_key, label, workload, variant, precision, tunables_json,
                       clock_mhz, params_json)
  SELECT id, board, config_key, label, 'tvl1', variant, precision, tunables_json, clock_mhz,
         json_object('epsilon', epsilon, 'iterations', iterations, 'lambda', lambda,
                     'n_scales', n_scales, 'n_warpings', n_warpings, 'presmoothing_sigma', 0.8,
                     'tau', tau, 'theta', theta, 'zoom', zoom)
  FROM configs;

CREATE TABLE measurements_v2 (
  id                 INTEGER PRIMARY KEY,
  config_id          INTEGER NOT NULL REFERENCES configs(id),
  run_id             INTEGER NOT NULL REFERENCES runs(id),
  dataset            TEXT NOT NULL,
  measured_at        TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(,
  time_ms_median     REAL NOT NULL,
  time_ms_min        REAL NOT NULL,
  time_ms_max        REAL NOT NULL,
  n_repeats          INTEGER NOT NULL,
  ns_per_unit        REAL NOT NULL,
  energy_mj          REAL,
  nj_per_unit        REAL,
  power_w            REAL,
  clock_mhz_observed INTEGER,
  resources_json     TEXT NOT NULL DEFAULT '',
  UNIQUE (config_id, dataset)
);
INSERT INTO measurements_v2(id, config_id, run_id, dataset, measured_at, time_ms_median,
                            time_ms_min, time_ms_max, n_repeats, ns_per_unit, energy_mj,
                            nj_per_unit, power_w, clock_mhz_observed, resources_json)
  SELECT id, config_id, run_id, dataset, measured_at, time_ms_median, time_ms_min, time_ms_max,
         n_repeats, ns_per_px, energy_mj, nj_per_px, power_w, clock_mhz_observed, resources_json
  FROM measurements;

CREATE TABLE metrics (
  measurement_id INTEGER NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  item           TEXT NOT NULL DEFAULT '',
  name           TEXT NOT NULL,
  value          REAL,
  PRIMARY KEY (measurement_id, item, name)
);
INSERT INTO metrics(measurement_id, item, name, value)
  SELECT id, '', 'aepe', aepe FROM measurements
  UNION ALL SELECT id, '', 'aae_deg', aae_deg FROM measurements
  UNION ALL SELECT measurement_id, sequence, 'aepe', aepe FROM sequence_results
  UNION ALL SELECT measurement_id, sequence, 'aae_deg', aae_deg FROM sequence_results;

CREATE TABLE item_results (
  measurement_id INTEGER NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  item           TEXT NOT NULL,
  time_ms        REAL NOT NULL,
  PRIMARY KEY (measurement_id, item)
);
INSERT INTO item_results(measurement_id, item, time_ms)
  SELECT measurement_id, sequence, time_ms FROM sequence_results ORDER BY rowid;

DROP TABLE sequence_results;
DROP TABLE measurements;
ALTER TABLE measurements_v2 RENAME TO measurements;
CREATE INDEX measurements_run ON measurements(run_id);
DROP TABLE configs;
ALTER TABLE configs_v2 RENAME TO configs;
CREATE INDEX configs_workload ON configs(workload);

CREATE TABLE failures (
  id            INTEGER PRIMARY KEY,
  config_id     INTEGER NOT NULL REFERENCES configs(id),
  run_id        INTEGER NOT NULL REFERENCES runs(id),
  dataset       TEXT NOT NULL,
  failure_class TEXT NOT NULL CHECK (failure_class IN
                  ('compile', 'launch', 'runtime', 'timeout', 'accuracy', 'environment')),
  message       TEXT NOT NULL,
  failed_at     TEXT NOT NULL DEFAULT )sql" FLOWTUNE_NOW R"sql(
);
CREATE INDEX failures_config ON failures(config_id, dataset);

CREATE VIEW results AS
  SELECT m.id AS measurement_id, c.board, c.workload, m.dataset, c.label, c.variant,
         c.precision, c.tunables_json, c.params_json, c.clock_mhz,
         m.time_ms_median AS time_ms, m.ns_per_unit, m.energy_mj, m.power_w,
         (SELECT json_group_object(x.name, x.value) FROM metrics x
          WHERE x.measurement_id = m.id AND x.item = '') AS metrics_json,
         m.run_id, m.measured_at, c.config_key
  FROM measurements m JOIN configs c ON c.id = m.config_id;

CREATE VIEW result_values AS
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'param' AS kind,
         j.key AS name, j.value AS value
  FROM results r, json_each(r.params_json) j
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'tunable', j.key, j.value
  FROM results r, json_each(r.tunables_json) j
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

// v3: distributed tuning (ARCHITECTURE.md). The coordinator of a run publishes the
// points it wants measured as tasks; workers register, claim a task with a lease, renew it
// by heartbeats while they measure, and finish it together with its measurement or failure
// in one transaction. Times used in lease arithmetic are Unix seconds (REAL, *_s).
constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE runs ADD COLUMN planned_points INTEGER;
CREATE TABLE workers (
  id          INTEGER PRIMARY KEY,
  run_id      INTEGER NOT NULL REFERENCES runs(id),
  host        TEXT NOT NULL DEFAULT '',
  pid         INTEGER NOT NULL DEFAULT 0,
  gpu         TEXT NOT NULL DEFAULT '',
  started_s   REAL NOT NULL,
  heartbeat_s REAL NOT NULL,
  status      TEXT NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'exited'))
);
CREATE INDEX workers_run ON workers(run_id);

CREATE TABLE tasks (
  id             INTEGER PRIMARY KEY,
  run_id         INTEGER NOT NULL REFERENCES runs(id),
  config_key     TEXT NOT NULL,
  request_json   TEXT NOT NULL,
  state          TEXT NOT NULL DEFAULT 'pending'
                 CHECK (state IN ('pending', 'claimed', 'done', 'failed', 'cancelled')),
  worker_id      INTEGER REFERENCES workers(id),
  attempts       INTEGER NOT NULL DEFAULT 0,
  published_s    REAL NOT NULL,
  claimed_s      REAL,
  lease_until_s  REAL,
  finished_s     REAL,
  UNIQUE (run_id, config_key)
);
CREATE INDEX tasks_run_state ON tasks(run_id, state);
)sql";

// v4: small pictures of a measurement's output on one item (the colour-coded flow, its ground
// truth, its endpoint error) as base64 PNG text, so that reports stay DB-only. Additive: a
// file of v3 gains the empty table.
constexpr const char* kSchemaV4 = R"sql(
CREATE TABLE item_images (
  measurement_id INTEGER NOT NULL REFERENCES measurements(id) ON DELETE CASCADE,
  item           TEXT NOT NULL,
  kind           TEXT NOT NULL,
  width          INTEGER NOT NULL,
  height         INTEGER NOT NULL,
  scale          REAL NOT NULL DEFAULT 0,
  png_base64     TEXT NOT NULL,
  PRIMARY KEY (measurement_id, item, kind)
);
)sql";

// v5: compiled kernels shared through the store, so that workers on other hosts fetch what one
// host compiled (tuner/kernel_store.hpp). Additive: a file of v4 gains the empty table.
constexpr const char* kSchemaV5 = R"sql(
CREATE TABLE kernel_binaries (
  cache_key      TEXT PRIMARY KEY,
  arch           TEXT NOT NULL,
  nvrtc_version  TEXT NOT NULL,
  size_bytes     INTEGER NOT NULL,
  hash           TEXT NOT NULL,
  binary_base64  TEXT NOT NULL,
  log            TEXT NOT NULL,
  host           TEXT NOT NULL DEFAULT '',
  created_s      REAL NOT NULL
);
)sql";

// v6: the coordinator role of a run as a lease in the store (store clock, renewed by the
// coordinator's heartbeat): one coordinator per run on every host, and a restarted coordinator
// resumes the same run. Additive: a file of v5 gains the empty table.
constexpr const char* kSchemaV6 = R"sql(
CREATE TABLE coordinators (
  run_id        INTEGER PRIMARY KEY REFERENCES runs(id),
  host          TEXT NOT NULL DEFAULT '',
  pid           INTEGER NOT NULL DEFAULT 0,
  since_s       REAL NOT NULL,
  lease_until_s REAL NOT NULL
);
)sql";

#undef FLOWTUNE_NOW

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> kMigrations = {
      {1, "runs, configs, measurements, sequence_results, pruned", kSchemaV1, false},
      {2, "workload-generic: params_json, metrics, item_results, failures, metric_specs, views",
       kSchemaV2, true},
      {3, "distributed tuning: workers, tasks (claims with leases and heartbeats)", kSchemaV3,
       false},
      {4, "item_images: small pictures of a measurement's output (flow, ground truth, error)",
       kSchemaV4, false},
      {5, "kernel_binaries: compiled kernels shared by the hosts of a run", kSchemaV5, false},
      {6, "coordinators: the coordinator role of a run as a lease (one per run, fleet-wide)",
       kSchemaV6, false},
  };
  return kMigrations;
}

}  // namespace flowtune::db
