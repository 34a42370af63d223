// Pareto-front computation (minimisation), header-only so that reports/ can use it without
// depending on the tuner library.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune {

/// True iff a Pareto-dominates b when minimising: a <= b in every objective and a < b in at
/// least one. Both must have the same size; a NaN in either makes the answer false.
inline bool dominates(const std::vector<double>& a, const std::vector<double>& b) {
  bool strictly_better = false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    if (!(a[k] <= b[k])) return false;
    if (a[k] < b[k]) strictly_better = true;
  }
  return strictly_better;
}

/// Indices of the non-dominated points of `points` (n points x d objectives, all minimised),
/// sorted by objective 0, then objective 1, ..., then index. A point is dominated iff another
/// point is <= in every objective and < in at least one (Deb, "Multi-objective optimization
/// using evolutionary algorithms", 2001, def. 2.5); exact duplicates of a front point are
/// all on the front. Points with a NaN objective are never on the front and dominate
/// nothing. O(n^2 d), which is fine for the thousands of configs of a space.
/// Throws std::invalid_argument when the points do not all have the same dimension.
inline std::vector<std::size_t> pareto_front(const std::vector<std::vector<double>>& points) {
  if (points.empty()) return {};
  const std::size_t d = points.front().size();
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].size() != d) {
      throw std::invalid_argument("pareto_front: point " + std::to_string(i) + " has " +
                                  std::to_string(points[i].size()) + " objectives, point 0 has " +
                                  std::to_string(d));
    }
  }
  const auto has_nan = [](const std::vector<double>& p) {
    return std::any_of(p.begin(), p.end(), [](double x) { return std::isnan(x); });
  };
  std::vector<std::size_t> front;
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (has_nan(points[i])) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < points.size() && !dominated; ++j) {
      dominated = j != i && dominates(points[j], points[i]);
    }
    if (!dominated) front.push_back(i);
  }
  std::sort(front.begin(), front.end(), [&](std::size_t a, std::size_t b) {
    if (points[a] != points[b]) return points[a] < points[b];  // lexicographic
    return a < b;
  });
  return front;
}

}  // namespace flowtune
