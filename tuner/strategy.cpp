#include "tuner/strategy.hpp"

#include <algorithm>
#include <numeric>
#include <random>
#include <stdexcept>

namespace flowtune {
namespace {

class BruteForce : public Strategy {
 public:
  std::string name() const override { return "brute_force"; }
  std::vector<std::size_t> order(std::size_t n_points) const override {
    std::vector<std::size_t> idx(n_points);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    return idx;
  }
};

class RandomSample : public Strategy {
 public:
  RandomSample(std::size_t max_evals, std::uint64_t seed) : max_evals_(max_evals), seed_(seed) {}
  std::string name() const override { return "random_sample"; }
  std::vector<std::size_t> order(std::size_t n_points) const override {
    std::vector<std::size_t> idx(n_points);
    std::iota(idx.begin(), idx.end(), std::size_t{0});
    std::mt19937_64 rng(seed_);
    std::shuffle(idx.begin(), idx.end(), rng);
    if (max_evals_ > 0 && idx.size() > max_evals_) idx.resize(max_evals_);
    return idx;
  }

 private:
  std::size_t max_evals_;
  std::uint64_t seed_;
};

}  // namespace

std::unique_ptr<Strategy> make_strategy(const std::string& name, std::size_t max_evals,
                                        std::uint64_t seed) {
  if (name == "brute_force") return std::make_unique<BruteForce>();
  if (name == "random_sample") return std::make_unique<RandomSample>(max_evals, seed);
  throw std::invalid_argument("unknown strategy '" + name + "' (brute_force, random_sample)");
}

}  // namespace flowtune
