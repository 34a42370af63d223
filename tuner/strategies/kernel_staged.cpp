// kernel_staged: a model-based search that spends its budget measuring, not compiling. A point's
// kernel set (its variant, precision and tunables: one NVRTC build the first time) costs a
// compile of a few seconds, its measurement a fraction of one, and its accuracy depends on the
// algorithm parameters and the precision alone (ARCHITECTURE.md, "Numerics contract"). So:
// 1. Kernel sets first, few of them: per variant and precision the kernel set the model prior
//    ranks fastest (StrategyOptions::prior; without one, the centre of its tunables' values,
//    the centre point of a factorial design), plus kDiversitySets random others, all among the
//    sets the variant's rules allow (StrategyOptions::kernel_set_allowed); a balanced design
//    of the algorithm dimensions over them (every value of every parameter once, and at least
//    kRowsPerSet rows per set). A row whose point is pruned or fails on a
//    set with no measurement moves to another set of its variant and precision, so that every
//    variant and precision is measured early.
// 2. Cost-aware model-based search (SMBO, Hutter, Hoos and Leyton-Brown 2011, sec. 3) with the
//    main-effects surrogate of every objective and constraint (tuner/strategies/main_effects):
//    the acquisition is expected improvement per unit cost (Snoek, Larochelle and Adams 2012,
//    "Practical Bayesian optimization of machine learning algorithms", sec. 3.2) of ParEGO's
//    random scalarisation (Knowles 2006, sec. III-B) times the probability of feasibility of
//    the constraints (Gardner et al. 2014, "Bayesian optimization with inequality
//    constraints", sec. 3); a point on a kernel set never proposed costs 1 + kernel_build_cost
//    measurements, so a new kernel set enters only when predicted to pay for its build, and
//    compiles never take more than the measuring does (kernel_build_cost per new set, against the
//    evaluations made). As in additive_surrogate, a share of proposals is local (neighbours of
//    a front point: interactions the additive model misses) and a few are random.
// 3. Refinement at the end: in the last kRefineShare of the budget (StrategyOptions::budget;
//    with none, the last quarter of every kScheduleCycle evaluations) local search over the
//    kernel coordinates that leave accuracy alone (the tunables and the variant: every variant
//    computes the same function) of the best points (the measured front; for one objective the
//    best kRefineElite points under Deb's rule): a step of one tunable, the same algorithm
//    config and precision on another kernel set already built, or on each variant's kernel set
//    of best predicted time, chosen by the same cost-aware acquisition on objective 0 (time).
//    Accuracy stays what was measured.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "tuner/constraint_domination.hpp"
#include "tuner/strategies/main_effects.hpp"
#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

double normal_cdf(double x) {
  return 0.5 * std::erfc(-x / std::sqrt(2.0));
}
double normal_pdf(double x) {
  return std::exp(-0.5 * x * x) * 0.3989422804014327;  // 1 / sqrt(2 pi)
}

// Expected improvement of a Gaussian prediction (mean mu, sd) below the incumbent f_best
// (Jones, Schonlau and Welch 1998, eq. 15); the plain improvement where sd is 0.
double expected_improvement(double f_best, double mu, double sd) {
  if (!(sd > 1e-12)) return std::max(0.0, f_best - mu);
  const double u = (f_best - mu) / sd;
  return (f_best - mu) * normal_cdf(u) + sd * normal_pdf(u);
}

class KernelStaged : public Strategy {
 public:
  KernelStaged(const SearchSpace& space, const StrategyOptions& options)
      : Strategy(space, options), n_levels_(dimension_levels(space)) {
    const auto& dims = space.dimensions();
    for (std::size_t d = 0; d < dims.size(); ++d) {
      const DimensionKind k = dims[d].kind;
      if (k == DimensionKind::tunable) tunable_dims_.push_back(d);
      if (k == DimensionKind::variant || k == DimensionKind::precision ||
          k == DimensionKind::tunable)
        kernel_dims_.push_back(d);
      else
        free_dims_.push_back(d);
      if (k == DimensionKind::variant || k == DimensionKind::precision) group_dims_.push_back(d);
    }
    if (options.budget > 0 && options.budget < space.size()) budget_ = options.budget;
    index_kernel_sets();
    choose_initial_sets();
    initial_design();
  }
  std::string name() const override { return "kernel_staged"; }

