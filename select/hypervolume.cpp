#include "select/hypervolume.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace flowtune {
namespace {

// Points all strictly inside the reference box, dimension d = reference.size().
double slice(std::vector<std::vector<double>>& points, const std::vector<double>& ref,
             std::size_t d) {
  if (points.empty()) return 0;
  if (d == 1) {
    double lo = ref[0];
    for (const auto& p : points) lo = std::min(lo, p[0]);
    return ref[0] - lo;
  }
  const std::size_t k = d - 1;  // the sliced objective
  std::sort(
      points.begin(), points.end(),
      [k](const std::vector<double>& a, const std::vector<double>& b) { return a[k] < b[k]; });
  double volume = 0;
  std::vector<std::vector<double>> active;
  for (std::size_t i = 0; i < points.size(); ++i) {
    active.push_back(points[i]);
    const double top = i + 1 < points.size() ? points[i + 1][k] : ref[k];
    const double depth = top - points[i][k];
    if (depth <= 0) continue;
    std::vector<std::vector<double>> sub = active;
    volume += depth * slice(sub, ref, k);
  }
  return volume;
}

}  // namespace

double hypervolume(std::vector<std::vector<double>> points, const std::vector<double>& reference) {
  std::vector<std::vector<double>> inside;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != reference.size())
      throw std::invalid_argument("hypervolume: point " + std::to_string(i) + " has " +
                                  std::to_string(points[i].size()) + " objectives, the reference " +
                                  std::to_string(reference.size()));
    bool ok = true;
    for (std::size_t k = 0; k < reference.size(); ++k)
      ok = ok && !std::isnan(points[i][k]) && points[i][k] < reference[k];
    if (ok) inside.push_back(std::move(points[i]));
  }
  if (reference.empty()) return 0;
  return slice(inside, reference, reference.size());
}

}  // namespace flowtune
