// Report sections: the parts of report.md and of each board of index.html, each rendered from
// the report model (reports/report_model.hpp) by its own unit in this folder. report_sections()
// lists them once, in page order; the Markdown and HTML renderers walk that list.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/report_model.hpp"

namespace flowtune::reports {

/// One section of the report. Either renderer may be absent (nullptr): the section is then
/// not part of that view.
struct Section {
  /// Short name, e.g. "runs" or "pruned".
  const char* name = "";
  /// Markdown text for report.md of model.board (model.reported()); starts with the blank
  /// line that separates it from the previous section, where it needs one.
  std::string (*markdown)(const ReportModel& model) = nullptr;
  /// HTML inside the <section class="board"> of `board`; board_index is the board's index in
  /// model.boards (element ids). Every DB text is HTML-escaped.
  std::string (*html)(const BoardModel& board, std::size_t board_index) = nullptr;
};

/// The sections in page order: summary, overview, runs, fronts per dataset, cross-algorithm fronts,
/// predicted vs measured, pruned configs by reason, failures by class.
const std::vector<Section>& report_sections();

/// Title, database, counts and files of report.md; the board heading and counts in HTML.
Section summary_section();
/// The first screen: what was tuned, board, when, command, budget, strategy, and the pick of
/// the latest run's request with its speed-up and runs per second (BoardModel::answer).
Section overview_section();
/// report.md: the runs of the board as a table.
Section runs_section();
/// Per dataset: Markdown per workload (front tables, best config per objective, budget
/// table); HTML the plots' placeholder and the front table.
Section dataset_fronts_section();
/// report.md: the cross-algorithm fronts (reports/cross_front.hpp).
Section cross_fronts_section();
/// `tune report --predicted`: predicted next to measured per config, with the error and its
/// summary (BoardModel::predicted; empty without prediction files).
Section predicted_section();
/// Pruned configs grouped by reason (HTML: with up to three example labels).
Section pruned_section();
/// Failures: a table in Markdown, grouped by class in HTML.
Section failures_section();

}  // namespace flowtune::reports
