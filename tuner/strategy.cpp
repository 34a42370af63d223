#include "tuner/strategy.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "tuner/strategies/strategies.hpp"

namespace flowtune {

Strategy::Strategy(const SearchSpace& space, const StrategyOptions& options)
    : space_(space),
      options_(options),
      rng_(options.seed),
      state_(space.size(), State::unseen),
      observation_of_(space.size(), -1) {
  if (options_.n_objectives == 0) options_.n_objectives = 1;
}

std::optional<std::size_t> Strategy::ask() {
  // A proposal of a seen point is answered from memory (no evaluation) and the strategy asked
  // again; a strategy that keeps proposing seen points falls back to a random unseen one.
  for (int attempt = 0; attempt < 10000; ++attempt) {
    const std::optional<std::size_t> p = propose();
    if (!p) return std::nullopt;
    if (*p >= state_.size()) throw std::logic_error(name() + ": proposed a point out of range");
    if (state_[*p] == State::unseen) {
      state_[*p] = State::asked;
      ++n_seen_;
      return p;
    }
    if (const Observation* o = observed(*p)) observe(*o);
  }
  const std::optional<std::size_t> p = random_unseen();
  if (p) {
    state_[*p] = State::asked;
    ++n_seen_;
  }
  return p;
}

void Strategy::tell(const Observation& observation) {
  if (observation.point >= state_.size() || state_[observation.point] != State::asked)
    throw std::invalid_argument(name() + ": told about point " + std::to_string(observation.point) +
                                " that was not asked");
  state_[observation.point] = State::told;
  observation_of_[observation.point] = long(observations_.size());
  observations_.push_back(observation);
  observe(observation);
}

std::optional<std::size_t> Strategy::random_unseen() {
  if (unseen_pool_.empty()) {
    unseen_pool_.resize(space_.size());
    std::iota(unseen_pool_.begin(), unseen_pool_.end(), std::size_t{0});
  }
  // Fisher-Yates drawn lazily: each call draws the next element of a random permutation.
  while (pool_pos_ < unseen_pool_.size()) {
    std::uniform_int_distribution<std::size_t> pick(pool_pos_, unseen_pool_.size() - 1);
    std::swap(unseen_pool_[pool_pos_], unseen_pool_[pick(rng_)]);
    const std::size_t p = unseen_pool_[pool_pos_++];
    if (!seen(p)) return p;
  }
  return std::nullopt;
}

const Observation* Strategy::observed(std::size_t point) const {
  const long i = observation_of_.at(point);
  return i < 0 ? nullptr : &observations_[std::size_t(i)];
}

double Strategy::primary(std::size_t point) const {
  const Observation* o = observed(point);
  if (!o || o->outcome != Outcome::measured || o->objectives.empty())
    return std::numeric_limits<double>::infinity();
  return o->objectives[0];
}

namespace {

class BruteForce : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "brute_force"; }

 protected:
  std::optional<std::size_t> propose() override {
    while (next_ < space_.size() && seen(next_)) ++next_;
    if (next_ >= space_.size()) return std::nullopt;
    return next_++;
  }
  void observe(const Observation&) override {}

 private:
  std::size_t next_ = 0;
};

class RandomSample : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "random_sample"; }

 protected:
  std::optional<std::size_t> propose() override { return random_unseen(); }
  void observe(const Observation&) override {}
};

}  // namespace

std::vector<std::string> strategy_names() {
  return {"brute_force",       "random_sample", "greedy_ils", "simulated_annealing",
          "genetic_algorithm", "bayes_opt",     "nsga2",      "model_guided"};
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, const SearchSpace& space,
                                        const StrategyOptions& options) {
  if (name == "brute_force") return std::make_unique<BruteForce>(space, options);
  if (name == "random_sample") return std::make_unique<RandomSample>(space, options);
  if (name == "greedy_ils") return strategies::make_greedy_ils(space, options);
  if (name == "simulated_annealing") return strategies::make_simulated_annealing(space, options);
  if (name == "genetic_algorithm") return strategies::make_genetic_algorithm(space, options);
  if (name == "bayes_opt") return strategies::make_tpe(space, options);
  if (name == "nsga2") return strategies::make_nsga2(space, options);
  if (name == "model_guided") {
    if (options.prior.size() != space.size())
      throw std::invalid_argument("model_guided needs a model estimate for each of the " +
                                  std::to_string(space.size()) + " points");
    return strategies::make_model_guided(space, options);
  }
  std::string names;
  for (const std::string& n : strategy_names()) names += (names.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown strategy '" + name + "' (" + names + ")");
}

}  // namespace flowtune
