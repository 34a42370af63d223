#include "reports/cross_front.hpp"

#include <algorithm>
#include <sstream>

#include "reports/text_format.hpp"

namespace flowtune::reports {

std::vector<CrossFront> cross_algorithm_fronts(const db::Repository& repo,
                                               const std::vector<db::MeasuredConfig>& measured,
                                               const std::vector<std::string>& datasets) {
  std::vector<CrossFront> out;
  for (const std::string& dataset : datasets) {
    CrossFront f;
    f.dataset = dataset;
    for (const auto& mc : measured) {
      if (mc.measurement.dataset != dataset) continue;
      f.measured.push_back(mc);
      if (std::find(f.workloads.begin(), f.workloads.end(), mc.config.workload) ==
          f.workloads.end())
        f.workloads.push_back(mc.config.workload);
    }
    if (f.workloads.size() < 2) continue;
    std::vector<std::vector<Objective>> all;
    for (const std::string& w : f.workloads)
      all.push_back(objectives_of(workload_or_default(repo, w)));
    for (const Objective& o : all.front()) {
      const bool shared =
          std::all_of(all.begin(), all.end(), [&](const std::vector<Objective>& os) {
            return std::any_of(os.begin(), os.end(), [&](const Objective& x) {
              return x.name == o.name && x.minimize == o.minimize;
            });
          });
      if (shared) f.objectives.push_back(o);
    }
    if (f.objectives.size() < 2) continue;
    f.front = pareto_configs(f.measured, f.objectives);
    for (const std::string& w : f.workloads)
      f.on_front.push_back(std::size_t(
          std::count_if(f.front.begin(), f.front.end(),
                        [&](const db::MeasuredConfig& mc) { return mc.config.workload == w; })));
    out.push_back(std::move(f));
  }
  return out;
}

std::string cross_front_md(const CrossFront& f, const std::string& svg_file) {
  std::ostringstream s;
  std::string axes, workloads;
  for (const Objective& o : f.objectives) axes += (axes.empty() ? "" : " vs ") + o.name;
  for (std::size_t i = 0; i < f.workloads.size(); ++i)
    workloads +=
        (i ? ", " : "") + detail::md_cell(f.workloads[i]) + " " + std::to_string(f.on_front[i]);
  s << "\n## Cross-algorithm front, dataset " << detail::md_cell(f.dataset) << " ("
    << f.measured.size() << " configs of " << f.workloads.size() << " workloads)\n\n"
    << "![cross-algorithm front, " << axes << "](" << svg_file << ")\n\n"
    << "Configs on the front per workload: " << workloads << ".\n\n"
    << "| workload | label | params | time ms";
  for (const Objective& o : f.objectives)
    if (o.name != "time_ms")
      s << " | " << detail::md_cell(o.name)
        << (o.unit.empty() ? "" : " " + detail::md_cell(o.unit));
  s << " |\n|---|---|---|---:";
  for (const Objective& o : f.objectives)
    if (o.name != "time_ms") s << "|---:";
  s << "|\n";
  for (const auto& mc : f.front) {
    s << "| " << detail::md_cell(mc.config.workload) << " | " << detail::md_cell(mc.config.label)
      << " | " << detail::md_cell(db::params_json(mc.config.params)) << " | "
      << detail::fixed(mc.measurement.time_ms_median, 3);
    for (const Objective& o : f.objectives)
      if (o.name != "time_ms") s << " | " << detail::fixed(mc.value(o.name), 4);
    s << " |\n";
  }
  return s.str();
}

}  // namespace flowtune::reports
