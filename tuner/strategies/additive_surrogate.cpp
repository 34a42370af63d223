// additive_surrogate: sequential model-based optimisation (SMBO: Hutter, Hoos and Leyton-Brown
// 2011, "Sequential model-based optimization for general algorithm configuration", sec. 3) with
// a main-effects surrogate. Each objective (its logarithm where every observed value is
// positive: times and errors multiply across a kernel's schedule and the algorithm's work) is
// modelled as a constant plus one effect per dimension and value, the first-order terms of a
// functional ANOVA decomposition (Hooker 2007; Hutter, Hoos and Leyton-Brown 2014, "An efficient
// approach for assessing hyperparameter importance", sec. 3), fitted by backfitting with
// shrinkage towards 0 (Hastie and Tibshirani 1990, "Generalized additive models", sec. 4.3).
//
// The first points are a balanced design: every value of every dimension is measured at least
// once. Then each proposal is the unseen point with the best predicted score: objective 0 for
// one objective; for a front, ParEGO's augmented Tchebycheff scalarisation with a weight vector
// drawn uniformly from the simplex at each proposal (Knowles 2006, "ParEGO", IEEE TEVC 10(1),
// sec. III-B). Constraints get a main-effects model of their slack (log of value / bound); a
// point predicted to violate one is proposed only when no unseen point is predicted feasible.
// A share of proposals is random (so that effects the model mispredicts get corrected), and a
// share is local, the best-scored unseen neighbour (SearchSpace::neighbours) of a random point
// of the measured front: the interactions a main-effects model cannot see are found locally,
// as in SMAC's local search. For one objective the front is the incumbent (the best feasible
// point under Deb's rule, or the least violating one), so the local proposals search a trust
// region of Hamming radius 1 around it (TuRBO, Eriksson et al. 2019, "Scalable global
// optimization via local Bayesian optimization", sec. 3; in Hamming distance for categorical
// spaces as in CASMOPOLITAN, Wan et al. 2021, "Think global and act local", sec. 4.1); there
// 40% of the model's proposals are local, against a fifth for a front, where they are spread
// over many front points.
// The shares, the shrinkage and the design were chosen by replay against a recorded H200 run
// (100 seeds, budgets of 11 and 30 s of measuring); the incumbent's share was checked on seeds
// 21-120 of that recording and of three live runs' DBs (docs/decisions.md,
// "additive_surrogate's proposal shares and trust region").
#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_set>

#include "tuner/strategies/main_effects.hpp"
#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

class AdditiveSurrogate : public Strategy {
 public:
  AdditiveSurrogate(const SearchSpace& space, const StrategyOptions& options)
      : Strategy(space, options), n_levels_(dimension_levels(space)) {
    balanced_design();
  }
  std::string name() const override { return "additive_surrogate"; }

 protected:
  std::optional<std::size_t> propose() override {
    while (!design_.empty()) {
      const std::size_t p = design_.back();
      design_.pop_back();
      if (!seen(p)) return p;
    }
    if (n_usable() < kMinFitPoints || std::bernoulli_distribution(kExplore)(rng_))
      return random_unseen();
    const double local = options_.n_objectives == 1 ? kLocalIncumbent : kLocal;
    return best_candidate(std::bernoulli_distribution(local)(rng_));
  }
  void observe(const Observation& o) override {
    if (!told_mark_.insert(o.point).second) return;
    told_.push_back(o.point);
  }

 private:
  static constexpr double kExplore = 0.05;  // share of random proposals
  static constexpr double kLocal = 0.2;     // share of proposals among a front point's neighbours
  static constexpr double kLocalIncumbent = 0.4;  // the same for one objective
  static constexpr std::size_t kMaxCandidates = 20000;

  // Rows r = 0 .. R-1 of a balanced design: on each dimension the values in a random order,
  // row r taking value r mod n; each row snapped to the nearest point of the space.
  void balanced_design() {
    const auto& dims = space_.dimensions();
    std::size_t rows = 0;
    std::vector<std::vector<int>> order(dims.size());
    for (std::size_t d = 0; d < dims.size(); ++d) {
      order[d].resize(dims[d].labels.size());
      std::iota(order[d].begin(), order[d].end(), 0);
      std::shuffle(order[d].begin(), order[d].end(), rng_);
      rows = std::max(rows, order[d].size());
    }
    if (space_.size() == 0) return;
    for (std::size_t r = 0; r < rows; ++r) {
      std::vector<int> coords(dims.size());
      for (std::size_t d = 0; d < dims.size(); ++d)
        coords[d] = order[d].empty() ? -1 : order[d][r % order[d].size()];
      const long p = space_.nearest(coords);
      if (p >= 0 && std::find(design_.begin(), design_.end(), std::size_t(p)) == design_.end())
        design_.push_back(std::size_t(p));
    }
    std::reverse(design_.begin(), design_.end());  // proposed from the back
  }

  bool usable(std::size_t p) const {
    return usable_observation(observed(p), options_.n_objectives);
  }
  std::size_t n_usable() const {
    std::size_t n = 0;
    for (std::size_t p : told_) n += usable(p);
    return n;
  }

