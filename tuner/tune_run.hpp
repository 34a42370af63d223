// One tuning run: board -> space -> prune -> strategy -> build -> measure -> DB -> Pareto.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "tuner/measure.hpp"
#include "tuner/space.hpp"

namespace flowtune {

struct TuneOptions {
  std::string board = "host";
  std::string db_path = "flowtune.db";
  std::string data_dir;                    ///< "" = default_data_dir()
  std::vector<std::string> sequences;      ///< "" = every sequence in data_dir
  SpaceOptions space;
  std::string strategy = "brute_force";
  std::size_t max_evals = 0;               ///< random_sample: points to measure (0 = all)
  std::uint64_t seed = 1;
  MeasureOptions measure;
  bool allow_clock_control = false;        ///< set GPU clocks (needs privileges); else observe them
  std::string command;                     ///< the command line, recorded with the run
};

struct TuneSummary {
  std::int64_t run_id = 0;
  std::size_t n_space = 0, n_pruned = 0, n_measured = 0, n_resumed = 0, n_failed = 0;
  bool interrupted = false;
  std::string dataset;
  std::vector<db::MeasuredConfig> front;   ///< Pareto front over (time per frame, AEPE)
};

/// Converts a config to its DB row for board (db/ does not depend on variants/).
db::ConfigRow to_config_row(const std::string& board, const Config& config);

/// JSON array text of the resource report of each kernel, e.g.
/// [{"kernel":"update_u","threads":256,"registers":40,"static_shared_bytes":0,...}].
std::string resources_json(const std::vector<KernelResources>& resources);

/// Runs a tuning session. Every measured or pruned config is committed to the DB as soon as
/// it is known, so a run killed at any point resumes: configs already in the DB for the same
/// board and dataset are skipped. SIGINT/SIGTERM stop after the current config (the run is
/// recorded as "interrupted"). A config whose build or run throws is recorded as pruned with
/// the error as its reason and the run goes on. Throws (before measuring anything) on an
/// unknown board, unreadable data, a DB that cannot be opened, or a board that does not
/// match the present GPU. Progress lines go to log.
TuneSummary run_tuning(const TuneOptions& options, std::ostream& log);

/// The Pareto front over (time_ms_median, aepe) of measured, sorted by time.
std::vector<db::MeasuredConfig> time_aepe_front(const std::vector<db::MeasuredConfig>& measured);

}  // namespace flowtune
