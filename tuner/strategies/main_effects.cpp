#include "tuner/strategies/main_effects.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "tuner/constraint_domination.hpp"

namespace flowtune::strategies {

std::vector<std::size_t> dimension_levels(const SearchSpace& space) {
  std::vector<std::size_t> n;
  for (const SpaceDimension& d : space.dimensions()) n.push_back(d.labels.size() + 1);
  return n;
}

PointLevels point_levels(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                         std::size_t point) {
  const std::vector<int> c = space.coords(point);
  PointLevels l(n_levels.size());
  for (std::size_t d = 0; d < n_levels.size(); ++d)
    l[d] = c[d] < 0 ? n_levels[d] - 1 : std::size_t(c[d]);
  return l;
}

std::size_t MainEffects::level(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                               std::size_t point, std::size_t d) {
  const int c = space.coord(point, d);
  return c < 0 ? n_levels[d] - 1 : std::size_t(c);
}

double MainEffects::predict(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                            std::size_t point) const {
  return predict(point_levels(space, n_levels, point));
}

double MainEffects::predict(const PointLevels& levels) const {
  double v = mean;
  for (std::size_t d = 0; d < effect.size(); ++d) v += effect[d][levels[d]];
  return v;
}

namespace {
// Each point's levels, computed once (the space's coordinates of the points).
struct LevelRows {
  std::vector<PointLevels> rows;
  std::vector<const PointLevels*> pointers;
  LevelRows(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
            const std::vector<std::size_t>& points) {
    rows.reserve(points.size());
    for (std::size_t p : points) rows.push_back(point_levels(space, n_levels, p));
    for (const PointLevels& r : rows) pointers.push_back(&r);
  }
};
}  // namespace

MainEffects fit_main_effects(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                             const std::vector<std::size_t>& points, const std::vector<double>& y) {
  return fit_main_effects(n_levels, LevelRows(space, n_levels, points).pointers, y);
}

MainEffects fit_main_effects(const std::vector<std::size_t>& n_levels,
                             const std::vector<const PointLevels*>& levels,
                             const std::vector<double>& y) {
  MainEffects m;
  m.effect.resize(n_levels.size());
  for (std::size_t d = 0; d < n_levels.size(); ++d) m.effect[d].assign(n_levels[d], 0.0);
  if (levels.empty()) return m;
  m.mean = std::accumulate(y.begin(), y.end(), 0.0) / double(y.size());
  std::vector<double> residual(y.size());
  for (std::size_t i = 0; i < y.size(); ++i) residual[i] = y[i] - m.mean;
  for (int sweep = 0; sweep < kBackfitSweeps; ++sweep)
    for (std::size_t d = 0; d < n_levels.size(); ++d) {
      std::vector<double> sum(n_levels[d], 0.0), count(n_levels[d], 0.0);
      for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::size_t l = (*levels[i])[d];
        sum[l] += residual[i] + m.effect[d][l];
        count[l] += 1;
      }
      std::vector<double> next(n_levels[d]);
      for (std::size_t l = 0; l < next.size(); ++l) next[l] = sum[l] / (count[l] + kEffectShrink);
      for (std::size_t i = 0; i < levels.size(); ++i) {
        const std::size_t l = (*levels[i])[d];
        residual[i] += m.effect[d][l] - next[l];
      }
      m.effect[d] = std::move(next);
    }
  return m;
}

double FigureModel::fitted(double raw, bool slack) const {
  const double v = slack ? 1 + raw : raw;
  if (log_space) return v > 0 ? std::log(v) : -std::numeric_limits<double>::infinity();
  return slack ? v - 1 : v;
}

double FigureModel::predicted_sd(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                                 std::size_t point) const {
  return predicted_sd(point_levels(space, n_levels, point));
}

double FigureModel::predicted_sd(const PointLevels& levels) const {
  double spread = 1;
  for (std::size_t d = 0; d < count.size(); ++d)
    spread += 1 / (count[d][levels[d]] + kEffectShrink);
  return residual_sd * std::sqrt(spread);
}

FigureModel fit_figure(const SearchSpace& space, const std::vector<std::size_t>& n_levels,
                       const std::vector<std::size_t>& candidates, const std::vector<double>& raw,
                       bool slack) {
  std::vector<std::size_t> finite;  // only the points that enter the fit need their levels
  std::vector<double> finite_raw;
  for (std::size_t i = 0; i < candidates.size(); ++i)
    if (std::isfinite(raw[i])) {
      finite.push_back(candidates[i]);
      finite_raw.push_back(raw[i]);
    }
  return fit_figure(n_levels, LevelRows(space, n_levels, finite).pointers, finite_raw, slack);
}

FigureModel fit_figure(const std::vector<std::size_t>& n_levels,
                       const std::vector<const PointLevels*>& candidates,
                       const std::vector<double>& raw, bool slack) {
  std::vector<const PointLevels*> points;
  std::vector<double> y;
  bool positive = true;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (!std::isfinite(raw[i])) continue;
    points.push_back(candidates[i]);
    y.push_back(slack ? 1 + raw[i] : raw[i]);
    positive = positive && y.back() > 0;
  }
  FigureModel f;
  if (points.size() < kMinFitPoints) return f;
  f.log_space = positive;
  for (double& v : y) v = positive ? std::log(v) : (slack ? v - 1 : v);
  f.lo = *std::min_element(y.begin(), y.end());
  f.hi = *std::max_element(y.begin(), y.end());
  f.model = fit_main_effects(n_levels, points, y);
  f.valid = true;
  f.count.resize(n_levels.size());
  for (std::size_t d = 0; d < n_levels.size(); ++d) f.count[d].assign(n_levels[d], 0.0);
  double ss = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {
    const double r = y[i] - f.model.predict(*points[i]);
    ss += r * r;
    for (std::size_t d = 0; d < n_levels.size(); ++d) f.count[d][(*points[i])[d]] += 1;
  }
  f.residual_sd = std::sqrt(ss / double(points.size()));
  return f;
}

double measured_value(const Observation& o, std::size_t k) {
  if (k < o.values.size()) return o.values[k];
  return o.objectives[k] < kInfeasible ? o.objectives[k] : std::numeric_limits<double>::quiet_NaN();
}

bool usable_observation(const Observation* o, std::size_t n_objectives) {
  return o && o->outcome == Outcome::measured &&
         std::max(o->values.size(), o->objectives.size()) >= n_objectives;
}

std::vector<double> parego_weights(std::size_t n_objectives, std::mt19937_64& rng) {
  std::vector<double> weight(n_objectives, 1.0);
  if (n_objectives > 1) {
    std::exponential_distribution<double> e(1.0);
    double sum = 0;
    for (double& w : weight) sum += (w = e(rng));
    for (double& w : weight) w /= sum;
  }
  return weight;
}

double tchebycheff(const std::vector<double>& weight, const std::vector<double>& z) {
  double tcheby = -std::numeric_limits<double>::infinity(), sum = 0;
  for (std::size_t k = 0; k < weight.size(); ++k) {
    tcheby = std::max(tcheby, weight[k] * z[k]);
    sum += weight[k] * z[k];
  }
  return tcheby + kParegoAugment * sum;
}

}  // namespace flowtune::strategies
