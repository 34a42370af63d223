// The answer of a board's latest tuning run, for the report's first screen: what was tuned,
// when, how (command, budget, strategy), and the config its request picks, with its
// speed-up over a stated baseline. Read from the report model only (the DB's runs and
// measurements), never from the DB.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace flowtune::reports {

struct DatasetView;

/// A request as `tune` records it in its command: the objective ("" = none given: time) and
/// the --max constraints, the budget and the strategy as typed ("" = the default).
struct RunRequest {
  std::string objective;
  std::vector<Constraint> constraints;
  std::string time_budget, evaluations, strategy;
};

/// Reads the request of a recorded `tune` command line (words separated by spaces):
/// --objective X, --max NAME=V, --max-NAME V (ms, mj, w and edp stand for time_ms,
/// energy_mj, power_w and edp_mj_ms; --max-evals, --max-rounds, --max-window-ms and
/// --max-pixels are not constraints), --time-budget, --budget or --max-evals, --strategy;
/// both "--opt V" and "--opt=V". A value that is not a number leaves its constraint out.
RunRequest parse_run_request(const std::string& command);

/// Whole seconds between two ISO 8601 UTC times of the DB ("2024-05-01T12:00:00.123Z"), or
/// nullopt when either is empty or malformed.
std::optional<double> seconds_between(const std::string& from_iso, const std::string& to_iso);

/// The answer of a board (BoardModel::answer).
struct RunAnswer {
  bool has_run = false;  ///< a run of the board names one of its datasets
  db::RunRow run;        ///< the latest such run
  RunRequest request;
  std::string request_text;  ///< e.g. "least time_ms with aepe <= 0.25"
  std::size_t view = 0;      ///< index in BoardModel::views of the run's dataset
  std::optional<db::MeasuredConfig> pick;
  std::string no_pick;  ///< why there is no pick ("" when there is one)
  /// The stated baseline of the speed-up: the median time of the dataset's measured
  /// configs (baseline_n of them), in ms.
  double baseline_ms = 0;
  std::size_t baseline_n = 0;
};

/// The answer of a board from its runs (in id order) and dataset views: the latest run whose
/// dataset is among the views (else none, and the first view with the request "time"), the
/// pick of its request (select/objectives.hpp satisfying, then select_config over the
/// workload's front objectives) and the baseline. Never throws: a request naming an unknown
/// figure gives no pick, with the reason.
RunAnswer run_answer(const std::vector<db::RunRow>& runs, const std::vector<DatasetView>& views);

}  // namespace flowtune::reports
