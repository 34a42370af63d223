// cross_algorithm_fronts: the front over the objectives shared by a dataset's workloads.
#include "reports/cross_front.hpp"

#include <algorithm>

namespace flowtune::reports {

std::vector<CrossFront> cross_algorithm_fronts(
    const std::map<std::string, db::WorkloadRow>& workloads,
    const std::vector<db::MeasuredConfig>& measured, const std::vector<std::string>& datasets) {
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
    for (const std::string& w : f.workloads) all.push_back(objectives_of(workloads.at(w)));
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

}  // namespace flowtune::reports
