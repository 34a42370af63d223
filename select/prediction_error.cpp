#include "select/prediction_error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace flowtune {
namespace {

void same_length(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size())
    throw std::invalid_argument("prediction error: " + std::to_string(a.size()) + " vs " +
                                std::to_string(b.size()) + " values");
}

// Ranks 1..n, ties get the mean of their ranks.
std::vector<double> ranks(const std::vector<double>& v) {
  std::vector<std::size_t> order(v.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](std::size_t i, std::size_t j) { return v[i] < v[j]; });
  std::vector<double> r(v.size());
  for (std::size_t i = 0; i < order.size();) {
    std::size_t j = i;
    while (j + 1 < order.size() && v[order[j + 1]] == v[order[i]]) ++j;
    const double mean_rank = (double(i) + double(j)) / 2 + 1;
    for (std::size_t k = i; k <= j; ++k) r[order[k]] = mean_rank;
    i = j + 1;
  }
  return r;
}

}  // namespace

double median_abs_log_ratio(const std::vector<double>& predicted,
                            const std::vector<double>& measured) {
  same_length(predicted, measured);
  std::vector<double> e;
  for (std::size_t i = 0; i < predicted.size(); ++i)
    if (std::isfinite(predicted[i]) && std::isfinite(measured[i]) && predicted[i] > 0 &&
        measured[i] > 0)
      e.push_back(std::fabs(std::log(predicted[i] / measured[i])));
  if (e.empty()) return std::numeric_limits<double>::quiet_NaN();
  std::sort(e.begin(), e.end());
  const std::size_t n = e.size();
  return n % 2 ? e[n / 2] : (e[n / 2 - 1] + e[n / 2]) / 2;
}

double spearman(const std::vector<double>& a, const std::vector<double>& b) {
  same_length(a, b);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  if (a.size() < 2) return nan;
  const std::vector<double> ra = ranks(a), rb = ranks(b);
  const double n = double(a.size());
  const double ma = std::accumulate(ra.begin(), ra.end(), 0.0) / n;
  const double mb = std::accumulate(rb.begin(), rb.end(), 0.0) / n;
  double sab = 0, saa = 0, sbb = 0;
  for (std::size_t i = 0; i < ra.size(); ++i) {
    sab += (ra[i] - ma) * (rb[i] - mb);
    saa += (ra[i] - ma) * (ra[i] - ma);
    sbb += (rb[i] - mb) * (rb[i] - mb);
  }
  if (saa == 0 || sbb == 0) return nan;
  return sab / std::sqrt(saa * sbb);
}

}  // namespace flowtune
