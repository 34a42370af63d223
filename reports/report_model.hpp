// The report model: everything `tune report` shows, read from the DB once. Every writer
// (CSV, Markdown, SVG, HTML) and every report section reads this model, never the DB.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "reports/cross_front.hpp"
#include "reports/predictions.hpp"
#include "reports/run_answer.hpp"
#include "select/objectives.hpp"

namespace flowtune::reports {

/// The Pareto fronts of a set of configs of one dataset, over the objectives of one workload.
struct DatasetFront {
  std::string dataset;
  db::WorkloadRow workload;                  ///< whose objectives define the fronts
  std::vector<Objective> objectives;         ///< objectives_of(workload), e.g. time_ms, aepe
  std::vector<db::MeasuredConfig> measured;  ///< in measurement order
  std::vector<db::MeasuredConfig> front;     ///< over `objectives`, sorted (pareto_configs)
  bool has_energy = false;                   ///< some measurement has energy_mj
  /// Over (time_ms, energy_mj) when has_energy, else empty.
  std::vector<db::MeasuredConfig> time_energy;
  /// The paper's three objectives when has_energy and `objectives` holds one besides time and
  /// energy (the accuracy metric, e.g. aepe): time_ms, energy_mj and that one; else empty.
  std::vector<Objective> three_objectives;
  /// The front over three_objectives, sorted (configs without energy are never on it).
  std::vector<db::MeasuredConfig> three_objective_front;
};

/// The fronts of `measured` (all of one dataset) over the objectives of `workload`.
/// Throws std::invalid_argument when the workload names an unknown front objective.
DatasetFront make_dataset_front(const std::string& dataset, const db::WorkloadRow& workload,
                                std::vector<db::MeasuredConfig> measured);

/// One plot of the HTML view: x and y objectives and the measurement ids on their
/// two-objective front (sorted by x).
struct Plot {
  Objective x, y;
  std::vector<std::int64_t> front;
};

/// The plots of a dataset: every pair of front objectives (e.g. time_ms vs aepe), then with
/// energy: energy vs each front objective other than time and energy, and time vs energy;
/// each unordered pair once.
std::vector<Plot> plots_of(const DatasetFront& d);

/// A dataset of a board as the HTML view shows it: all its configs (every workload) over the
/// objectives of the workload measured first, with its plots.
struct DatasetView {
  DatasetFront data;
  std::vector<Plot> plots;
};

/// What the DB holds of one board.
struct BoardModel {
  std::string name;
  std::vector<db::RunRow> runs;  ///< in id order
  /// All datasets, in measurement order, with their pictures (MeasurementRow::images).
  std::vector<db::MeasuredConfig> measured;
  std::vector<db::PrunedRow> pruned;     ///< in recording order
  std::vector<db::FailureRow> failures;  ///< in recording order
  std::vector<std::string> datasets;     ///< most measurements first, then by name
  std::vector<DatasetView> views;        ///< one per dataset, in `datasets` order
  /// `tune report --predicted FILE`: each file's predictions against `measured` (reported
  /// board only; empty otherwise).
  std::vector<PredictionComparison> predicted;
  /// The latest run's request and its pick (reports/run_answer.hpp), for the first screen.
  RunAnswer answer;
};

/// The whole report: the reported board, the other boards with measurements (for the HTML
/// view), the workloads measured on them, and the reported board's fronts.
struct ReportModel {
  std::string db_path;             ///< the DB's path as given to db::Repository
  std::string board;               ///< the reported board (== boards.front().name)
  std::vector<BoardModel> boards;  ///< the reported board, then the others, sorted
  /// Every workload measured on a board of `boards`, by name (workload_or_default).
  std::map<std::string, db::WorkloadRow> workloads;
  /// Reported board: per dataset (in `datasets` order) and per workload of the dataset (in
  /// order of first measurement), the fronts over that workload's objectives.
  std::vector<DatasetFront> fronts;
  /// Reported board: the cross-algorithm fronts (reports/cross_front.hpp).
  std::vector<CrossFront> cross;

  /// The reported board's data.
  const BoardModel& reported() const { return boards.front(); }
};

/// Reads the model of `board` from repo: runs, measurements, pruned configs, failures and
/// datasets of `board` and of every other board with measurements, the workloads measured,
/// and the derived fronts and plots. A board without any data gives an empty BoardModel
/// (write_report refuses it, the HTML view shows it empty). Throws db::DbError when the DB
/// cannot be read and std::invalid_argument when a workload names an unknown front objective.
ReportModel load_report_model(const db::Repository& repo, const std::string& board);

}  // namespace flowtune::reports
