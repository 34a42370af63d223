// The Pareto report of a board, written from the DB only (CSV + Markdown + SVG).
#pragma once

#include <string>

#include "db/repository.hpp"
#include "reports/pareto_table.hpp"

namespace flowtune::reports {

/// Writes the report of `board` into out_dir (created with its parents when missing):
///  - runs.csv          every run of the board with its environment and status;
///  - measurements.csv  every measured config: all config and measurement columns, whether
///                      it is on the time/AEPE front, and time_ms/aepe/aae_deg per sequence;
///  - pruned.csv        every pruned config with its reason;
///  - pareto.csv        per dataset, the front over (time, AEPE) and, where energy was
///                      measured, over (time, energy);
///  - pareto_time_aepe.svg (and pareto_time_energy.svg with energy) for the board's main
///                      dataset (the one with the most measurements);
///  - report.md         board, run environments, Pareto tables, best config per objective,
///                      counts of measured and pruned configs.
/// Throws std::runtime_error naming the DB when the board has no run, measurement or
/// pruned config, and naming out_dir (or the file) when it cannot be created or written.
void write_report(const db::Repository& repo, const std::string& board, const std::string& out_dir);

}  // namespace flowtune::reports
