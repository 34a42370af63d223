// greedy_ils and model_guided: first-improvement local search over the space's neighbourhood,
// restarted from a perturbation of the best point (ILS) or from the next point the model ranks
// best (model_guided).
#include <algorithm>
#include <deque>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "tuner/strategies/strategies.hpp"

namespace flowtune::strategies {
namespace {

class LocalSearch : public Strategy {
 public:
  using Strategy::Strategy;

 protected:
  /// The point a new descent starts from (nullopt: the space is exhausted).
  virtual std::optional<std::size_t> restart_point() = 0;

  std::optional<std::size_t> propose() override {
    if (!queue_.empty()) {
      const std::size_t p = queue_.front();
      queue_.pop_front();
      return p;
    }
    // A local optimum (or the start): a new descent from the restart point.
    const std::optional<std::size_t> start = restart_point();
    if (start) pending_start_ = *start;
    return start;
  }

  void observe(const Observation& o) override {
    const double v = primary(o.point);
    if (v < best_value_) {
      best_value_ = v;
      best_ = o.point;
    }
    if (pending_start_ && *pending_start_ == o.point) {
      pending_start_.reset();
      move_to(o.point, v);
    } else if (v < current_value_) {
      move_to(o.point, v);
    }
  }

  void move_to(std::size_t point, double value) {
    current_ = point;
    current_value_ = value;
    queue_.clear();
    std::vector<std::size_t> next;
    for (std::size_t n : space_.neighbours(point))
      if (!seen(n)) next.push_back(n);
    std::shuffle(next.begin(), next.end(), rng_);
    queue_.assign(next.begin(), next.end());
  }

  std::optional<std::size_t> best_;
  double best_value_ = std::numeric_limits<double>::infinity();

 private:
  std::deque<std::size_t> queue_;
  std::optional<std::size_t> current_, pending_start_;
  double current_value_ = std::numeric_limits<double>::infinity();
};

class GreedyIls : public LocalSearch {
 public:
  using LocalSearch::LocalSearch;
  std::string name() const override { return "greedy_ils"; }

 protected:
  // Perturbation: a random walk of a few neighbour steps from the best point so far, ending on
  // an unseen point; a random point at the start or when the walk finds none.
  std::optional<std::size_t> restart_point() override {
    if (best_) {
      std::size_t p = *best_;
      for (int step = 0; step < 12; ++step) {
        const auto& nb = space_.neighbours(p);
        if (nb.empty()) break;
        p = nb[std::uniform_int_distribution<std::size_t>(0, nb.size() - 1)(rng_)];
        if (step >= 2 && !seen(p)) return p;
      }
    }
    return random_unseen();
  }
};

class ModelGuided : public LocalSearch {
 public:
  ModelGuided(const SearchSpace& space, const StrategyOptions& options)
      : LocalSearch(space, options), ranked_(space.size()) {
    std::iota(ranked_.begin(), ranked_.end(), std::size_t{0});
    // Best estimate first; ties in random (seeded) order.
    std::vector<std::uint64_t> tie(space.size());
    for (auto& t : tie) t = rng_();
    std::sort(ranked_.begin(), ranked_.end(), [&](std::size_t a, std::size_t b) {
      return std::make_pair(options_.prior[a], tie[a]) < std::make_pair(options_.prior[b], tie[b]);
    });
    const std::size_t budget = options.budget ? options.budget : space.size();
    n_initial_ = std::max<std::size_t>(4, budget / 10);
  }
  std::string name() const override { return "model_guided"; }

 protected:
  std::optional<std::size_t> propose() override {
    // First the points the model ranks best; then local search from the best measured.
    if (n_initial_ > 0) {
      --n_initial_;
      return next_ranked();
    }
    if (!descending_ && best_) {
      descending_ = true;
      const std::size_t start = *best_;
      move_to(start, best_value_);
    }
    return LocalSearch::propose();
  }
  std::optional<std::size_t> restart_point() override { return next_ranked(); }

 private:
  std::optional<std::size_t> next_ranked() {
    while (pos_ < ranked_.size() && seen(ranked_[pos_])) ++pos_;
    if (pos_ >= ranked_.size()) return std::nullopt;
    return ranked_[pos_++];
  }
  std::vector<std::size_t> ranked_;
  std::size_t pos_ = 0, n_initial_ = 0;
  bool descending_ = false;
};

}  // namespace

std::unique_ptr<Strategy> make_greedy_ils(const SearchSpace& space,
                                          const StrategyOptions& options) {
  return std::make_unique<GreedyIls>(space, options);
}

std::unique_ptr<Strategy> make_model_guided(const SearchSpace& space,
                                            const StrategyOptions& options) {
  return std::make_unique<ModelGuided>(space, options);
}

namespace {

// model_guided needs the model's estimate of every point.
std::unique_ptr<Strategy> make_checked_model_guided(const SearchSpace& space,
                                                    const StrategyOptions& options) {
  if (options.prior.size() != space.size())
    throw std::invalid_argument("model_guided needs a model estimate for each of the " +
                                std::to_string(space.size()) + " points");
  return make_model_guided(space, options);
}

const bool kGreedyIls = register_strategy("greedy_ils", &make_greedy_ils, 20);
const bool kModelGuided = register_strategy("model_guided", &make_checked_model_guided, 70);

}  // namespace
}  // namespace flowtune::strategies