  // The model of one figure (an objective's value or a constraint's slack) over the usable
  // points.
  template <class Get>
  FigureModel fit_usable(Get get, bool slack) const {
    std::vector<std::size_t> points;
    std::vector<double> raw;
    for (std::size_t p : told_) {
      if (!usable(p)) continue;
      points.push_back(p);
      raw.push_back(get(*observed(p)));
    }
    return fit_figure(space_, n_levels_, points, raw, slack);
  }

  std::vector<std::size_t> candidates() {
    std::vector<std::size_t> out;
    if (space_.size() - n_seen() <= kMaxCandidates) {
      for (std::size_t p = 0; p < space_.size(); ++p)
        if (!seen(p)) out.push_back(p);
      return out;
    }
    std::uniform_int_distribution<std::size_t> pick(0, space_.size() - 1);
    for (std::size_t i = 0; i < kMaxCandidates; ++i) {
      const std::size_t p = pick(rng_);
      if (!seen(p)) out.push_back(p);
    }
    return out;
  }

  // Unseen neighbours of a random point of the measured front (non-dominated values of the
  // feasible usable points, or the least violating when none is feasible).
  std::vector<std::size_t> local_candidates() {
    std::vector<std::size_t> front;
    for (std::size_t p : told_) {
      if (!usable(p)) continue;
      const Observation& a = *observed(p);
      bool dominated = false;
      for (std::size_t q : told_) {
        if (q == p || !usable(q)) continue;
        const Observation& b = *observed(q);
        bool all = true, one = false;
        for (std::size_t k = 0; k < options_.n_objectives; ++k) {
          all = all && b.objectives[k] <= a.objectives[k];
          one = one || b.objectives[k] < a.objectives[k];
        }
        if (all && one) {
          dominated = true;
          break;
        }
      }
      if (!dominated) front.push_back(p);
    }
    std::vector<std::size_t> out;
    if (front.empty()) return out;
    std::uniform_int_distribution<std::size_t> pick(0, front.size() - 1);
    for (std::size_t q : space_.neighbours(front[pick(rng_)]))
      if (!seen(q)) out.push_back(q);
    return out;
  }

  std::optional<std::size_t> best_candidate(bool local = false) {
    const std::size_t m = options_.n_objectives;
    std::vector<FigureModel> objectives;
    for (std::size_t k = 0; k < m; ++k) {
      objectives.push_back(
          fit_usable([k](const Observation& o) { return measured_value(o, k); }, false));
      if (!objectives.back().valid) return random_unseen();
    }
    std::vector<FigureModel> slacks;
    const Observation* first = observed(told_.front());
    const std::size_t n_constraints = first ? first->slack.size() : 0;
    for (std::size_t c = 0; c < n_constraints; ++c)
      slacks.push_back(fit_usable(
          [c](const Observation& o) {
            return c < o.slack.size() ? o.slack[c] : std::numeric_limits<double>::quiet_NaN();
          },
          true));
    const std::vector<double> weight = parego_weights(m, rng_);
    double best_score = std::numeric_limits<double>::infinity();
    double best_violation = std::numeric_limits<double>::infinity();
    std::vector<std::size_t> best;
    std::vector<std::size_t> pool;
    if (local) pool = local_candidates();
    if (pool.empty()) pool = candidates();
    std::vector<double> z(m);
    for (std::size_t p : pool) {
      double violation = 0;
      for (const FigureModel& s : slacks)
        if (s.valid) violation += std::max(0.0, s.model.predict(space_, n_levels_, p));
      for (std::size_t k = 0; k < m; ++k) {
        const FigureModel& f = objectives[k];
        z[k] = (f.model.predict(space_, n_levels_, p) - f.lo) / std::max(f.hi - f.lo, 1e-12);
      }
      const double score = tchebycheff(weight, z);
      // Predicted-feasible points first, then the smallest predicted violation.
      const bool better =
          violation < best_violation || (violation == best_violation && score < best_score - 1e-12);
      const bool tie = violation == best_violation && std::fabs(score - best_score) <= 1e-12;
      if (better) {
        best_violation = violation;
        best_score = score;
        best.assign(1, p);
      } else if (tie) {
        best.push_back(p);
      }
    }
    if (best.empty()) return random_unseen();
    std::uniform_int_distribution<std::size_t> pick(0, best.size() - 1);
    return best[pick(rng_)];
  }

  std::vector<std::size_t> n_levels_;  // values of each dimension + 1 ("does not apply")
  std::vector<std::size_t> design_;
  std::vector<std::size_t> told_;
  std::unordered_set<std::size_t> told_mark_;  // per point told, not per point of the space
};

const bool kAdditiveSurrogate = register_strategy(
    "additive_surrogate",
    [](const SearchSpace& space, const StrategyOptions& options) -> std::unique_ptr<Strategy> {
      return std::make_unique<AdditiveSurrogate>(space, options);
    },
    75);

}  // namespace
}  // namespace flowtune::strategies
