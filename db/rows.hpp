// The rows of a flowtune store as C++ values (what db::Repository writes and returns), the
// canonical text of a config and the JSON forms of configs and measurements
// (db/config_key.cpp). Column meanings and units are in db/SCHEMA.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune::db {

/// The environment recorded with each run (db/SCHEMA.md, table runs).
struct RunInfo {
  std::string board, workload, command, git_revision, host, gpu_name, driver_version, cuda_version,
      clocks_observed, dataset;  ///< dataset: e.g. "middlebury:Grove2,RubberWhale"
};

/// One point of the space as stored (mirrors flowtune::Config; db/ does not depend on
/// variants/). key is config_key(*this), the identity of the point on a board.
struct ConfigRow {
  std::string board, key, label, workload, variant, precision;
  std::map<std::string, int> tunables;
  int clock_mhz = 0;
  std::map<std::string, double> params;  ///< algorithm parameters by name
};

/// The canonical identity of a config: workload, variant, precision, tunables, clock and
/// every parameter, e.g. `tvl1 global f32 {"block_x":32,"block_y":8} clock=0
/// {"epsilon":0,"iterations":10,...}` (JSON objects with sorted keys; whole numbers written
/// as integers, other values as the shortest round-trip decimal). Two configs are the same
/// point iff their keys are equal. The board is not part of it.
std::string config_key(const ConfigRow& config);
/// config_key(config) from the config's tunables_json and params_json texts (its maps are not
/// read).
std::string config_key(const ConfigRow& config, const std::string& tunables_json,
                       const std::string& params_json);
/// {"tile_x":32,"tile_y":4}: the tunables as a JSON object with sorted keys.
std::string tunables_json(const std::map<std::string, int>& tunables);
/// {"lambda":0.15,"n_warpings":5}: parameters as a JSON object (whole numbers as integers).
std::string params_json(const std::map<std::string, double>& params);
/// Inverse of params_json; throws std::invalid_argument on malformed text.
std::map<std::string, double> parse_params_json(const std::string& text);
/// Inverse of tunables_json; throws std::invalid_argument on malformed text or non-integers.
std::map<std::string, int> parse_tunables_json(const std::string& text);

/// The config as one JSON object {"workload", "variant", "precision", "tunables", "params",
/// "clock_mhz"} (what a tuned header carries); board, key and label are not included.
std::string config_json(const ConfigRow& config);
/// Inverse of config_json (key and label recomputed); throws std::invalid_argument naming
/// the problem for malformed text or a missing field.
ConfigRow parse_config_json(const std::string& text);

struct MeasurementRow;
/// A measurement as one JSON object (every field of MeasurementRow; NaN metrics as null),
/// the wire format between `tune` and its measuring worker process.
std::string measurement_json(const MeasurementRow& m);
/// Inverse of measurement_json; throws std::invalid_argument for malformed text.
MeasurementRow parse_measurement_json(const std::string& text);

/// Result of one config on one item of the dataset (a sequence, a graph): time_ms per
/// execution and the workload's metrics by name (NaN is stored as NULL).
struct ItemResult {
  std::string item;
  double time_ms = 0;
  std::map<std::string, double> metrics;
};

/// A small picture of the output of a measurement on one of its items (e.g. the colour-coded
/// flow, its ground truth, its endpoint error; kernels/flow_pictures.hpp), stored in table
/// item_images. png: the bytes of an 8-bit RGB PNG file of width x height pixels; scale: what
/// full saturation means in the picture's unit (px of flow or of error), 0 when none.
struct ItemImage {
  std::string item, kind;
  int width = 0, height = 0;
  double scale = 0;
  std::vector<std::uint8_t> png;
};

/// One measurement of one config on one dataset.
struct MeasurementRow {
  std::int64_t run_id = 0;
  std::string dataset;
  double time_ms_median = 0, time_ms_min = 0, time_ms_max = 0;  ///< per execution, mean over items
  int n_repeats = 0;
  double ns_per_unit = 0;  ///< time / work of the workload's unit (ns per pixel, per relaxation)
  std::optional<double> energy_mj, nj_per_unit, power_w;  ///< NULL where no sensor, never 0
  std::optional<int> clock_mhz_observed;
  std::map<std::string, double> metrics;  ///< the workload's metrics, mean over items; NaN <-> NULL
  std::string resources_json;             ///< registers/shared per kernel, "" for CPU
  std::vector<ItemResult> items;
  /// Pictures of the output on one item (recorded with the measurement; ResultStore::measured
  /// leaves it empty, ResultStore::item_images reads them).
  std::vector<ItemImage> images;
  /// metrics[name], or NaN when absent.
  double metric(const std::string& name) const;
};