  // The design's next points, one per kernel set not yet proposed first (their builds are
  // what the GPU would wait for), then the rest in proposal order.
  std::vector<std::size_t> upcoming(std::size_t n) const override {
    std::vector<std::size_t> out, rest;
    std::unordered_set<std::size_t> sets;
    for (auto it = design_.rbegin(); it != design_.rend() && out.size() < n; ++it) {
      if (seen(*it) || dead(set_of(*it))) continue;
      const std::size_t k = set_of(*it);
      if (!sets_[k].proposed && sets.insert(k).second)
        out.push_back(*it);
      else
        rest.push_back(*it);
    }
    for (std::size_t p : rest)
      if (out.size() < n) out.push_back(p);
    return out;
  }

 protected:
  std::optional<std::size_t> propose() override {
    while (!retry_.empty()) {
      const std::size_t p = retry_.back();
      retry_.pop_back();
      const std::optional<std::size_t> q = retarget(p, true);
      if (q && !seen(*q)) {
        design_rows_.insert(*q);
        return take(*q);
      }
    }
    while (!design_.empty()) {
      std::size_t p = design_.back();
      design_.pop_back();
      if (dead(set_of(p))) {
        const std::optional<std::size_t> q = retarget(p);
        if (!q) continue;
        p = *q;
      }
      if (!seen(p)) {
        design_rows_.insert(p);
        return take(p);
      }
    }
    if (refining()) {
      if (const std::optional<std::size_t> p = refinement_candidate()) return take(*p);
    }
    if (n_usable() < kMinFitPoints || std::bernoulli_distribution(kExplore)(rng_))
      return take(random_active());
    const double local = options_.n_objectives == 1 ? kLocalIncumbent : kLocal;
    return take(best_candidate(std::bernoulli_distribution(local)(rng_)));
  }

  void observe(const Observation& o) override {
    if (!told_mark_.insert(o.point).second) return;
    told_.push_back(o.point);
    const std::size_t k = set_of(o.point);
    if (o.outcome == Outcome::measured) {
      ++sets_[k].measured;
      if (usable(o.point)) {
        ++n_usable_;
        add_to_front(o.point);
      }
    } else {
      ++sets_[k].rejected;
      if (sets_[k].measured == 0 && design_rows_.count(o.point)) retry_.push_back(o.point);
    }
    if (o.outcome != Outcome::pruned) ++n_evaluations_;
  }

 private:
  static constexpr std::size_t kDiversitySets = 2;  // initial kernel sets beyond one a group
  static constexpr std::size_t kRowsPerSet = 3;     // design rows per initial kernel set, at least
  static constexpr std::size_t kReplacements = 16;  // dead design sets replaced, per group
  // The shares of random and local proposals are additive_surrogate's (chosen there by replay).
  static constexpr double kExplore = 0.05;        // share of random proposals
  static constexpr double kLocal = 0.2;           // share of local proposals (a front)
  static constexpr double kLocalIncumbent = 0.4;  // the same for one objective
  static constexpr std::size_t kMaxCandidates = 20000;
  static constexpr std::size_t kOutsideCandidates = 2000;  // points of sets not yet proposed
  static constexpr std::size_t kFewCandidates = 50;        // below: new sets whatever the compiles
  static constexpr double kRefineShare = 0.25;
  // Without a budget (a live run bounded by time): the H200 main job measures ~1300 points in
  // its 8 minutes, so a cycle of 400 refines three times in it, the last 100 of each cycle.
  static constexpr std::size_t kScheduleCycle = 400;
  static constexpr std::size_t kRefineElite = 3;
  static constexpr std::size_t kDeadAfter = 2;  // failed or pruned points, none measured
  static constexpr double kRefitGrowth = 0.02;  // growth of the usable points that refits

  struct KernelSet {
    std::size_t group = 0;  // the variant and precision
    bool allowed = true;    // the variant's rules allow it (StrategyOptions::kernel_set_allowed)
    bool proposed = false;  // a point of it was proposed (its build is paid)
    std::size_t measured = 0, rejected = 0;
  };

  // ---- kernel sets ----

