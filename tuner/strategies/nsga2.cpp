// nsga2: NSGA-II (Deb, Pratap, Agarwal and Meyarivan 2002, "A fast and elitist multiobjective
// genetic algorithm: NSGA-II", sec. III): fast non-dominated sorting, crowding distance,
// binary tournament on (rank, crowding), (mu + lambda) survival.
#include <algorithm>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <set>

#include "select/pareto.hpp"
#include "tuner/strategies/evolution.hpp"
#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

class Nsga2 : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "nsga2"; }

 protected:
  std::optional<std::size_t> propose() override {
    if (queue_.empty()) {
      if (population_.empty() && offspring_.empty()) {
        for (std::size_t i = 0; i < kPopulation; ++i)
          if (auto p = random_unseen()) {
            queue_.push_back(*p);
            offspring_.push_back(*p);
          }
      } else {
        survive();
        breed();
      }
      if (queue_.empty()) return std::nullopt;
    }
    const std::size_t p = queue_.front();
    queue_.pop_front();
    return p;
  }
  void observe(const Observation&) override {}

 private:
  static constexpr std::size_t kPopulation = 24;
  static constexpr double kMutation = 0.3;

  std::vector<double> objectives(std::size_t p) const {
    const Observation* o = observed(p);
    if (!o || o->outcome != Outcome::measured || o->objectives.size() < options_.n_objectives)
      return std::vector<double>(options_.n_objectives, std::numeric_limits<double>::infinity());
    std::vector<double> v(o->objectives.begin(),
                          o->objectives.begin() + long(options_.n_objectives));
    for (double& x : v)
      if (std::isnan(x)) x = std::numeric_limits<double>::infinity();
    return v;
  }

  // (mu + lambda): parents and offspring sorted into fronts; whole fronts are kept while they
  // fit, the last one by decreasing crowding distance.
  void survive() {
    std::vector<std::size_t> pool = population_;
    for (std::size_t p : offspring_)
      if (std::find(pool.begin(), pool.end(), p) == pool.end()) pool.push_back(p);
    offspring_.clear();
    rank_.clear();
    crowding_.clear();
    population_.clear();
    std::vector<std::size_t> rest = pool;
    int rank = 0;
    while (!rest.empty()) {
      std::vector<std::vector<double>> values;
      for (std::size_t p : rest) values.push_back(objectives(p));
      std::vector<std::size_t> front_idx;
      for (std::size_t i = 0; i < rest.size(); ++i) {
        bool dominated = false;
        for (std::size_t j = 0; j < rest.size() && !dominated; ++j)
          dominated = j != i && dominates(values[j], values[i]);
        if (!dominated) front_idx.push_back(i);
      }
      std::vector<std::size_t> front;
      for (std::size_t i : front_idx) front.push_back(rest[i]);
      assign_crowding(front);
      for (std::size_t p : front) rank_[p] = rank;
      if (population_.size() + front.size() > kPopulation) {
        std::sort(front.begin(), front.end(),
                  [&](std::size_t a, std::size_t b) { return crowding_[a] > crowding_[b]; });
        front.resize(kPopulation - population_.size());
      }
      population_.insert(population_.end(), front.begin(), front.end());
      if (population_.size() >= kPopulation) break;
      std::vector<std::size_t> next;
      for (std::size_t i = 0; i < rest.size(); ++i)
        if (std::find(front_idx.begin(), front_idx.end(), i) == front_idx.end())
          next.push_back(rest[i]);
      rest = next;
      ++rank;
    }
  }

  // Crowding distance (Deb et al. 2002, sec. III-B): per objective, the normalised gap between
  // a point's two neighbours along that objective; the extremes get infinity.
  void assign_crowding(const std::vector<std::size_t>& front) {
    for (std::size_t p : front) crowding_[p] = 0;
    for (std::size_t m = 0; m < options_.n_objectives; ++m) {
      std::vector<std::size_t> s = front;
      std::sort(s.begin(), s.end(),
                [&](std::size_t a, std::size_t b) { return objectives(a)[m] < objectives(b)[m]; });
      const double lo = objectives(s.front())[m], hi = objectives(s.back())[m];
      crowding_[s.front()] = crowding_[s.back()] = std::numeric_limits<double>::infinity();
      if (!(hi > lo) || !std::isfinite(hi - lo)) continue;
      for (std::size_t i = 1; i + 1 < s.size(); ++i)
        crowding_[s[i]] += (objectives(s[i + 1])[m] - objectives(s[i - 1])[m]) / (hi - lo);
    }
  }

  std::size_t tournament() {
    std::uniform_int_distribution<std::size_t> pick(0, population_.size() - 1);
    const std::size_t a = population_[pick(rng_)], b = population_[pick(rng_)];
    if (rank_[a] != rank_[b]) return rank_[a] < rank_[b] ? a : b;
    return crowding_[a] >= crowding_[b] ? a : b;
  }

  void breed() {
    std::set<std::size_t> members(population_.begin(), population_.end());
    for (int tries = 0; offspring_.size() < kPopulation && tries < 20 * int(kPopulation); ++tries) {
      std::size_t child = make_child(space_, tournament(), tournament(), kMutation, rng_);
      if (members.count(child) || seen(child)) {
        // Offspring are new points: a clone or a point measured before becomes an unseen
        // neighbour of it, else a random unseen point.
        std::optional<std::size_t> alt;
        for (std::size_t n : space_.neighbours(child))
          if (!seen(n) && !members.count(n)) {
            alt = n;
            break;
          }
        if (!alt) alt = random_unseen();
        if (!alt) break;
        child = *alt;
      }
      members.insert(child);
      offspring_.push_back(child);
      queue_.push_back(child);
    }
  }

  std::vector<std::size_t> population_, offspring_;
  std::deque<std::size_t> queue_;
  std::map<std::size_t, int> rank_;
  std::map<std::size_t, double> crowding_;
};

}  // namespace

std::unique_ptr<Strategy> make_nsga2(const SearchSpace& space, const StrategyOptions& options) {
  return std::make_unique<Nsga2>(space, options);
}

namespace {

const bool kNsga2 = register_strategy("nsga2", &make_nsga2, 60);

}  // namespace
}  // namespace flowtune::strategies
