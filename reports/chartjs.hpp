// Chart.js for index.html: found on this machine (Debian's libjs-chart.js) and inlined, so
// the page works offline.
#pragma once

#include <string>

namespace flowtune::reports {

/// Path of the Chart.js UMD bundle to inline: $FLOWTUNE_CHARTJS when set (empty or a missing
/// file = none, for tests), else the file CMake found at configure time, else the first of
/// chart.umd.min.js, chart.umd.js, chart.min.js, Chart.min.js in /usr/share/javascript/chart.js.
/// Returns "" when none is a readable file; never throws.
std::string find_chartjs();

/// The text of the file at path; "" when it cannot be read. Never throws.
std::string read_chartjs(const std::string& path);

/// The <script> element that inlines `source` (Chart.js code) with its licence notice;
/// "</script" inside the code is written "<\/script" (case-insensitive).
std::string chartjs_script(const std::string& source);

}  // namespace flowtune::reports