/// A measured config as read back; measured_at is ISO 8601 UTC ("2024-05-01T12:00:00.123Z").
struct MeasuredConfig {
  ConfigRow config;
  MeasurementRow measurement;
  std::int64_t measurement_id = 0;
  std::string measured_at;
  /// A figure by name: "time_ms" (median), "energy_mj", "power_w", "edp_mj_ms" (the
  /// energy-delay product energy_mj x time_ms), "ns_per_unit", or a metric of the workload;
  /// NaN when the measurement has no such figure.
  double value(const std::string& name) const;
};

/// A config rejected by a constraint, with its human-readable reason.
struct PrunedRow {
  std::int64_t run_id = 0;
  ConfigRow config;
  std::string reason;
};

/// A config that was tried on a dataset and produced no valid measurement. failure_class is
/// one of "compile", "launch", "runtime", "timeout", "accuracy", "environment".
struct FailureRow {
  std::int64_t run_id = 0;
  ConfigRow config;
  std::string dataset, failure_class, message, failed_at;
};

/// What the DB knows of a workload, so that reports need nothing but the DB.
struct MetricSpecRow {
  std::string name, unit, doc;
  bool minimize = true;
};
struct WorkloadRow {
  std::string name, work_unit;
  std::vector<std::string> front_objectives;  ///< e.g. {"time_ms", "aepe"}
  std::vector<MetricSpecRow> metrics;
};

/// A tuning run; started_at/ended_at ISO 8601 UTC ("" while running); status is one of
/// "running", "done", "failed", "interrupted", "aborted" (its process died: found by the
/// next open on the same host). pid: the process that ran it (0 when unknown, v1 runs).
struct RunRow {
  std::int64_t id = 0;
  RunInfo info;
  std::string started_at, ended_at, status;
  long long pid = 0;
  /// Distributed runs: the points the coordinator plans to publish at most (-1 = unknown).
  long long planned_points = -1;
  /// The coordinator role of the run (table coordinators, schema v5): the host and pid that
  /// hold it and the end of its lease (store clock, Unix s); "" / 0 when the run has none (a
  /// run of an older flowtune, an import).
  std::string coordinator_host;
  long long coordinator_pid = 0;
  double coordinator_lease_until_s = 0;
  /// Read with the row, for a "running" run: whether its coordinator lives (its lease has not
  /// expired and it is not a process of this host that is gone; without a coordinators row:
  /// not a process of this host that is gone), and how many of its workers live (status
  /// "running", not a process of this host that is gone, a heartbeat within
  /// kWorkerAliveS or an unexpired claim). A run with neither reads as "aborted".
  bool coordinator_alive = false;
  std::size_t live_workers = 0;
};

/// A worker without a heartbeat for this long (store clock, s) and without an unexpired claim
/// counts as dead when a run's liveness is read (RunRow::live_workers).
inline constexpr double kWorkerAliveS = 60;

/// How a Repository opens its file.
enum class OpenMode {
  read_write,  ///< create when absent, migrate, mark dead runs aborted
  read_only    ///< the file must exist and be at the current schema; nothing is written
};

/// Every failure of the database layer; the message starts with the database path.
class DbError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A measuring process registered for a run (`tune worker`). Times are Unix seconds.
struct WorkerRow {
  std::int64_t id = 0, run_id = 0;
  std::string host;  ///< host name of the worker's machine
  long long pid = 0;
  std::string gpu;  ///< e.g. "CUDA_VISIBLE_DEVICES=1", "" when not pinned
  double started_s = 0, heartbeat_s = 0;
  std::string status;  ///< "running" or "exited" (a killed worker stays "running")
  std::size_t n_done = 0, n_failed = 0;  ///< tasks it finished
};

/// One point of a run to measure, published by the run's coordinator. state: "pending"
/// (never claimed), "claimed" (a worker holds its lease until lease_until_s), "done"
/// (measured), "failed" (recorded in failures), "cancelled" (the run ended first).
/// attempts counts claims: 2 or more means a lease expired and another worker took it.
struct TaskRow {
  std::int64_t id = 0, run_id = 0;
  std::string config_key, request_json, state;
  std::int64_t worker_id = 0;  ///< the last claimer, 0 when never claimed
  int attempts = 0;
  double published_s = 0, claimed_s = 0, lease_until_s = 0, finished_s = 0;  ///< 0 = not yet
};

/// Tasks of a run by state, and the mean claim-to-finish time of finished ones (s, 0 = none).
struct TaskCounts {
  std::size_t pending = 0, claimed = 0, done = 0, failed = 0, cancelled = 0;
  double mean_task_s = 0;
};

}  // namespace flowtune::db
