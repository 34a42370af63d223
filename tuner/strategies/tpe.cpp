// bayes_opt: a Tree-structured Parzen Estimator (Bergstra, Bardenet, Bengio and Kegl 2011,
// "Algorithms for hyper-parameter optimization", sec. 4) over the coordinates of the space.
// The observations are split at the gamma quantile of objective 0 into good and bad; each
// dimension gets a Parzen (smoothed histogram) density of each group, and the unseen point
// with the largest sum over dimensions of log l(x_d) - log g(x_d) is measured next.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

class Tpe : public Strategy {
 public:
  Tpe(const SearchSpace& space, const StrategyOptions& options) : Strategy(space, options) {
    const std::size_t budget = options.budget ? options.budget : space.size();
    n_startup_ = std::clamp<std::size_t>(budget / 10, 5, 20);
  }
  std::string name() const override { return "bayes_opt"; }

 protected:
  std::optional<std::size_t> propose() override {
    if (told_.size() < n_startup_ ||
        std::bernoulli_distribution(kExplore)(rng_))  // a share of random points keeps exploring
      return random_unseen();
    return best_candidate();
  }
  void observe(const Observation& o) override { told_.push_back(o.point); }

 private:
  static constexpr double kExplore = 0.1;
  static constexpr std::size_t kMaxCandidates = 1 << 16;

  // Per dimension and value (index labels.size() = "does not apply"), the Parzen density of
  // the given points: weight 1 on the point's value, 0.5 on the ordinal neighbours, plus a
  // uniform prior of weight 1 spread over the values.
  std::vector<std::vector<double>> densities(const std::vector<std::size_t>& points) const {
    const auto& dims = space_.dimensions();
    std::vector<std::vector<double>> out(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const std::size_t k = dims[d].labels.size() + 1;
      std::vector<double>& w = out[d];
      w.assign(k, 1.0 / double(k));
      for (std::size_t p : points) {
        const int v = space_.coord(p, d);
        const std::size_t i = v < 0 ? k - 1 : std::size_t(v);
        w[i] += 1;
        if (dims[d].ordinal && v >= 0) {
          if (v > 0) w[i - 1] += 0.5;
          if (std::size_t(v) + 1 < k - 1) w[i + 1] += 0.5;
        }
      }
      double sum = 0;
      for (double x : w) sum += x;
      for (double& x : w) x = std::log(x / sum);
    }
    return out;
  }

  std::optional<std::size_t> best_candidate() {
    std::vector<std::size_t> sorted = told_;
    std::stable_sort(sorted.begin(), sorted.end(),
                     [&](std::size_t a, std::size_t b) { return primary(a) < primary(b); });
    // gamma as in Optuna's default: the best min(ceil(0.1 n), 25) points are "good".
    const std::size_t n_good = std::min<std::size_t>(
        25, std::max<std::size_t>(1, std::size_t(std::ceil(0.1 * double(sorted.size())))));
    const std::vector<std::size_t> good(sorted.begin(), sorted.begin() + long(n_good));
    const std::vector<std::size_t> bad(sorted.begin() + long(n_good), sorted.end());
    const auto l = densities(good), g = densities(bad);
    double best_score = -std::numeric_limits<double>::infinity();
    std::optional<std::size_t> best;
    std::size_t n_ties = 0;
    // Every unseen point of a small space; of a large one (a generated space may hold 10^11)
    // kMaxCandidates drawn uniformly.
    const bool sampled = space_.size() > kMaxCandidates;
    std::uniform_int_distribution<std::size_t> draw(0, space_.size() - 1);
    const std::size_t n = sampled ? kMaxCandidates : space_.size();
    for (std::size_t k = 0; k < n; ++k) {
      const std::size_t p = sampled ? draw(rng_) : k;
      if (seen(p)) continue;
      const std::vector<int>& c = space_.coords(p);
      double s = 0;
      for (std::size_t d = 0; d < c.size(); ++d) {
        const std::size_t i = c[d] < 0 ? l[d].size() - 1 : std::size_t(c[d]);
        s += l[d][i] - g[d][i];
      }
      if (s > best_score + 1e-12) {
        best_score = s;
        best = p;
        n_ties = 1;
      } else if (std::abs(s - best_score) <= 1e-12 &&
                 std::uniform_int_distribution<std::size_t>(0, n_ties++)(rng_) == 0) {
        best = p;  // reservoir sampling: a uniformly random one of the tied best
      }
    }
    return best;
  }

  std::size_t n_startup_;
  std::vector<std::size_t> told_;
};

}  // namespace

std::unique_ptr<Strategy> make_tpe(const SearchSpace& space, const StrategyOptions& options) {
  return std::make_unique<Tpe>(space, options);
}

namespace {

const bool kBayesOpt = register_strategy("bayes_opt", &make_tpe, 50);

}  // namespace
}  // namespace flowtune::strategies