  // The kernel sets of the space (SearchSpace::kernel_set_of: computed from a generated
  // space's layout, nothing held per point) with their group (variant x precision) and a
  // representative point of each group.
  void index_kernel_sets() {
    std::map<std::vector<int>, std::size_t> group_index;
    sets_.resize(space_.kernel_sets());
    for (std::size_t k = 0; k < sets_.size(); ++k) {
      const std::size_t first = space_.kernel_set_member(k, 0);
      const std::vector<int> c = space_.coords(first);
      std::vector<int> key;
      for (std::size_t d : group_dims_) key.push_back(c[d]);
      const auto g = group_index.emplace(std::move(key), group_index.size());
      sets_[k].group = g.first->second;
      if (options_.kernel_set_allowed) sets_[k].allowed = options_.kernel_set_allowed(first);
      if (g.second) group_representative_.push_back(first);
    }
    n_groups_ = group_index.size();
  }

  std::size_t set_of(std::size_t p) const { return space_.kernel_set_of(p); }
  std::size_t set_size(std::size_t set) const { return space_.kernel_set_size(set); }
  std::size_t member(std::size_t set, std::size_t i) const {
    return space_.kernel_set_member(set, i);
  }
  bool dead(std::size_t set) const {
    return !sets_[set].allowed || (sets_[set].measured == 0 && sets_[set].rejected >= kDeadAfter);
  }

  // Per group (variant x precision) the set the prior ranks fastest (the mean log prior over
  // its points: within a group the sets share the algorithm configs, so the mean compares
  // like with like), or without a prior the one nearest the centre of its tunables' values;
  // then kDiversitySets random others.
  void choose_initial_sets() {
    if (sets_.empty()) return;
    const bool have_prior = options_.prior.size() == space_.size();
    std::vector<double> score(sets_.size(), 0);
    for (std::size_t k = 0; k < sets_.size(); ++k) {
      if (have_prior) {
        double sum = 0;
        for (std::size_t i = 0; i < set_size(k); ++i)
          sum += std::log(std::max(options_.prior[member(k, i)], 1e-300));
        score[k] = sum / double(set_size(k));
      } else {
        const std::vector<int>& c = space_.coords(member(k, 0));
        for (std::size_t d : tunable_dims_) {
          if (c[d] < 0) continue;
          const double n = double(space_.dimensions()[d].labels.size());
          score[k] += std::fabs(c[d] - (n - 1) / 2) / std::max(1.0, n - 1);
        }
      }
    }
    std::vector<std::uint64_t> tie(sets_.size());
    for (auto& t : tie) t = rng_();
    std::vector<long> best(n_groups_, -1);
    for (std::size_t k = 0; k < sets_.size(); ++k) {
      if (!sets_[k].allowed) continue;
      long& b = best[sets_[k].group];
      if (b < 0 || std::make_pair(score[k], tie[k]) <
                       std::make_pair(score[std::size_t(b)], tie[std::size_t(b)]))
        b = long(k);
    }
    for (long b : best)
      if (b >= 0) initial_.push_back(std::size_t(b));
    std::vector<std::size_t> others;
    for (std::size_t k = 0; k < sets_.size(); ++k)
      if (sets_[k].allowed && std::find(initial_.begin(), initial_.end(), k) == initial_.end())
        others.push_back(k);
    std::shuffle(others.begin(), others.end(), rng_);
    for (std::size_t i = 0; i < std::min(kDiversitySets, others.size()); ++i)
      initial_.push_back(others[i]);
  }

  // Rows r = 0 .. R-1: on each algorithm dimension (parameters, clock) its values in a random
  // order, row r taking value r mod n, on initial set r mod (number of sets); each row snapped
  // to the nearest point of its set.
  void initial_design() {
    if (initial_.empty()) return;
    const auto& dims = space_.dimensions();
    std::size_t rows = kRowsPerSet * initial_.size();
    std::vector<std::vector<int>> order(dims.size());
    for (std::size_t d : free_dims_) {
      order[d].resize(dims[d].labels.size());
      std::iota(order[d].begin(), order[d].end(), 0);
      std::shuffle(order[d].begin(), order[d].end(), rng_);
      rows = std::max(rows, order[d].size());
    }
    for (std::size_t r = 0; r < rows; ++r) {
      const std::size_t set = initial_[r % initial_.size()];
      std::vector<int> coords = space_.coords(member(set, 0));
      for (std::size_t d : free_dims_)
        if (coords[d] >= 0) coords[d] = order[d][r % order[d].size()];
      const long p = nearest_in(set, coords);
      if (p >= 0 && std::find(design_.begin(), design_.end(), std::size_t(p)) == design_.end())
        design_.push_back(std::size_t(p));
    }
    std::reverse(design_.begin(), design_.end());  // proposed from the back
  }

