// The repository layer over the flowtune SQLite database: the only code that runs SQL.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/work_queue.hpp"

namespace SQLite {
class Database;
}

namespace flowtune::db {

class Connection;

/// The environment recorded with each run (DESIGN.md "Storage").
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
  /// metrics[name], or NaN when absent.
  double metric(const std::string& name) const;
};

/// A measured config as read back; measured_at is ISO 8601 UTC ("2024-05-01T12:00:00.123Z").
struct MeasuredConfig {
  ConfigRow config;
  MeasurementRow measurement;
  std::int64_t measurement_id = 0;
  std::string measured_at;
  /// A figure by name: "time_ms" (median), "energy_mj", "power_w", "ns_per_unit", or a
  /// metric of the workload; NaN when the measurement has no such figure.
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
};

/// How a Repository opens its file.
enum class OpenMode {
  read_write,  ///< create when absent, migrate, mark dead runs aborted
  read_only    ///< the file must exist and be at the current schema; nothing is written
};

/// Every failure of the database layer; the message starts with the database path.
class DbError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// True when this build has the PostgreSQL store (libpq; db/CMakeLists.txt).
bool postgresql_supported();

/// A flowtune database (schema in db/SCHEMA.md): an SQLite file, or a PostgreSQL database
/// given as postgresql://user[:password]@host[:port]/db (the same queries through
/// db/connection.hpp; created at the current schema version; claims use SELECT ... FOR
/// UPDATE SKIP LOCKED). An SQLite file is opened in WAL mode with foreign keys on,
/// synchronous=FULL and a 30 s busy timeout, so a second process can read while a run writes
/// and a restarted run can resume. Every record_* call is one transaction committed before
/// it returns: a SIGKILL after the return loses nothing. Not thread-safe: one Repository
/// per thread.
class Repository {
 public:
  /// Creates or opens the database at path (":memory:" works for tests) and applies the
  /// migrations up to kSchemaVersion. Throws DbError "<path>: <problem>" when the file
  /// cannot be created or written, is not an SQLite database, is an SQLite database of
  /// another application, or has a schema newer than this build understands.
  ///
  /// With OpenMode::read_only (reports, exports) the file must exist ("no such database"),
  /// is opened read-only (a read-only file or folder is fine) and must already be at
  /// kSchemaVersion or at least kOldestReadableSchemaVersion (an older one is refused: "open
  /// it once with tune to migrate"; a v2 file reads as having no distributed runs).
  /// With read_write, runs of this host whose process is gone are marked "aborted".
  explicit Repository(const std::string& path, OpenMode mode = OpenMode::read_write);
  ~Repository();
  Repository(const Repository&) = delete;
  Repository& operator=(const Repository&) = delete;
  Repository(Repository&&) noexcept;
  Repository& operator=(Repository&&) noexcept;

  /// The path given to the constructor.
  const std::string& path() const { return path_; }
  /// Highest version in schema_version (== kSchemaVersion after construction).
  int schema_version() const;
  /// PRAGMA journal_mode as reported by SQLite: "wal" for a file ("memory" for ":memory:").
  std::string journal_mode() const;

  /// Inserts a run with status "running", started_at now and this process's pid; returns
  /// its id. Throws DbError for a run without a workload.
  std::int64_t begin_run(const RunInfo& info);
  /// Runs other than except_run that are "running" on board for workload and dataset, by a
  /// live process of this host (what a second `tune` on the same DB must not race with).
  std::vector<RunRow> active_runs(const std::string& board, const std::string& workload,
                                  const std::string& dataset, std::int64_t except_run = 0) const;
  /// Sets ended_at now and the final status ("done" | "failed" | "interrupted").
  /// Throws DbError for another status or an unknown run id.
  void end_run(std::int64_t run_id, const std::string& status);

  /// True iff (board, config_key) has a measurement on exactly this dataset.
  bool is_measured(const std::string& board, const std::string& config_key,
                   const std::string& dataset) const;
  /// True iff (board, config_key) was recorded as pruned.
  bool is_pruned(const std::string& board, const std::string& config_key) const;
  /// The class of the last failure of (board, config_key) on dataset, or "" when none.
  std::string failure_class(const std::string& board, const std::string& config_key,
                            const std::string& dataset) const;

  /// Stores the config (first write wins for its descriptive columns), the measurement and
  /// its per-sequence results in one transaction. Throws DbError if the config already has
  /// a measurement on m.dataset (each config is measured once per dataset), if the run id is
  /// unknown, or if a time is not finite.
  void record_measurement(const ConfigRow& config, const MeasurementRow& m);
  /// Records config as pruned with reason; a second call for the same (board, key) is a
  /// no-op (the first reason is kept).
  void record_pruned(std::int64_t run_id, const ConfigRow& config, const std::string& reason);
  /// Records that config failed on dataset in run_id (one row per attempt). Throws DbError
  /// for an unknown failure class.
  void record_failure(std::int64_t run_id, const ConfigRow& config, const std::string& dataset,
                      const std::string& failure_class, const std::string& message);
  /// Stores (replaces) what the DB knows of a workload: work unit, front objectives, metrics.
  void record_workload(const WorkloadRow& workload);
  /// The workload as recorded; throws DbError when it was never recorded.
  WorkloadRow workload(const std::string& name) const;

