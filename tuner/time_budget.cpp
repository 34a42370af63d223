#include "tuner/time_budget.hpp"

#include <algorithm>

namespace flowtune {

void PointTimeEstimate::observe(double cost, double wall_s) {
  if (!(cost > 0)) cost = 1;
  if (!(wall_s >= 0)) return;
  s_per_cost_.push_back(wall_s / cost);
}

std::optional<double> PointTimeEstimate::seconds(double cost) const {
  if (!(cost > 0)) cost = 1;
  if (s_per_cost_.size() >= kMinObserved) {
    std::vector<double> r = s_per_cost_;
    const auto mid = r.begin() + std::ptrdiff_t(r.size() / 2);
    std::nth_element(r.begin(), mid, r.end());
    double median = *mid;
    if (r.size() % 2 == 0) median = (median + *std::max_element(r.begin(), mid)) / 2;
    return median * cost;
  }
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