  // A design row whose set died (its points pruned or failed: many tunable combinations of
  // a default space break a scheme's rule) moves to a live set of the same variant and
  // precision: the set that replaced it, else one drawn at random among those not proposed
  // (up to kReplacements per group, so that a group whose sets all fail ends). With rejected
  // (the row's own point was pruned or failed) a set with a rejection and no measurement is
  // replaced too. The row keeps its algorithm coordinates; nullopt when no replacement is left.
  std::optional<std::size_t> retarget(std::size_t p, bool rejected = false) {
    std::size_t k = set_of(p);
    for (auto it = replaced_by_.find(k); it != replaced_by_.end(); it = replaced_by_.find(k))
      k = it->second;
    if (dead(k) || (rejected && sets_[k].measured == 0 && sets_[k].rejected > 0)) {
      const std::size_t group = sets_[k].group;
      if (replacements_[group] >= kReplacements) return std::nullopt;
      std::vector<std::size_t> pool;
      for (std::size_t j = 0; j < sets_.size(); ++j)
        if (sets_[j].group == group && !sets_[j].proposed && !dead(j)) pool.push_back(j);
      if (pool.empty()) return std::nullopt;
      const std::size_t next =
          pool[std::uniform_int_distribution<std::size_t>(0, pool.size() - 1)(rng_)];
      ++replacements_[group];
      replaced_by_[k] = next;
      k = next;
    }
    std::vector<int> coords = space_.coords(p);
    const std::vector<int> kernel = space_.coords(member(k, 0));
    for (std::size_t d : kernel_dims_) coords[d] = kernel[d];
    const long q = nearest_in(k, coords);
    if (q < 0) return std::nullopt;
    return std::size_t(q);
  }

  // The point of `set` with these coordinates, else its unseen point differing in the fewest
  // dimensions (then the smallest ordinal distance); -1 when every point was seen.
  long nearest_in(std::size_t set, const std::vector<int>& coords) {
    const long exact = space_.find(coords);
    if (exact >= 0 && !seen(std::size_t(exact))) return exact;
    long best = -1;
    std::pair<int, long> best_score{std::numeric_limits<int>::max(), 0};
    // Every point of a small set; kMaxCandidates drawn from a large one.
    const std::size_t n = set_size(set);
    const bool all = n <= kMaxCandidates;
    std::uniform_int_distribution<std::size_t> draw(0, n - 1);
    for (std::size_t i = 0; i < (all ? n : kMaxCandidates); ++i) {
      const std::size_t p = member(set, all ? i : draw(rng_));
      if (seen(p)) continue;
      const std::vector<int>& c = space_.coords(p);
      int differ = 0;
      long dist = 0;
      for (std::size_t d = 0; d < c.size(); ++d) {
        if (c[d] == coords[d]) continue;
        ++differ;
        if (space_.dimensions()[d].ordinal && c[d] >= 0 && coords[d] >= 0)
          dist += std::abs(c[d] - coords[d]);
      }
      if (std::make_pair(differ, dist) < best_score) {
        best_score = {differ, dist};
        best = long(p);
      }
    }
    return best;
  }

  std::optional<std::size_t> take(std::optional<std::size_t> p) {
    if (!p) return p;
    KernelSet& s = sets_[set_of(*p)];
    if (!s.proposed) {
      s.proposed = true;
      ++n_proposed_sets_;
      proposed_sets_.push_back(set_of(*p));
    }
    return p;
  }

  // Compiles may take no more time than measuring: a new set is allowed while the sets
  // proposed beyond the initial ones, at kernel_build_cost each, stay within the evaluations made.
  bool new_set_allowed() const {
    // The design's sets and their replacements are the start's, not extra.
    const std::size_t start = initial_.size() + replaced_by_.size();
    const std::size_t extra = n_proposed_sets_ > start ? n_proposed_sets_ - start : 0;
    return double(extra + 1) * options_.kernel_build_cost <= double(n_evaluations_);
  }

