// SVG files of the fronts of the reported board.
#include "reports/front_svgs.hpp"

#include <cctype>
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

std::vector<std::string> front_svg_names(const ReportModel& model) {
  const auto slug = [](const std::string& text) {
    std::string out;
    for (char c : text) out += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    return out;
  };
  std::vector<std::string> names;
  std::set<std::string> taken;
  for (const DatasetFront& f : model.fronts) {
    if (f.objectives.size() < 2) {
      names.emplace_back();
      continue;
    }
    const std::string base = front_svg_name(f);
    std::string name = base;
    if (taken.count(name)) {
      const std::string stem =
          base.substr(0, base.size() - 4) + "_" + slug(f.workload.name) + "_" + slug(f.dataset);
      name = stem + ".svg";
      for (int k = 2; taken.count(name); ++k) name = stem + "_" + std::to_string(k) + ".svg";
    }
    taken.insert(name);
    names.push_back(name);
  }
  return names;
}

std::string cross_svg_name(std::size_t k) {
  return "cross_front_" + std::to_string(k + 1) + ".svg";
}

std::vector<ReportFile> front_svgs(const ReportModel& model) {
  std::vector<ReportFile> out;
  for (std::size_t k = 0; k < model.cross.size(); ++k)
    out.push_back({cross_svg_name(k), cross_svg(model.cross[k], model.board)});
  const std::vector<std::string> names = front_svg_names(model);
  for (std::size_t i = 0; i < model.fronts.size(); ++i) {
    const DatasetFront& f = model.fronts[i];
    if (!names[i].empty())
      out.push_back({names[i], front_svg(f, model.board, f.objectives[0], f.objectives[1])});
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
