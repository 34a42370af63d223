#include "tuner/time_budget.hpp"

namespace flowtune {

void PointTimeEstimate::observe(double cost, double wall_s) {
  if (!(cost > 0)) cost = 1;
  if (!(wall_s >= 0)) return;
  observed_s_ += wall_s;
  observed_cost_ += cost;
}

std::optional<double> PointTimeEstimate::seconds(double cost) const {
  if (!(cost > 0)) cost = 1;
  if (observed_cost_ > 0) return observed_s_ / observed_cost_ * cost;
  if (prior_ > 0) return prior_ * cost;
  return std::nullopt;
}

bool point_fits_time_budget(double elapsed_s, double time_budget_s, std::optional<double> point_s) {
  if (!(time_budget_s > 0)) return true;
  if (!point_s) return !past_time_budget(elapsed_s, time_budget_s);
  return elapsed_s + *point_s <= time_budget_s * kTimeBudgetPointsFraction;
}

bool past_time_budget(double elapsed_s, double time_budget_s) {
  return time_budget_s > 0 && elapsed_s >= time_budget_s * kTimeBudgetPointsFraction;
}

}  // namespace flowtune
