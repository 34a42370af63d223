// The repository layer over the flowtune SQLite database: the only code that runs SQL.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace SQLite {
class Database;
}

namespace flowtune::db {

/// The environment recorded with each run (DESIGN.md "Storage").
struct RunInfo {
  std::string board, command, git_revision, host, gpu_name, driver_version, cuda_version,
      clocks_observed, dataset;  ///< dataset: e.g. "middlebury:Grove2,RubberWhale"
};

/// One point of the space as stored (mirrors flowtune::Config; db/ does not depend on
/// variants/). key is Config::key(), the identity of the point on a board.
struct ConfigRow {
  std::string board, key, label, variant, precision, tunables_json;
  int clock_mhz = 0, iterations = 0, n_scales = 0, n_warpings = 0;
  double zoom = 0, epsilon = 0, tau = 0, lambda = 0, theta = 0;
};

/// Result of one config on one sequence of the dataset. time_ms per frame; aepe in px and
/// aae_deg in degrees against ground truth (Baker et al. 2011); NaN is stored as NULL.
struct SequenceResult {
  std::string sequence;
  double time_ms = 0, aepe = 0, aae_deg = 0;
};

/// One measurement of one config on one dataset.
struct MeasurementRow {
  std::int64_t run_id = 0;
  std::string dataset;
  double time_ms_median = 0, time_ms_min = 0, time_ms_max = 0;  ///< per frame, over repeats
  int n_repeats = 0;
  double ns_per_px = 0;                                 ///< time per frame / pixels of the frame
  std::optional<double> energy_mj, nj_per_px, power_w;  ///< NULL where no sensor, never 0
  std::optional<int> clock_mhz_observed;
  double aepe = 0, aae_deg = 0;  ///< mean over sequences; NaN <-> NULL
  std::string resources_json;    ///< registers/shared per kernel, "" for CPU
  std::vector<SequenceResult> sequences;
};

/// A measured config as read back; measured_at is ISO 8601 UTC ("2024-05-01T12:00:00.123Z").
struct MeasuredConfig {
  ConfigRow config;
  MeasurementRow measurement;
  std::int64_t measurement_id = 0;
  std::string measured_at;
};

/// A config rejected by a constraint, with its human-readable reason.
struct PrunedRow {
  std::int64_t run_id = 0;
  ConfigRow config;
  std::string reason;
};

/// A tuning run; started_at/ended_at ISO 8601 UTC ("" while running); status is one of
/// "running", "done", "failed", "interrupted".
struct RunRow {
  std::int64_t id = 0;
  RunInfo info;
  std::string started_at, ended_at, status;
};

/// Every failure of the database layer; the message starts with the database path.
class DbError : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A flowtune database (schema in db/SCHEMA.md). Opened in WAL mode with foreign keys on,
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
  explicit Repository(const std::string& path);
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

  /// Inserts a run with status "running" and started_at now; returns its id.
  std::int64_t begin_run(const RunInfo& info);
  /// Sets ended_at now and the final status ("done" | "failed" | "interrupted").
  /// Throws DbError for another status or an unknown run id.
  void end_run(std::int64_t run_id, const std::string& status);

  /// True iff (board, config_key) has a measurement on exactly this dataset.
  bool is_measured(const std::string& board, const std::string& config_key,
                   const std::string& dataset) const;
  /// True iff (board, config_key) was recorded as pruned.
  bool is_pruned(const std::string& board, const std::string& config_key) const;

  /// Stores the config (first write wins for its descriptive columns), the measurement and
  /// its per-sequence results in one transaction. Throws DbError if the config already has
  /// a measurement on m.dataset (each config is measured once per dataset), if the run id is
  /// unknown, or if a time is not finite.
  void record_measurement(const ConfigRow& config, const MeasurementRow& m);
  /// Records config as pruned with reason; a second call for the same (board, key) is a
  /// no-op (the first reason is kept).
  void record_pruned(std::int64_t run_id, const ConfigRow& config, const std::string& reason);

  /// Measured configs of board in measurement order; dataset "" = all datasets.
  std::vector<MeasuredConfig> measured(const std::string& board,
                                       const std::string& dataset = "") const;
  /// Pruned configs of board in the order they were recorded.
  std::vector<PrunedRow> pruned(const std::string& board) const;
  /// Runs in id order; board "" = all boards.
  std::vector<RunRow> runs(const std::string& board = "") const;
  /// Boards that have measurements, sorted.
  std::vector<std::string> boards() const;
  /// Datasets measured on board, sorted by number of measurements (most first), then name.
  std::vector<std::string> datasets(const std::string& board) const;

 private:
  [[noreturn]] void fail(const std::string& problem) const;
  std::int64_t upsert_config(const ConfigRow& config);

  std::string path_;
  std::unique_ptr<SQLite::Database> db_;
};

}  // namespace flowtune::db