  std::vector<std::size_t> active_sets() const {
    std::vector<std::size_t> out;
    for (std::size_t k : proposed_sets_)
      if (!dead(k)) out.push_back(k);
    return out;
  }

  // A random unseen point of a proposed, live set; else of any set when a new one is allowed
  // (or nothing else is left).
  std::optional<std::size_t> random_active() {
    const std::vector<std::size_t> active = active_sets();
    if (!active.empty()) {
      for (int attempt = 0; attempt < 64; ++attempt) {
        const std::size_t k =
            active[std::uniform_int_distribution<std::size_t>(0, active.size() - 1)(rng_)];
        const std::size_t p =
            member(k, std::uniform_int_distribution<std::size_t>(0, set_size(k) - 1)(rng_));
        if (!seen(p)) return p;
      }
      std::vector<std::size_t> unseen;
      std::size_t total = 0;
      for (std::size_t k : active) total += set_size(k);
      if (total > kMaxCandidates) return random_unseen();
      for (std::size_t k : active)
        for (std::size_t i = 0; i < set_size(k); ++i)
          if (!seen(member(k, i))) unseen.push_back(member(k, i));
      if (!unseen.empty())
        return unseen[std::uniform_int_distribution<std::size_t>(0, unseen.size() - 1)(rng_)];
    }
    return random_unseen();
  }

  // ---- the model ----

  bool usable(std::size_t p) const {
    return usable_observation(observed(p), options_.n_objectives);
  }
  std::size_t n_usable() const { return n_usable_; }

  struct Models {
    std::vector<FigureModel> objectives, slacks;
    bool valid = false;
  };
  // The levels of a told point, computed once (each ask refits over every told point).
  const PointLevels& told_levels(std::size_t p) const {
    auto it = told_levels_.find(p);
    if (it == told_levels_.end())
      it = told_levels_.emplace(p, point_levels(space_, n_levels_, p)).first;
    return it->second;
  }

  // The models of the usable points told so far, refitted when their count has grown by
  // kRefitGrowth since the last fit (at least one point): a fit is a pass of backfitting over
  // every point per objective and constraint, so refitting on every ask made the strategy's
  // cost grow with the square of the points told; a model of 2% fewer points predicts the same
  // ranking within its noise, and the incumbent and the front are always the told ones.
  const Models& models() const {
    const std::size_t n = n_usable();
    if (!models_fitted_ ||
        double(n) >= double(models_at_) + std::max(1.0, kRefitGrowth * double(models_at_))) {
      models_ = fit_models();
      models_at_ = n;
      models_fitted_ = true;
    }
    return models_;
  }

  Models fit_models() const {
    Models m;
    std::vector<std::size_t> points;
    for (std::size_t p : told_)
      if (usable(p)) points.push_back(p);
    std::vector<const PointLevels*> levels;
    levels.reserve(points.size());
    for (std::size_t p : points) levels.push_back(&told_levels(p));
    std::vector<double> raw(points.size());
    for (std::size_t k = 0; k < options_.n_objectives; ++k) {
      for (std::size_t i = 0; i < points.size(); ++i)
        raw[i] = measured_value(*observed(points[i]), k);
      m.objectives.push_back(fit_figure(n_levels_, levels, raw, false));
      if (!m.objectives.back().valid) return m;
    }
    const std::size_t n_constraints = points.empty() ? 0 : observed(points.front())->slack.size();
    for (std::size_t c = 0; c < n_constraints; ++c) {
      for (std::size_t i = 0; i < points.size(); ++i) {
        const Observation& o = *observed(points[i]);
        raw[i] = c < o.slack.size() ? o.slack[c] : std::numeric_limits<double>::quiet_NaN();
      }
      m.slacks.push_back(fit_figure(n_levels_, levels, raw, true));
    }
    m.valid = true;
    return m;
  }

  // Probability that every constraint holds at p (independent Gaussian predictions of the
  // fitted slacks; a constraint without a model holds with probability 1).
  double feasibility(const Models& m, const PointLevels& p) const {
    double pof = 1;
    for (const FigureModel& s : m.slacks) {
      if (!s.valid) continue;
      const double mu = s.model.predict(p);
      const double sd = s.predicted_sd(p);
      pof *= sd > 1e-12 ? normal_cdf(-mu / sd) : (mu <= 0 ? 1.0 : 0.0);
    }
    return pof;
  }
  static bool feasible(const Observation& o) {
    return std::all_of(o.slack.begin(), o.slack.end(), [](double s) { return s <= 0; });
  }

