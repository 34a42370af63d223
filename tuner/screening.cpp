#include "tuner/screening.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "select/pareto.hpp"

namespace flowtune {

Screening::Screening(double eta) : eta_(eta) {
  if (!(eta > 1)) throw std::invalid_argument("Screening: eta must be > 1");
}

bool Screening::screen(std::size_t point, const std::vector<double>& objectives) {
  screen_[point] = objectives;
  if (std::any_of(objectives.begin(), objectives.end(), [](double v) { return std::isnan(v); }))
    return false;
  std::size_t dominated_by = 0;
  for (const auto& [other, o] : screen_)
    if (other != point && dominates(o, objectives)) ++dominated_by;
  const double allowed = std::ceil(double(screen_.size()) / eta_);
  const bool promote = double(dominated_by) < allowed;
  if (promote) ++n_promoted_;
  return promote;
}

void Screening::full_result(std::size_t point, const std::vector<double>& objectives) {
  full_[point] = objectives;
}

std::vector<double> Screening::surrogate(std::size_t point, double cap) const {
  std::vector<double> out = screen_.at(point);
  for (std::size_t k = 0; k < out.size(); ++k) {
    std::vector<double> ratios;
    for (const auto& [p, full] : full_) {
      const auto it = screen_.find(p);
      if (it == screen_.end() || k >= full.size()) continue;
      const double lo = it->second[k], hi = full[k];
      if (lo > 0 && hi > 0 && lo < cap && hi < cap && std::isfinite(lo) && std::isfinite(hi))
        ratios.push_back(hi / lo);
    }
    if (ratios.empty() || !(out[k] > 0) || !std::isfinite(out[k]) || out[k] >= cap) continue;
    std::nth_element(ratios.begin(), ratios.begin() + long(ratios.size() / 2), ratios.end());
    out[k] *= ratios[ratios.size() / 2];
  }
  return out;
}

}  // namespace flowtune
