// The interactive HTML view of the tuning results (index.html of `tune report`): Pareto plots
// drawn by Chart.js inlined from Debian's libjs-chart.js, so the page works offline.
#pragma once

#include <string>

#include "db/repository.hpp"
#include "reports/chartjs.hpp"
#include "reports/report_model.hpp"

namespace flowtune::reports {

/// The HTML text of the report: one <section class="board"> per board of the model
/// (model.board first, also when it has only pruned configs or failures) holding the HTML of
/// every report section (reports/sections/section.hpp): the board's counts, per dataset the
/// Pareto plots (every pair of the workload's front objectives, e.g. time_ms vs aepe; energy
/// vs each metric objective and time vs energy when energy was measured; hover shows the
/// config, the front is highlighted, variants and precisions filter by checkboxes) and the
/// front configs as a table, the pruned configs by reason and the failures by class.
/// The plots' data is embedded as JSON (reports/html_data.hpp); all text from the DB is
/// HTML-escaped. chartjs_source is the Chart.js code to inline ("" = the page says the plots
/// are missing and keeps the tables). A status element, <div id="status">, gets from the
/// page's script data-state ("ok", "error", "no-chartjs"), data-charts, data-points (points
/// drawn, all charts) and data-errors; each plot's <figure> gets data-plotted.
std::string html_report(const ReportModel& model, const std::string& chartjs_source);

/// html_report of load_report_model(repo, board). Throws what load_report_model throws.
std::string html_report(const db::Repository& repo, const std::string& board,
                        const std::string& chartjs_source);

/// Writes out_dir/index.html (html_report with the Chart.js of find_chartjs(); without it the
/// page carries the tables and a message). Throws std::runtime_error naming the file when it
/// cannot be written.
void write_html_report(const ReportModel& model, const std::string& out_dir);

}  // namespace flowtune::reports
