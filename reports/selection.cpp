// Objectives, Pareto fronts of measured configs and selection of the tuned config.
#include <algorithm>
#include <cmath>
#include <set>
#include <stdexcept>

#include "reports/export_header.hpp"
#include "tuner/pareto.hpp"

namespace flowtune::reports {

Objective parse_objective(const std::string& name) {
  if (name == "time") return Objective::time;
  if (name == "aepe") return Objective::aepe;
  if (name == "energy") return Objective::energy;
  throw std::invalid_argument("unknown objective '" + name + "' (allowed: time, aepe, energy)");
}

std::string objective_name(Objective objective) {
  switch (objective) {
    case Objective::time:
      return "time";
    case Objective::aepe:
      return "aepe";
    case Objective::energy:
      return "energy";
  }
  return "?";
}

double objective_value(const db::MeasuredConfig& config, Objective objective) {
  const db::MeasurementRow& m = config.measurement;
  switch (objective) {
    case Objective::time:
      return m.time_ms_median;
    case Objective::aepe:
      return m.aepe;
    case Objective::energy:
      return m.energy_mj ? *m.energy_mj : std::nan("");
  }
  return std::nan("");
}

std::vector<db::MeasuredConfig> pareto_configs(const std::vector<db::MeasuredConfig>& measured,
                                               Objective x, Objective y) {
  std::vector<std::vector<double>> points;
  points.reserve(measured.size());
  for (const db::MeasuredConfig& mc : measured) {
    points.push_back({objective_value(mc, x), objective_value(mc, y)});
  }
  std::vector<db::MeasuredConfig> front;
  for (std::size_t i : pareto_front(points)) front.push_back(measured[i]);
  return front;
}

db::MeasuredConfig select_config(const std::vector<db::MeasuredConfig>& measured,
                                 Objective objective) {
  if (measured.empty()) throw std::invalid_argument("select_config: no measured configs");
  std::set<std::string> datasets;
  for (const db::MeasuredConfig& mc : measured) datasets.insert(mc.measurement.dataset);
  if (datasets.size() > 1) {
    std::string names;
    for (const std::string& d : datasets) names += (names.empty() ? "" : ", ") + d;
    throw std::invalid_argument("select_config: the measurements span several datasets (" + names +
                                "); select within one dataset");
  }
  if (objective == Objective::energy &&
      std::none_of(measured.begin(), measured.end(),
                   [](const db::MeasuredConfig& mc) { return mc.measurement.energy_mj; })) {
    throw std::invalid_argument(
        "select_config: objective energy, but no measured config has an energy figure (the "
        "board has no energy sensor, or it was not read); use --objective time or aepe");
  }
  const Objective x = objective == Objective::energy ? Objective::energy : Objective::time;
  const std::vector<db::MeasuredConfig> front = pareto_configs(measured, x, Objective::aepe);
  if (front.empty()) {
    throw std::invalid_argument("select_config: no measured config has a finite " +
                                objective_name(x) + " and AEPE");
  }
  const Objective other = objective == Objective::aepe ? Objective::time : Objective::aepe;
  const auto better = [&](const db::MeasuredConfig& a, const db::MeasuredConfig& b) {
    const double oa = objective_value(a, objective), ob = objective_value(b, objective);
    if (oa != ob) return oa < ob;
    const double ta = objective_value(a, other), tb = objective_value(b, other);
    if (ta != tb) return ta < tb;
    return a.measurement_id < b.measurement_id;
  };
  return *std::min_element(front.begin(), front.end(), better);
}

}  // namespace flowtune::reports
