// simulated_annealing: a random walk over the neighbourhood with Metropolis acceptance
// (Kirkpatrick, Gelatt and Vecchi 1983) on the relative change of objective 0.
#include <cmath>
#include <limits>

#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

class SimulatedAnnealing : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "simulated_annealing"; }

 protected:
  std::optional<std::size_t> propose() override {
    if (!current_ || stall_ > kStallLimit) {
      stall_ = 0;
      const std::optional<std::size_t> p = random_unseen();
      if (p) restart_ = *p;
      return p;
    }
    const auto& nb = space_.neighbours(*current_);
    if (nb.empty()) {
      current_.reset();
      return random_unseen();
    }
    ++stall_;
    return nb[std::uniform_int_distribution<std::size_t>(0, nb.size() - 1)(rng_)];
  }

  void observe(const Observation& o) override {
    const double v = primary(o.point);
    if (restart_ && *restart_ == o.point) {
      restart_.reset();
      current_ = o.point;
      current_value_ = v;
      return;
    }
    if (!std::isfinite(v)) return;  // failed or pruned: never moved to
    if (v < current_value_) {
      stall_ = 0;
      current_ = o.point;
      current_value_ = v;
      return;
    }
    // Temperature T falls geometrically from 1 to 1e-3 over the budget; a move that makes the
    // objective worse by the fraction r is taken with probability exp(-r / T).
    const double budget = double(options_.budget ? options_.budget : space_.size());
    const double t = std::pow(1e-3, std::min(1.0, double(n_seen()) / budget));
    const double r = (v - current_value_) / std::max(std::abs(current_value_), 1e-300);
    if (std::uniform_real_distribution<double>(0, 1)(rng_) < std::exp(-r / t)) {
      current_ = o.point;
      current_value_ = v;
    }
  }

 private:
  static constexpr int kStallLimit = 200;  // proposals without improvement before a restart
  std::optional<std::size_t> current_, restart_;
  double current_value_ = std::numeric_limits<double>::infinity();
  int stall_ = 0;
};

}  // namespace

std::unique_ptr<Strategy> make_simulated_annealing(const SearchSpace& space,
                                                   const StrategyOptions& options) {
  return std::make_unique<SimulatedAnnealing>(space, options);
}

namespace {

const bool kSimulatedAnnealing =
    register_strategy("simulated_annealing", &make_simulated_annealing, 30);

}  // namespace
}  // namespace flowtune::strategies
