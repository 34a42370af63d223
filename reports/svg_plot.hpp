// A minimal SVG scatter plot for Pareto reports (no plotting library needed).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace flowtune::reports {

/// "Nice" axis ticks (1, 2 or 5 times a power of ten, Heckbert, "Nice numbers for graph
/// labels", Graphics Gems 1990) covering [lo, hi] with about `target` intervals; returns the
/// tick values, first <= lo and last >= hi. lo == hi is widened around the value.
std::vector<double> nice_ticks(double lo, double hi, int target = 5);

/// SVG text (720x480 px) of a scatter of (x[i], y[i]): every point grey, the points whose
/// indices are in `front` red and joined by a step line, linear axes with ticks, tick labels,
/// axis labels, a title and a legend. Points with a non-finite coordinate are skipped; with
/// no finite point the plot says "no data". x and y must have the same size (else
/// std::invalid_argument).
std::string scatter_svg(const std::vector<double>& x, const std::vector<double>& y,
                        const std::vector<std::size_t>& front, const std::string& title,
                        const std::string& x_label, const std::string& y_label);

}  // namespace flowtune::reports
