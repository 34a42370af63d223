// The two baseline strategies: every point in order, and uniform random sampling.
#include <cstddef>
#include <vector>

#include "tuner/strategy.hpp"

namespace flowtune {
namespace {

class BruteForce : public Strategy {
 public:
  using Strategy::Strategy;
  std::string name() const override { return "brute_force"; }
  /// The next n unseen points in index order: exactly what propose() returns next.
  std::vector<std::size_t> upcoming(std::size_t n) const override {
    std::vector<std::size_t> out;
    for (std::size_t p = next_; p < space_.size() && out.size() < n; ++p)
      if (!seen(p)) out.push_back(p);
    return out;
  }

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

const bool kBruteForce = register_strategy(
    "brute_force",
    [](const SearchSpace& space, const StrategyOptions& options) -> std::unique_ptr<Strategy> {
      return std::make_unique<BruteForce>(space, options);
    },
    0);
const bool kRandomSample = register_strategy(
    "random_sample",
    [](const SearchSpace& space, const StrategyOptions& options) -> std::unique_ptr<Strategy> {
      return std::make_unique<RandomSample>(space, options);
    },
    10);

}  // namespace
}  // namespace flowtune
