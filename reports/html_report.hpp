// The interactive HTML view of the tuning results (index.html of `tune report`): Pareto plots
// drawn by Chart.js inlined from Debian's libjs-chart.js, so the page works offline.
#pragma once

#include <string>

#include "db/repository.hpp"

namespace flowtune::reports {

/// Path of the Chart.js UMD bundle to inline: $FLOWTUNE_CHARTJS when set (empty or a missing
/// file = none, for tests), else the file CMake found at configure time, else the first of
/// chart.umd.min.js, chart.umd.js, chart.min.js, Chart.min.js in /usr/share/javascript/chart.js.
/// Returns "" when none is a readable file; never throws.
std::string find_chartjs();

/// The HTML text of the report: one section per board of the DB with measurements (`board`
/// first, also when it has only pruned configs or failures), per dataset the Pareto plots
/// (every pair of the workload's front objectives, e.g. time_ms vs aepe; energy vs each
/// metric objective and time vs energy when energy was measured; hover shows the config,
/// the front is highlighted, variants and precisions filter by checkboxes), the front
/// configs as a table, and per board the pruned configs by reason and the failures by class.
/// The data is embedded as JSON with every '<' written \u003c; all text from the DB is
/// HTML-escaped. chartjs_source is the Chart.js code to inline ("" = the page says the
/// plots are missing and keeps the tables). A status element, <div id="status">, gets from
/// the page's script data-state ("ok", "error", "no-chartjs"), data-charts, data-points
/// (points drawn, all charts) and data-errors; each plot's <figure> gets data-plotted.
std::string html_report(const db::Repository& repo, const std::string& board,
                        const std::string& chartjs_source);

/// Writes out_dir/index.html (html_report with the Chart.js of find_chartjs(); without it the
/// page carries the tables and a message). Throws std::runtime_error naming the file when it
/// cannot be written.
void write_html_report(const db::Repository& repo, const std::string& board,
                       const std::string& out_dir);

}  // namespace flowtune::reports
