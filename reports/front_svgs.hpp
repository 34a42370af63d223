// The SVG plots of `tune report`: fronts of the reported board drawn by reports/svg_plot.hpp.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "reports/report_model.hpp"

namespace flowtune::reports {

/// A file of the report: name inside the report folder and its text.
struct ReportFile {
  std::string name;
  std::string text;
};

/// "pareto_<objectives>.svg" of a front, "time_ms" written "time" (pareto_time_aepe.svg).
std::string front_svg_name(const DatasetFront& f);

/// The plot file of each of model.fronts (same order; "" for a front of fewer than two
/// objectives): front_svg_name(f) for the first front of those objectives (the dataset with
/// most measurements), then "pareto_<objectives>_<workload>_<dataset>.svg" (characters other
/// than letters and digits written '_'), so that every dataset and workload has its own plot.
std::vector<std::string> front_svg_names(const ReportModel& model);

/// "cross_front_<k+1>.svg", the plot of the k-th cross-algorithm front.
std::string cross_svg_name(std::size_t k);

/// The plots of the reported board, in this order: cross_front_K.svg per cross-algorithm
/// front; front_svg_names(model) per front with at least two objectives; pareto_time_energy.svg of
/// the first front when it has energy. Each plot shows all configs of its front's dataset and
/// workload (grey) and their front over the plot's two objectives (red).
std::vector<ReportFile> front_svgs(const ReportModel& model);

}  // namespace flowtune::reports
