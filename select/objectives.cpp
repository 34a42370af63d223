// Objectives, Pareto fronts of measured configs and selection of the tuned config.
#include "select/objectives.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "select/pareto.hpp"

namespace flowtune {
namespace {

const Objective kTime{"time_ms", "ms", true};
const Objective kEnergy{"energy_mj", "mJ", true};
const Objective kPower{"power_w", "W", true};
const Objective kEnergyDelay{"edp_mj_ms", "mJ ms", true};

}  // namespace

bool is_energy_figure(const std::string& name) {
  return name == "energy" || name == kEnergy.name || name == "power" || name == kPower.name ||
         name == "edp" || name == kEnergyDelay.name;
}

Objective resolve_objective(const db::WorkloadRow& workload, const std::string& name) {
  if (name == "time" || name == kTime.name) return kTime;
  if (name == "energy" || name == kEnergy.name) return kEnergy;
  if (name == "power" || name == kPower.name) return kPower;
  if (name == "edp" || name == kEnergyDelay.name) return kEnergyDelay;
  std::string allowed = "time, energy, power, edp";
  for (const db::MetricSpecRow& m : workload.metrics) {
    if (m.name == name) return {m.name, m.unit, m.minimize};
    allowed += ", " + m.name;
  }
  throw std::invalid_argument("unknown objective '" + name + "' for workload '" + workload.name +
                              "' (allowed: " + allowed + ")");
}

db::WorkloadRow workload_or_default(const db::Repository& repo, const std::string& name) {
  try {
    return repo.workload(name);
  } catch (const db::DbError&) {
    db::WorkloadRow w;  // a DB written before the workload was recorded: time only
    w.name = name;
    w.work_unit = "unit";
    w.front_objectives = {"time_ms"};
    return w;
  }
}

std::vector<Objective> objectives_of(const db::WorkloadRow& workload) {
  std::vector<Objective> out;
  for (const std::string& name : workload.front_objectives)
    out.push_back(resolve_objective(workload, name));
  if (out.empty()) out.push_back(kTime);
  return out;
}

std::vector<std::string> front_objective_names(
    const db::WorkloadRow& workload, const std::function<bool(const std::string&)>& measured) {
  std::vector<std::string> out;
  for (const std::string& name : workload.front_objectives) {
    const std::string stand_in = "ref_" + name;
    const bool has_stand_in =
        std::any_of(workload.metrics.begin(), workload.metrics.end(),
                    [&](const db::MetricSpecRow& m) { return m.name == stand_in; });
    out.push_back(!measured(name) && has_stand_in ? stand_in : name);
  }
  return out;
}

std::vector<Objective> objectives_of(const db::WorkloadRow& workload,
                                     const std::vector<db::MeasuredConfig>& measured) {
  db::WorkloadRow w = workload;
  w.front_objectives = front_objective_names(workload, [&](const std::string& name) {
    return std::any_of(measured.begin(), measured.end(),
                       [&](const db::MeasuredConfig& mc) { return std::isfinite(mc.value(name)); });
  });
  return objectives_of(w);
}

double oriented_value(const db::MeasuredConfig& mc, const Objective& o) {
  const double v = mc.value(o.name);
  return o.minimize ? v : -v;
}

std::vector<db::MeasuredConfig> pareto_configs(const std::vector<db::MeasuredConfig>& measured,
                                               const std::vector<Objective>& objectives) {
  std::vector<std::vector<double>> points;
  points.reserve(measured.size());
  for (const db::MeasuredConfig& mc : measured) {
    std::vector<double> p;
    for (const Objective& o : objectives) p.push_back(oriented_value(mc, o));
    points.push_back(std::move(p));
  }
  std::vector<db::MeasuredConfig> front;
  for (std::size_t i : pareto_front(points)) front.push_back(measured[i]);
  return front;
}

std::vector<db::MeasuredConfig> satisfying(const std::vector<db::MeasuredConfig>& measured,
                                           const std::vector<Constraint>& constraints,
                                           const db::WorkloadRow& workload) {
  std::vector<Objective> figures;
  for (const Constraint& c : constraints) figures.push_back(resolve_objective(workload, c.name));
  std::vector<db::MeasuredConfig> out;
  for (const db::MeasuredConfig& mc : measured) {
    bool ok = true;
    for (std::size_t k = 0; k < constraints.size() && ok; ++k)
      ok = mc.value(figures[k].name) <= constraints[k].max;  // NaN: false
    if (ok) out.push_back(mc);
  }
  return out;
}

db::MeasuredConfig select_config(const std::vector<db::MeasuredConfig>& measured,
                                 const Objective& objective, const std::vector<Objective>& front) {
  if (measured.empty()) throw std::invalid_argument("select_config: no measured configs");
  std::set<std::string> datasets;
  for (const db::MeasuredConfig& mc : measured) datasets.insert(mc.measurement.dataset);
  if (datasets.size() > 1) {
    std::string names;
    for (const std::string& d : datasets) names += (names.empty() ? "" : ", ") + d;
    throw std::invalid_argument("select_config: the measurements span several datasets (" + names +
                                "); select within one dataset");
  }
  if (std::none_of(measured.begin(), measured.end(), [&](const db::MeasuredConfig& mc) {
        return std::isfinite(mc.value(objective.name));
      })) {
    throw std::invalid_argument(
        "select_config: no measured config has a " + objective.name + " figure" +
        (objective.name == kEnergy.name ? " (the board has no energy sensor, or it was not read)"
                                        : ""));
  }
  std::vector<Objective> axes{objective};
  for (const Objective& o : front)
    if (o.name != objective.name && o.name != kTime.name) axes.push_back(o);
  const std::vector<db::MeasuredConfig> candidates = pareto_configs(measured, axes);
  std::vector<Objective> ties;
  for (const Objective& o : front)
    if (o.name != objective.name) ties.push_back(o);
  const auto better = [&](const db::MeasuredConfig& a, const db::MeasuredConfig& b) {
    const double oa = oriented_value(a, objective), ob = oriented_value(b, objective);
    if (oa != ob) return oa < ob;
    for (const Objective& o : ties) {
      const double ta = oriented_value(a, o), tb = oriented_value(b, o);
      if (ta != tb) return ta < tb;
    }
    return a.measurement_id < b.measurement_id;
  };
  return *std::min_element(candidates.begin(), candidates.end(), better);
}

}  // namespace flowtune
