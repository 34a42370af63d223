// report.md of `tune report`: the Markdown view of the report model.
#pragma once

#include <string>

#include "reports/report_model.hpp"

namespace flowtune::reports {

/// The text of report.md for model.board: the Markdown of every report section that has one
/// (reports/sections/section.hpp), in list order. DB text goes through detail::md_cell.
std::string markdown_report(const ReportModel& model);

}  // namespace flowtune::reports