  double cost(std::size_t p) const {
    return sets_[set_of(p)].proposed ? 1 : 1 + options_.kernel_build_cost;
  }

  // The measured front: non-dominated objectives (Deb's rule already in them) among the usable
  // points, in the order told; for one objective the incumbents. Kept as points are told.
  const std::vector<std::size_t>& front() const { return front_; }

  // a dominates b: no objective worse, one better.
  bool dominates(const Observation& a, const Observation& b) const {
    bool one = false;
    for (std::size_t k = 0; k < options_.n_objectives; ++k) {
      if (a.objectives[k] > b.objectives[k]) return false;
      one = one || a.objectives[k] < b.objectives[k];
    }
    return one;
  }
  void add_to_front(std::size_t p) {
    const Observation& o = *observed(p);
    for (std::size_t q : front_)
      if (dominates(*observed(q), o)) return;
    front_.erase(std::remove_if(front_.begin(), front_.end(),
                                [&](std::size_t q) { return dominates(o, *observed(q)); }),
                 front_.end());
    front_.push_back(p);
  }

  // Candidates of a model-based proposal: unseen points of the live proposed sets (all of
  // them, or kMaxCandidates drawn), and kOutsideCandidates of the whole space when a new set
  // is allowed.
  std::vector<std::size_t> candidates() {
    std::vector<std::size_t> out;
    const std::vector<std::size_t> active = active_sets();
    std::size_t total = 0;
    for (std::size_t k : active) total += set_size(k);
    if (total <= kMaxCandidates) {
      for (std::size_t k : active)
        for (std::size_t i = 0; i < set_size(k); ++i)
          if (!seen(member(k, i))) out.push_back(member(k, i));
    } else {
      for (std::size_t i = 0; i < kMaxCandidates; ++i) {
        const std::size_t k =
            active[std::uniform_int_distribution<std::size_t>(0, active.size() - 1)(rng_)];
        const std::size_t p =
            member(k, std::uniform_int_distribution<std::size_t>(0, set_size(k) - 1)(rng_));
        if (!seen(p)) out.push_back(p);
      }
    }
    // The sets proposed are nearly exhausted (a sparse space): new ones are needed whatever
    // the compile share.
    if ((new_set_allowed() || out.size() < kFewCandidates) && space_.size() > 0) {
      std::uniform_int_distribution<std::size_t> pick(0, space_.size() - 1);
      for (std::size_t i = 0; i < kOutsideCandidates; ++i) {
        const std::size_t p = pick(rng_);
        if (!seen(p) && !sets_[set_of(p)].proposed && sets_[set_of(p)].allowed) out.push_back(p);
      }
    }
    return out;
  }

