#include "tuner/constraint_domination.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace flowtune {

double constraint_violation(const db::MeasuredConfig& mc,
                            const std::vector<std::pair<Objective, double>>& constraints) {
  double violation = 0;
  for (const auto& [figure, max] : constraints) {
    const double v = mc.value(figure.name);
    if (std::isnan(v))
      violation += 1;
    else if (v > max)
      violation += (v - max) / std::max(std::fabs(max), 1e-12);
  }
  return violation;
}

std::vector<double> constraint_slacks(
    const db::MeasuredConfig& mc, const std::vector<std::pair<Objective, double>>& constraints) {
  std::vector<double> out;
  for (const auto& [figure, max] : constraints)
    out.push_back((mc.value(figure.name) - max) / std::max(std::fabs(max), 1e-12));
  return out;
}

std::vector<double> constrained_objectives(
    const db::MeasuredConfig& mc, const std::vector<Objective>& objectives,
    const std::vector<std::pair<Objective, double>>& constraints) {
  const double violation = constraint_violation(mc, constraints);
  std::vector<double> out;
  for (const Objective& obj : objectives) {
    const double v = oriented_value(mc, obj);
    out.push_back(violation > 0   ? kInfeasible + violation
                  : std::isnan(v) ? std::numeric_limits<double>::infinity()
                                  : v);
  }
  return out;
}

Observation known_infeasible_observation(std::size_t point, std::size_t n_objectives,
                                         const std::vector<double>& slack) {
  double violation = 0;
  for (double v : slack)
    if (v > 0) violation += v;
  return {point,
          Outcome::measured,
          std::vector<double>(n_objectives, kInfeasible + violation),
          {},
          slack};
}

}  // namespace flowtune
