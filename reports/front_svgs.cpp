// SVG files of the fronts of the reported board.
#include "reports/front_svgs.hpp"

#include <set>

#include "reports/svg_plot.hpp"
#include "select/pareto.hpp"

namespace flowtune::reports {

namespace {

std::string axis_label(const Objective& o) {
  return o.name + (o.unit.empty() ? "" : " (" + o.unit + ")");
}

// Scatter of `measured` over (x, y) with their front over (x, y) in red.
std::string scatter(const std::vector<db::MeasuredConfig>& measured, const Objective& x,
                    const Objective& y, const std::string& title) {
  std::vector<double> xs, ys;
  std::vector<std::vector<double>> points;
  for (const auto& mc : measured) {
    xs.push_back(mc.value(x.name));
    ys.push_back(mc.value(y.name));
    points.push_back({oriented_value(mc, x), oriented_value(mc, y)});
  }
  return scatter_svg(xs, ys, pareto_front(points), title, axis_label(x), axis_label(y));
}

std::string front_svg(const DatasetFront& f, const std::string& board, const Objective& x,
                      const Objective& y) {
  return scatter(f.measured, x, y,
                 "board " + board + ", " + f.dataset + ": " + x.name + " vs " + y.name);
}

std::string cross_svg(const CrossFront& f, const std::string& board) {
  std::string workloads;
  for (const std::string& w : f.workloads) workloads += (workloads.empty() ? "" : ", ") + w;
  return scatter(
      f.measured, f.objectives[0], f.objectives[1],
      "board " + board + ", " + f.dataset + ": cross-algorithm front (" + workloads + ")");
}

}  // namespace

std::string front_svg_name(const DatasetFront& f) {
  std::string name = "pareto";
  for (const Objective& o : f.objectives)
    name += "_" + (o.name == "time_ms" ? std::string("time") : o.name);
  return name + ".svg";
}

std::string cross_svg_name(std::size_t k) {
  return "cross_front_" + std::to_string(k + 1) + ".svg";
}

std::vector<ReportFile> front_svgs(const ReportModel& model) {
  std::vector<ReportFile> out;
  for (std::size_t k = 0; k < model.cross.size(); ++k)
    out.push_back({cross_svg_name(k), cross_svg(model.cross[k], model.board)});
  std::set<std::string> plotted;  // one plot per set of objectives: the first front
  for (const DatasetFront& f : model.fronts) {
    if (f.objectives.size() >= 2 && plotted.insert(front_svg_name(f)).second)
      out.push_back(
          {front_svg_name(f), front_svg(f, model.board, f.objectives[0], f.objectives[1])});
  }
  if (!model.fronts.empty() && model.fronts.front().has_energy) {
    const DatasetFront& f = model.fronts.front();
    out.push_back(
        {"pareto_time_energy.svg", front_svg(f, model.board, resolve_objective(f.workload, "time"),
                                             resolve_objective(f.workload, "energy"))});
  }
  return out;
}

}  // namespace flowtune::reports
