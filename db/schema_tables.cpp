// The current version (kSchemaVersion) of the flowtune schema, for both dialects: columns
// with abstract types (db/schema.hpp) and dialect-neutral constraints; the meaning and units
// of every column are in db/SCHEMA.md (keep both in sync). A change here reaches new stores;
// existing SQLite files reach it through a migration appended in db/schema_migrations.cpp.
#include "db/schema.hpp"

namespace flowtune::db {

namespace {

constexpr ColumnType kId = ColumnType::id;
constexpr ColumnType kInt64 = ColumnType::int64;
constexpr ColumnType kInt32 = ColumnType::int32;
constexpr ColumnType kReal = ColumnType::real;
constexpr ColumnType kText = ColumnType::text;

// Timestamps are ISO 8601 UTC text with milliseconds, e.g. 2024-05-01T12:00:00.123Z.
constexpr const char* kNotNullNow = "NOT NULL DEFAULT $now";

TableDef runs() {
  return {"runs",
          {{"id", kId, ""},
           {"board", kText, "NOT NULL"},
           {"workload", kText, "NOT NULL"},
           {"command", kText, "NOT NULL DEFAULT ''"},
           {"git_revision", kText, "NOT NULL DEFAULT ''"},
           {"host", kText, "NOT NULL DEFAULT ''"},
           {"pid", kInt64, ""},
           {"gpu_name", kText, "NOT NULL DEFAULT ''"},
           {"driver_version", kText, "NOT NULL DEFAULT ''"},
           {"cuda_version", kText, "NOT NULL DEFAULT ''"},
           {"clocks_observed", kText, "NOT NULL DEFAULT ''"},
           {"dataset", kText, "NOT NULL DEFAULT ''"},
           {"started_at", kText, kNotNullNow},
           {"ended_at", kText, ""},
           {"status", kText,
            "NOT NULL DEFAULT 'running' "
            "CHECK (status IN ('running', 'done', 'failed', 'interrupted', 'aborted'))"},
           {"planned_points", kInt64, ""}},
          {},
          {{"runs_board", "board"}}};
}

TableDef workloads() {
  return {"workloads",
          {{"name", kText, "PRIMARY KEY"},
           {"work_unit", kText, "NOT NULL"},
           {"front_objectives", kText, "NOT NULL DEFAULT ''"}},
          {},
          {}};
}

TableDef metric_specs() {
  return {"metric_specs",
          {{"workload", kText, "NOT NULL REFERENCES workloads(name)"},
           {"name", kText, "NOT NULL"},
           {"unit", kText, "NOT NULL DEFAULT ''"},
           {"minimize", kInt32, "NOT NULL DEFAULT 1"},
           {"description", kText, "NOT NULL DEFAULT ''"}},
          {"PRIMARY KEY (workload, name)"},
          {}};
}

TableDef configs() {
  return {"configs",
          {{"id", kId, ""},
           {"board", kText, "NOT NULL"},
           {"config_key", kText, "NOT NULL"},
           {"label", kText, "NOT NULL DEFAULT ''"},
           {"workload", kText, "NOT NULL"},
           {"variant", kText, "NOT NULL"},
           {"precision", kText, "NOT NULL"},
           {"tunables_json", kText, "NOT NULL DEFAULT '{}'"},
           {"clock_mhz", kInt32, "NOT NULL DEFAULT 0"},
           {"params_json", kText, "NOT NULL DEFAULT '{}'"}},
          {"UNIQUE (board, config_key)"},
          {{"configs_workload", "workload"}}};
}

TableDef measurements() {
  return {"measurements",
          {{"id", kId, ""},
           {"config_id", kInt64, "NOT NULL REFERENCES configs(id)"},
           {"run_id", kInt64, "NOT NULL REFERENCES runs(id)"},
           {"dataset", kText, "NOT NULL"},
           {"measured_at", kText, kNotNullNow},
           {"time_ms_median", kReal, "NOT NULL"},
           {"time_ms_min", kReal, "NOT NULL"},
           {"time_ms_max", kReal, "NOT NULL"},
           {"n_repeats", kInt32, "NOT NULL"},
           {"ns_per_unit", kReal, "NOT NULL"},
           {"energy_mj", kReal, ""},
           {"nj_per_unit", kReal, ""},
           {"power_w", kReal, ""},
           {"clock_mhz_observed", kInt32, ""},
           {"resources_json", kText, "NOT NULL DEFAULT ''"}},
          {"UNIQUE (config_id, dataset)"},
          {{"measurements_run", "run_id"}}};
}

TableDef metrics() {
  return {"metrics",
          {{"measurement_id", kInt64, "NOT NULL REFERENCES measurements(id) ON DELETE CASCADE"},
           {"item", kText, "NOT NULL DEFAULT ''"},
           {"name", kText, "NOT NULL"},
           {"value", kReal, ""}},
          {"PRIMARY KEY (measurement_id, item, name)"},
          {}};
}

TableDef item_results() {
  return {"item_results",
          {{"measurement_id", kInt64, "NOT NULL REFERENCES measurements(id) ON DELETE CASCADE"},
           {"item", kText, "NOT NULL"},
           {"time_ms", kReal, "NOT NULL"}},
          {"PRIMARY KEY (measurement_id, item)"},
          {}};
}

TableDef item_images() {
  return {"item_images",
          {{"measurement_id", kInt64, "NOT NULL REFERENCES measurements(id) ON DELETE CASCADE"},
           {"item", kText, "NOT NULL"},
           {"kind", kText, "NOT NULL"},
           {"width", kInt32, "NOT NULL"},
           {"height", kInt32, "NOT NULL"},
           {"scale", kReal, "NOT NULL DEFAULT 0"},
           {"png_base64", kText, "NOT NULL"}},
          {"PRIMARY KEY (measurement_id, item, kind)"},
          {}};
}

// v5: the coordinator role of a run as a lease on the store's clock (one coordinator per run,
// fleet-wide; a restarted coordinator takes the role over once the lease expired).
TableDef coordinators() {
  return {"coordinators",
          {{"run_id", kInt64, "PRIMARY KEY REFERENCES runs(id)"},
           {"host", kText, "NOT NULL DEFAULT ''"},
           {"pid", kInt64, "NOT NULL DEFAULT 0"},
           {"since_s", kReal, "NOT NULL"},
           {"lease_until_s", kReal, "NOT NULL"}},
          {},
          {}};
}

TableDef failures() {
  return {"failures",
          {{"id", kId, ""},
           {"config_id", kInt64, "NOT NULL REFERENCES configs(id)"},
           {"run_id", kInt64, "NOT NULL REFERENCES runs(id)"},
           {"dataset", kText, "NOT NULL"},
           {"failure_class", kText,
            "NOT NULL CHECK (failure_class IN "
            "('compile', 'launch', 'runtime', 'timeout', 'accuracy', 'environment'))"},
           {"message", kText, "NOT NULL"},
           {"failed_at", kText, kNotNullNow}},
          {},
          {{"failures_config", "config_id, dataset"}}};
}

TableDef pruned() {
  return {"pruned",
          {{"id", kId, ""},
           {"config_id", kInt64, "NOT NULL UNIQUE REFERENCES configs(id)"},
           {"run_id", kInt64, "NOT NULL REFERENCES runs(id)"},
           {"reason", kText, "NOT NULL"},
           {"pruned_at", kText, kNotNullNow}},
          {},
          {}};
}

// Distributed tuning (ARCHITECTURE.md): times used in lease arithmetic are Unix seconds
// (*_s columns).
TableDef workers() {
  return {"workers",
          {{"id", kId, ""},
           {"run_id", kInt64, "NOT NULL REFERENCES runs(id)"},
           {"host", kText, "NOT NULL DEFAULT ''"},
           {"pid", kInt64, "NOT NULL DEFAULT 0"},
           {"gpu", kText, "NOT NULL DEFAULT ''"},
           {"started_s", kReal, "NOT NULL"},
           {"heartbeat_s", kReal, "NOT NULL"},
           {"status", kText, "NOT NULL DEFAULT 'running' CHECK (status IN ('running', 'exited'))"}},
          {},
          {{"workers_run", "run_id"}}};
}

TableDef tasks() {
  return {"tasks",
          {{"id", kId, ""},
           {"run_id", kInt64, "NOT NULL REFERENCES runs(id)"},
           {"config_key", kText, "NOT NULL"},
           {"request_json", kText, "NOT NULL"},
           {"state", kText,
            "NOT NULL DEFAULT 'pending' "
            "CHECK (state IN ('pending', 'claimed', 'done', 'failed', 'cancelled'))"},
           {"worker_id", kInt64, "REFERENCES workers(id)"},
           {"attempts", kInt32, "NOT NULL DEFAULT 0"},
           {"published_s", kReal, "NOT NULL"},
           {"claimed_s", kReal, ""},
           {"lease_until_s", kReal, ""},
           {"finished_s", kReal, ""}},
          {"UNIQUE (run_id, config_key)"},
          {{"tasks_run_state", "run_id, state"}}};
}

// Compiled kernels shared by the hosts of a run (tuner/kernel_store.hpp): the build cache's
// entry (binary as base64 text, the compiler's log) under its key, with what the reader
// verifies (size, hash).
TableDef kernel_binaries() {
  return {"kernel_binaries",
          {{"cache_key", kText, "PRIMARY KEY"},
           {"arch", kText, "NOT NULL"},
           {"nvrtc_version", kText, "NOT NULL"},
           {"size_bytes", kInt64, "NOT NULL"},
           {"hash", kText, "NOT NULL"},
           {"binary_base64", kText, "NOT NULL"},
           {"log", kText, "NOT NULL"},
           {"host", kText, "NOT NULL DEFAULT ''"},
           {"created_s", kReal, "NOT NULL"}},
          {},
          {}};
}

// One row per measurement, its dataset-level metrics as one JSON object.
constexpr const char* kResultsView = R"sql(
  SELECT m.id AS measurement_id, c.board, c.workload, m.dataset, c.label, c.variant,
         c.precision, c.tunables_json, c.params_json, c.clock_mhz,
         m.time_ms_median AS time_ms, m.ns_per_unit, m.energy_mj, m.power_w,
         (SELECT $json_object_agg(x.name, x.value) FROM metrics x
          WHERE x.measurement_id = m.id AND x.item = '')$as_text AS metrics_json,
         m.run_id, m.measured_at, c.config_key
  FROM measurements m JOIN configs c ON c.id = m.config_id)sql";

// The results in long form: one row per (measurement, parameter | tunable | metric | measure).
constexpr const char* kResultValuesView = R"sql(
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'param' AS kind,
         j.key AS name, j.value$as_real AS value
  FROM results r, $json_each(r.params_json$as_json) j
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'tunable', j.key,
         j.value$as_real
  FROM results r, $json_each(r.tunables_json$as_json) j
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'metric', x.name, x.value
  FROM results r JOIN metrics x ON x.measurement_id = r.measurement_id AND x.item = ''
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'measure', 'time_ms', r.time_ms
  FROM results r
  UNION ALL
  SELECT r.measurement_id, r.board, r.workload, r.dataset, r.label, 'measure', 'energy_mj',
         r.energy_mj
  FROM results r WHERE r.energy_mj IS NOT NULL)sql";

}  // namespace

const std::vector<TableDef>& schema_tables() {
  static const std::vector<TableDef> kTables = {
      runs(),    workloads(),    metric_specs(),    configs(),     measurements(),
      metrics(), item_results(), failures(),        pruned(),      workers(),
      tasks(),   item_images(),  kernel_binaries(), coordinators()};
  return kTables;
}

const std::vector<ViewDef>& schema_views() {
  static const std::vector<ViewDef> kViews = {{"results", kResultsView},
                                              {"result_values", kResultValuesView}};
  return kViews;
}

std::vector<TableDef> additive_tables_of_version(int version) {
  if (version == 4) return {item_images()};
  if (version == 5) return {kernel_binaries()};
  if (version == 6) return {coordinators()};
  return {};
}

const TableDef& schema_version_table() {
  static const TableDef kTable = {"schema_version",
                                  {{"version", kInt32, "PRIMARY KEY"},
                                   {"description", kText, "NOT NULL"},
                                   {"applied_at", kText, kNotNullNow}},
                                  {},
                                  {}};
  return kTable;
}

}  // namespace flowtune::db