  std::optional<std::size_t> best_candidate(bool local) {
    const Models& models = this->models();
    if (!models.valid) return random_active();
    const std::size_t m = options_.n_objectives;
    const std::vector<double> weight = parego_weights(m, rng_);
    // Normalised, scalarised figures of a point: predicted (with their sd) or measured.
    auto scale = [&](std::size_t k) {
      return std::max(models.objectives[k].hi - models.objectives[k].lo, 1e-12);
    };
    std::vector<double> z(m);
    double f_best = std::numeric_limits<double>::infinity();
    for (std::size_t p : told_) {
      if (!usable(p)) continue;
      const Observation& o = *observed(p);
      if (!feasible(o)) continue;
      bool finite = true;
      for (std::size_t k = 0; k < m; ++k) {
        const double v = models.objectives[k].fitted(measured_value(o, k), false);
        finite = finite && std::isfinite(v);
        z[k] = (v - models.objectives[k].lo) / scale(k);
      }
      if (finite) f_best = std::min(f_best, tchebycheff(weight, z));
    }
    std::vector<std::size_t> pool;
    if (local) {
      const std::vector<std::size_t> f = front();
      if (!f.empty())
        for (std::size_t q : space_.neighbours(
                 f[std::uniform_int_distribution<std::size_t>(0, f.size() - 1)(rng_)]))
          if (!seen(q) && !dead(set_of(q)) && (sets_[set_of(q)].proposed || new_set_allowed()))
            pool.push_back(q);
    }
    if (pool.empty()) pool = candidates();
    double best_score = -1;
    std::vector<std::size_t> best;
    for (std::size_t p : pool) {
      const PointLevels levels = point_levels(space_, n_levels_, p);
      const double pof = feasibility(models, levels);
      double gain = pof;  // no feasible point yet: the likeliest feasible per unit cost
      if (std::isfinite(f_best)) {
        double sd = 0;
        for (std::size_t k = 0; k < m; ++k) {
          const FigureModel& f = models.objectives[k];
          z[k] = (f.model.predict(levels) - f.lo) / scale(k);
          sd += weight[k] * f.predicted_sd(levels) / scale(k);
        }
        gain *= expected_improvement(f_best, tchebycheff(weight, z), sd);
      }
      const double score = gain / cost(p);
      if (score > best_score * (1 + 1e-12) + 1e-300) {
        best_score = score;
        best.assign(1, p);
      } else if (std::fabs(score - best_score) <= 1e-12 * std::fabs(best_score) + 1e-300) {
        best.push_back(p);
      }
    }
    if (best.empty()) return random_active();
    return best[std::uniform_int_distribution<std::size_t>(0, best.size() - 1)(rng_)];
  }

  // ---- refinement ----

  bool refining() const {
    if (budget_ > 0) return double(n_evaluations_) >= (1 - kRefineShare) * double(budget_);
    const std::size_t cycle_at = n_evaluations_ % kScheduleCycle;
    return double(cycle_at) >= (1 - kRefineShare) * double(kScheduleCycle);
  }

  // The unseen points that differ from p in its variant and tunables alone: one tunable a
  // step, p's algorithm config and precision on every other proposed set, and on each
  // variant's kernel set that the time model predicts fastest (every tunable at its best
  // main effect).
  std::vector<std::size_t> tunable_variations(std::size_t p, const Models& models) const {
    std::vector<std::size_t> out;
    const std::vector<int>& c = space_.coords(p);
    auto add = [&](const std::vector<int>& coords) {
      const long q = space_.find(coords);
      if (q >= 0 && !seen(std::size_t(q)) && !dead(set_of(std::size_t(q))))
        out.push_back(std::size_t(q));
    };
    for (std::size_t d : tunable_dims_) {
      if (c[d] < 0) continue;
      for (int step : {-1, 1}) {
        std::vector<int> moved = c;
        moved[d] += step;
        if (moved[d] >= 0 && moved[d] < int(space_.dimensions()[d].labels.size())) add(moved);
      }
    }
    for (std::size_t k : proposed_sets_) {
      if (k == set_of(p) || dead(k)) continue;
      std::vector<int> moved = c;
      const std::vector<int>& other = space_.coords(member(k, 0));
      bool same_precision = true;
      for (std::size_t d : kernel_dims_) {
        if (space_.dimensions()[d].kind == DimensionKind::precision)
          same_precision = same_precision && other[d] == c[d];
        moved[d] = other[d];
      }
      if (same_precision) add(moved);
    }
    if (models.valid)
      for (std::size_t rep : group_representative_) {
        const std::vector<int>& other = space_.coords(rep);
        std::vector<int> moved = c;
        bool same_precision = true;
        for (std::size_t d : kernel_dims_) {
          const SpaceDimension& dim = space_.dimensions()[d];
          if (dim.kind == DimensionKind::precision) same_precision = other[d] == c[d];
          if (dim.kind != DimensionKind::tunable || other[d] < 0) {
            moved[d] = other[d];
            continue;
          }
          const std::vector<double>& effect = models.objectives[0].model.effect[d];
          moved[d] = int(std::min_element(effect.begin(), effect.end() - 1) - effect.begin());
        }
        if (same_precision) add(moved);
      }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
  }

