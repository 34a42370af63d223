// genetic_algorithm: a generational GA with binary tournament selection, uniform crossover
// snapped to the space, neighbour mutation and elitism (the best two survive).
#include <algorithm>
#include <deque>
#include <set>

#include "tuner/strategies/evolution.hpp"
#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

class GeneticAlgorithm : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "genetic_algorithm"; }

 protected:
  std::optional<std::size_t> propose() override {
    if (queue_.empty()) {
      if (population_.empty()) {
        // First generation: random points.
        for (std::size_t i = 0; i < kPopulation; ++i)
          if (auto p = random_unseen()) {
            queue_.push_back(*p);
            population_.push_back(*p);
          }
        if (queue_.empty()) return std::nullopt;
      } else {
        next_generation();
        if (queue_.empty()) return std::nullopt;
      }
    }
    const std::size_t p = queue_.front();
    queue_.pop_front();
    return p;
  }

  void observe(const Observation&) override {}

 private:
  static constexpr std::size_t kPopulation = 20;
  static constexpr double kMutation = 0.3;

  std::size_t tournament() {
    std::uniform_int_distribution<std::size_t> pick(0, population_.size() - 1);
    const std::size_t a = population_[pick(rng_)], b = population_[pick(rng_)];
    return primary(a) <= primary(b) ? a : b;
  }

  void next_generation() {
    std::vector<std::size_t> sorted = population_;
    std::sort(sorted.begin(), sorted.end(),
              [&](std::size_t a, std::size_t b) { return primary(a) < primary(b); });
    std::vector<std::size_t> next(sorted.begin(),
                                  sorted.begin() + std::min<std::size_t>(2, sorted.size()));
    std::set<std::size_t> members(next.begin(), next.end());
    for (int tries = 0; next.size() < kPopulation && tries < 20 * int(kPopulation); ++tries) {
      std::size_t child = make_child(space_, tournament(), tournament(), kMutation, rng_);
      if (members.count(child)) {  // a clone: mutate it once more, else a fresh random point
        const auto& nb = space_.neighbours(child);
        if (!nb.empty())
          child = nb[std::uniform_int_distribution<std::size_t>(0, nb.size() - 1)(rng_)];
        if (members.count(child)) {
          auto r = random_unseen();
          if (!r) break;
          child = *r;
        }
      }
      members.insert(child);
      next.push_back(child);
      queue_.push_back(child);  // a seen child is answered from memory by Strategy::ask
    }
    population_ = next;
    if (queue_.empty())
      if (auto r = random_unseen()) queue_.push_back(*r);
  }

  std::vector<std::size_t> population_;
  std::deque<std::size_t> queue_;
};

}  // namespace

std::unique_ptr<Strategy> make_genetic_algorithm(const SearchSpace& space,
                                                 const StrategyOptions& options) {
  return std::make_unique<GeneticAlgorithm>(space, options);
}

namespace {

const bool kGeneticAlgorithm = register_strategy("genetic_algorithm", &make_genetic_algorithm, 40);

}  // namespace
}  // namespace flowtune::strategies
