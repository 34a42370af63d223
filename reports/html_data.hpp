// The data of index.html's plots: the report model as JSON for reports/html/report.js.
#pragma once

#include <string>

#include "reports/report_model.hpp"

namespace flowtune::reports {

/// JSON text {"board", "boards": [{"board", "datasets": [{"dataset", "workload", "points":
/// [{"id", "label", "variant", "precision", "tunables", "params", "clock_mhz", "v": {figure:
/// value or null}}], "plots": [{"x", "y": {"name", "unit", "minimize"}, "front": [ids]}]}]}]}
/// of every board view of the model, in order. Safe inside a <script> element: every '<' is
/// written \u003c; invalid UTF-8 becomes U+FFFD.
std::string html_data_json(const ReportModel& model);

}  // namespace flowtune::reports