  // The best points to refine, best first: the front (by objective 0) then every other usable
  // point by objective 0; for one objective the same order.
  std::vector<std::size_t> ranked_for_refinement() const {
    std::vector<std::size_t> f = options_.n_objectives > 1 ? front() : std::vector<std::size_t>{};
    std::vector<std::size_t> rest;
    for (std::size_t p : told_)
      if (usable(p) && std::find(f.begin(), f.end(), p) == f.end()) rest.push_back(p);
    auto by_primary = [&](std::size_t a, std::size_t b) {
      return std::make_pair(primary(a), a) < std::make_pair(primary(b), b);
    };
    std::sort(f.begin(), f.end(), by_primary);
    std::sort(rest.begin(), rest.end(), by_primary);
    f.insert(f.end(), rest.begin(), rest.end());
    return f;
  }

  // The tunable variation with the best expected improvement of objective 0 over the point it
  // varies, per unit cost, among the variations of the first kRefineElite ranked points (or
  // of the front, when larger) that have any, then of the next ones; nullopt when no ranked
  // point has an unseen variation.
  std::optional<std::size_t> refinement_candidate() {
    const std::vector<std::size_t> ranked = ranked_for_refinement();
    if (ranked.empty()) return std::nullopt;
    const Models& models = this->models();
    const std::size_t elite =
        std::max(kRefineElite, options_.n_objectives > 1 ? front().size() : 0);
    for (std::size_t start = 0; start < ranked.size(); start += elite) {
      double best_score = -1;
      std::vector<std::size_t> best;
      for (std::size_t i = start; i < std::min(ranked.size(), start + elite); ++i) {
        const std::size_t e = ranked[i];
        const std::vector<std::size_t> variations = tunable_variations(e, models);
        if (variations.empty()) continue;
        const FigureModel* f = models.valid ? &models.objectives[0] : nullptr;
        const double f_best = f ? f->fitted(measured_value(*observed(e), 0), false) : 0;
        for (std::size_t q : variations) {
          double gain = 1;
          if (f && std::isfinite(f_best)) {
            const PointLevels levels = point_levels(space_, n_levels_, q);
            gain = expected_improvement(f_best, f->model.predict(levels), f->predicted_sd(levels));
          }
          const double score = gain / cost(q);
          if (score > best_score * (1 + 1e-12) + 1e-300) {
            best_score = score;
            best.assign(1, q);
          } else if (std::fabs(score - best_score) <= 1e-12 * std::fabs(best_score) + 1e-300) {
            best.push_back(q);
          }
        }
      }
      if (!best.empty())
        return best[std::uniform_int_distribution<std::size_t>(0, best.size() - 1)(rng_)];
    }
    return std::nullopt;
  }

  std::vector<std::size_t> n_levels_;
  std::vector<std::size_t> kernel_dims_, tunable_dims_, free_dims_, group_dims_;
  std::size_t budget_ = 0;  // evaluations the caller allows; 0 = unknown (the fixed schedule)
  std::vector<KernelSet> sets_;
  std::size_t n_groups_ = 0;
  std::vector<std::size_t> group_representative_;  // a point of each variant x precision
  std::vector<std::size_t> initial_, proposed_sets_;
  std::size_t n_proposed_sets_ = 0, n_evaluations_ = 0;
  std::vector<std::size_t> design_;
  std::unordered_set<std::size_t> design_rows_;  // the design's points proposed (and retries)
  std::vector<std::size_t> retry_;  // design rows rejected on a set with no measurement
  std::vector<std::size_t> told_;
  /// told_levels' memo, by point (node-based: references stay valid).
  mutable std::unordered_map<std::size_t, PointLevels> told_levels_;
  std::unordered_set<std::size_t> told_mark_;
  std::size_t n_usable_ = 0;        // measured points with every objective
  std::vector<std::size_t> front_;  // front(), kept as points are told
  mutable Models models_;           // models(), fitted at models_at_ usable points
  mutable std::size_t models_at_ = 0;
  mutable bool models_fitted_ = false;
  std::unordered_map<std::size_t, std::size_t> replaced_by_;   // dead design set -> replacement
  std::unordered_map<std::size_t, std::size_t> replacements_;  // per group
};

}  // namespace

std::unique_ptr<Strategy> make_kernel_staged(const SearchSpace& space,
                                             const StrategyOptions& options) {
  return std::make_unique<KernelStaged>(space, options);
}

namespace {

const bool kKernelStaged = register_strategy("kernel_staged", &make_kernel_staged, 77);

}  // namespace
}  // namespace flowtune::strategies
