#include "tuner/strategy.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <numeric>
#include <stdexcept>

namespace flowtune {

Strategy::Strategy(const SearchSpace& space, const StrategyOptions& options)
    : space_(space), options_(options), rng_(options.seed), dense_(space.size() <= kDensePoints) {
  if (dense_) {
    dense_state_.assign(space.size(), State::unseen);
    dense_observation_of_.assign(space.size(), -1);
  }
  if (options_.n_objectives == 0) options_.n_objectives = 1;
}

std::optional<std::size_t> Strategy::ask() {
  // A proposal of a seen point is answered from memory (no evaluation) and the strategy asked
  // again; a strategy that keeps proposing seen points falls back to a random unseen one.
  for (int attempt = 0; attempt < 10000; ++attempt) {
    const std::optional<std::size_t> p = propose();
    if (!p) return std::nullopt;
    if (*p >= space_.size()) throw std::logic_error(name() + ": proposed a point out of range");
    if (state_of(*p) == State::unseen) {
      set_state(*p, State::asked);
      ++n_seen_;
      return p;
    }
    if (const Observation* o = observed(*p)) observe(*o);
  }
  const std::optional<std::size_t> p = random_unseen();
  if (p) {
    set_state(*p, State::asked);
    ++n_seen_;
  }
  return p;
}

void Strategy::tell(const Observation& observation) {
  if (observation.point >= space_.size() || state_of(observation.point) != State::asked)
    throw std::invalid_argument(name() + ": told about point " + std::to_string(observation.point) +
                                " that was not asked");
  set_state(observation.point, State::told);
  if (dense_)
    dense_observation_of_[observation.point] = long(observations_.size());
  else
    observation_of_[observation.point] = observations_.size();
  observations_.push_back(observation);
  observe(observation);
}

std::optional<std::size_t> Strategy::random_unseen() {
  // Fisher-Yates drawn lazily over a virtual list 0..size-1: each call draws the next element
  // of a random permutation; only the swapped positions are held.
  const std::size_t n = space_.size();
  const auto at = [&](std::size_t k) {
    const auto it = swapped_.find(k);
    return it == swapped_.end() ? k : it->second;
  };
  while (pool_pos_ < n) {
    std::uniform_int_distribution<std::size_t> pick(pool_pos_, n - 1);
    const std::size_t j = pick(rng_);
    const std::size_t p = at(j);
    swapped_[j] = at(pool_pos_);
    swapped_.erase(pool_pos_++);
    if (!seen(p)) return p;
  }
  return std::nullopt;
}

Strategy::State Strategy::state_of(std::size_t point) const {
  if (dense_) return dense_state_[point];
  const auto it = state_.find(point);
  return it == state_.end() ? State::unseen : it->second;
}

void Strategy::set_state(std::size_t point, State state) {
  if (dense_)
    dense_state_[point] = state;
  else
    state_[point] = state;
}

const Observation* Strategy::observed(std::size_t point) const {
  if (dense_) {
    const long i = dense_observation_of_.at(point);
    return i < 0 ? nullptr : &observations_[std::size_t(i)];
  }
  const auto it = observation_of_.find(point);
  return it == observation_of_.end() ? nullptr : &observations_[it->second];
}

double Strategy::primary(std::size_t point) const {
  const Observation* o = observed(point);
  if (!o || o->outcome != Outcome::measured || o->objectives.empty())
    return std::numeric_limits<double>::infinity();
  return o->objectives[0];
}

namespace {

struct Registered {
  StrategyFactory factory;
  int rank;
};

std::map<std::string, Registered>& registry() {
  static std::map<std::string, Registered> strategies;
  return strategies;
}

}  // namespace

bool register_strategy(const std::string& name, StrategyFactory factory, int rank) {
  if (!registry().emplace(name, Registered{factory, rank}).second)
    throw std::logic_error("strategy '" + name + "' registered twice");
  return true;
}

std::vector<std::string> strategy_names() {
  std::vector<std::pair<int, std::string>> ranked;
  for (const auto& [name, r] : registry()) ranked.emplace_back(r.rank, name);
  std::sort(ranked.begin(), ranked.end());
  std::vector<std::string> names;
  for (const auto& [rank, name] : ranked) names.push_back(name);
  return names;
}

std::unique_ptr<Strategy> make_strategy(const std::string& name, const SearchSpace& space,
                                        const StrategyOptions& options) {
  const auto it = registry().find(name);
  if (it != registry().end()) return it->second.factory(space, options);
  std::string names;
  for (const std::string& n : strategy_names()) names += (names.empty() ? "" : ", ") + n;
  throw std::invalid_argument("unknown strategy '" + name + "' (" + names + ")");
}

}  // namespace flowtune
