// The derived parts of the report model: fronts of a dataset and the plots of the HTML view.
#include <set>
#include <utility>

#include "reports/report_model.hpp"

namespace flowtune::reports {

DatasetFront make_dataset_front(const std::string& dataset, const db::WorkloadRow& workload,
                                std::vector<db::MeasuredConfig> measured) {
  DatasetFront f;
  f.dataset = dataset;
  f.workload = workload;
  f.measured = std::move(measured);
  f.objectives = objectives_of(f.workload, f.measured);
  f.front = pareto_configs(f.measured, f.objectives);
  for (const auto& mc : f.measured) f.has_energy = f.has_energy || mc.measurement.energy_mj;
  if (f.has_energy) {
    const Objective time = resolve_objective(f.workload, "time");
    const Objective energy = resolve_objective(f.workload, "energy");
    f.time_energy = pareto_configs(f.measured, {time, energy});
    for (const Objective& o : f.objectives)
      if (o.name != time.name && o.name != energy.name) {
        f.three_objectives = {time, energy, o};
        f.three_objective_front = pareto_configs(f.measured, f.three_objectives);
        break;
      }
  }
  return f;
}

std::vector<Plot> plots_of(const DatasetFront& d) {
  std::vector<std::pair<Objective, Objective>> axes;
  for (std::size_t i = 0; i < d.objectives.size(); ++i)
    for (std::size_t j = i + 1; j < d.objectives.size(); ++j)
      axes.emplace_back(d.objectives[i], d.objectives[j]);
  if (d.has_energy) {
    const Objective time = resolve_objective(d.workload, "time");
    const Objective energy = resolve_objective(d.workload, "energy");
    for (const Objective& o : d.objectives)
      if (o.name != time.name && o.name != energy.name) axes.emplace_back(energy, o);
    axes.emplace_back(time, energy);
  }
  std::vector<Plot> plots;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& [x, y] : axes) {
    if (!seen.insert({x.name, y.name}).second || !seen.insert({y.name, x.name}).second) continue;
    Plot p{x, y, {}};
    for (const auto& mc : pareto_configs(d.measured, {x, y})) p.front.push_back(mc.measurement_id);
    plots.push_back(std::move(p));
  }
  return plots;
}

}  // namespace flowtune::reports
