// The Pareto report of a board (CSV + Markdown + SVG + HTML), rendered from the report model
// (reports/report_model.hpp) that is read from the DB once.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"
#include "reports/pareto_table.hpp"

namespace flowtune::reports {

/// Writes the report of `board` into out_dir (created with its parents when missing):
///  - runs.csv          every run of the board with its workload, environment and status;
///  - measurements.csv  every measured config: config, one column per parameter, the
///                      measurement, one column per metric, whether it is on its dataset's
///                      front, and time and metrics per item (sequence, graph);
///  - pruned.csv, failures.csv  pruned configs with their reason, failures with class/message;
///  - pareto.csv        per dataset and workload, the front over the workload's objectives
///                      (from the DB's workloads table, e.g. time_ms and aepe) and, with
///                      energy, (time, energy); per dataset measured by several workloads, the
///                      cross-algorithm front over their shared objectives (front "cross_...",
///                      reports/cross_front.hpp);
///  - cross_front_K.svg the K-th cross-algorithm front (all workloads' configs of a dataset);
///  - pareto_<x>_<y>.svg the front over the first two front objectives (e.g.
///                      pareto_time_aepe.svg) of the dataset with the most measurements, and
///                      pareto_<x>_<y>_<workload>_<dataset>.svg of every other dataset and
///                      workload (reports/front_svgs.hpp); pareto_time_energy.svg with energy;
///  - report.md         board, runs, Pareto tables per dataset and workload, best config per
///                      objective, the cross-algorithm fronts, pruned
///                      configs grouped by reason, failures;
///  - with prediction_files (`tune predict --out` files of this board): report.md and
///                      index.html show predicted next to measured per config, with the error
///                      (reports/predictions.hpp);
///  - index.html        interactive Pareto plots per board and dataset, front tables, pruned
///                      configs by reason, failures by class (reports/html_report.hpp).
/// report.md and index.html are made of the report sections (reports/sections/section.hpp).
/// Throws std::runtime_error naming the DB when the board has no run, measurement or
/// pruned config, naming out_dir (or the file) when it cannot be created or written, and
/// naming a prediction file that cannot be read or predicts another board.
void write_report(const db::Repository& repo, const std::string& board, const std::string& out_dir,
                  const std::vector<std::string>& prediction_files = {});

}  // namespace flowtune::reports