  /// Measured configs of board in measurement order; dataset "" = all datasets.
  std::vector<MeasuredConfig> measured(const std::string& board,
                                       const std::string& dataset = "") const;
  /// Pruned configs of board in the order they were recorded.
  std::vector<PrunedRow> pruned(const std::string& board) const;
  /// Failures of board in the order they were recorded.
  std::vector<FailureRow> failures(const std::string& board) const;
  /// Runs in id order; board "" = all boards.
  std::vector<RunRow> runs(const std::string& board = "") const;
  /// Boards that have measurements, sorted.
  std::vector<std::string> boards() const;
  /// Datasets measured on board, sorted by number of measurements (most first), then name.
  std::vector<std::string> datasets(const std::string& board) const;
  /// The run with this id; throws DbError when there is none.
  RunRow run(std::int64_t run_id) const;
  /// The measurement of (board, config_key) on dataset, or nullopt.
  std::optional<MeasuredConfig> measurement_of(const std::string& board,
                                               const std::string& config_key,
                                               const std::string& dataset) const;

  // Distributed tuning (DESIGN.md "Scale-out"; tables workers and tasks, db/SCHEMA.md).
  // Times are Unix seconds given by the caller (its clock; hosts sharing a database need
  // synchronised clocks, e.g. NTP, to within a small fraction of the lease).

  /// Publishes a point of run_id for the workers; request_json is what a worker needs to
  /// measure it. Returns the task id; publishing the same (run, config_key) again returns
  /// the existing task unchanged.
  std::int64_t publish_task(std::int64_t run_id, const std::string& config_key,
                            const std::string& request_json, double now_s);
  /// Records how many points the coordinator of run_id plans to publish at most (for ETAs).
  void set_planned_points(std::int64_t run_id, long long n);
  /// Registers a worker of run_id; returns its id. Throws DbError for an unknown run.
  std::int64_t register_worker(std::int64_t run_id, const std::string& host, long long pid,
                               const std::string& gpu, double now_s);
  /// Marks a worker "exited" (its normal end).
  void end_worker(std::int64_t worker_id);
  /// Claims, in one write transaction, the oldest task of run_id that is pending or whose
  /// lease expired (lease_until_s < now_s): it becomes "claimed" by worker_id until
  /// now_s + lease_s, attempts + 1. Returns nullopt when there is none. Two workers never
  /// hold the same task at the same time.
  std::optional<TaskRow> claim_task(std::int64_t run_id, std::int64_t worker_id, double now_s,
                                    double lease_s);
  /// The worker's heartbeat: its heartbeat_s = now_s and the lease of every task it still
  /// holds extended to now_s + lease_s. Returns the number of tasks it still holds (0 when
  /// its lease expired and another worker claimed the task).
  std::size_t heartbeat(std::int64_t worker_id, double now_s, double lease_s);
  /// Finishes a claimed task with its measurement, in one transaction: only if worker_id
  /// still holds it (else returns false and writes nothing: the point belongs to another
  /// worker now). The measurement is not written a second time when (board, key, dataset)
  /// is already measured (then the task is "done" all the same). Throws DbError as
  /// record_measurement for a malformed measurement.
  bool finish_task_measured(std::int64_t task_id, std::int64_t worker_id, const ConfigRow& config,
                            const MeasurementRow& m, double now_s);
  /// Finishes a claimed task as failed (one failures row) if worker_id still holds it;
  /// false otherwise. Throws DbError for an unknown failure class.
  bool finish_task_failed(std::int64_t task_id, std::int64_t worker_id, const ConfigRow& config,
                          const std::string& dataset, const std::string& failure_class,
                          const std::string& message, double now_s);
  /// Returns a claimed task to "pending" (a worker that stops before measuring it) if
  /// worker_id holds it.
  void release_task(std::int64_t task_id, std::int64_t worker_id);
  /// Sets every pending task of run_id to "cancelled"; returns how many.
  std::size_t cancel_pending_tasks(std::int64_t run_id);
  /// Tasks of run_id in id order; state "" = all.
  std::vector<TaskRow> tasks(std::int64_t run_id, const std::string& state = "") const;
  /// Tasks of run_id finished ("done" or "failed") with id > after_id, in id order.
  std::vector<TaskRow> finished_tasks(std::int64_t run_id, std::int64_t after_id = 0) const;
  /// Counts of the tasks of run_id by state.
  TaskCounts task_counts(std::int64_t run_id) const;
  /// Workers of run_id in id order, with the tasks each finished.
  std::vector<WorkerRow> workers(std::int64_t run_id) const;

 private:
  [[noreturn]] void fail(const std::string& problem) const;
  std::vector<MeasuredConfig> measured_where(const std::string& board, const std::string& dataset,
                                             const std::string& config_key) const;
  void check_measurement(const ConfigRow& config, const MeasurementRow& m) const;
  void check_failure(const ConfigRow& config, const std::string& failure_class) const;
  void insert_measurement(const ConfigRow& config, const MeasurementRow& m);
  void insert_failure(std::int64_t run_id, const ConfigRow& config, const std::string& dataset,
                      const std::string& failure_class, const std::string& message);
  bool holds_task(std::int64_t task_id, std::int64_t worker_id);
  void finish_task(std::int64_t task_id, const std::string& state, double now_s);
  std::int64_t upsert_config(const ConfigRow& config);
  void rekey_configs();
  void mark_dead_runs_aborted();
  void open_read_only();
  void open_postgresql(const std::string& url, OpenMode mode);

  std::string path_;
  std::unique_ptr<SQLite::Database> db_;  ///< the SQLite file (unset on PostgreSQL)
  std::unique_ptr<Connection> conn_;      ///< every query goes through it
  int version_ = 0;  ///< schema version of the open file (kSchemaVersion once migrated)
};

}  // namespace flowtune::db
