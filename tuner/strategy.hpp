// Search strategies (Kernel Tuner's split: a strategy only chooses points): ask() proposes
// the next point of a SearchSpace, tell() reports what measuring it gave. The tuning loop
// (tuner/tune_run.cpp) and the replay (tuner/replay.cpp) are the same propose -> prune ->
// measure -> tell loop.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "tuner/search_space.hpp"

namespace flowtune {

/// What became of a proposed point.
enum class Outcome {
  measured,  ///< objectives hold its values
  failed,    ///< built or ran, but gave no valid measurement (counts as an evaluation)
  pruned,    ///< rejected by the resource model before building (no evaluation)
};

/// The result of one proposed point. objectives are all minimised (a maximised metric is
/// negated by the caller); objectives[0] is the one single-objective strategies minimise.
struct Observation {
  std::size_t point = 0;
  Outcome outcome = Outcome::measured;
  std::vector<double> objectives;
  /// The objectives as measured, oriented for minimisation, before the constraint rule
  /// replaced them (tuner/constraint_domination.hpp): what a surrogate model learns from even
  /// where the point is infeasible. Empty when unknown (a screened-out point).
  std::vector<double> values;
  /// Per constraint of the request: (value - bound) / max(|bound|, 1e-12), <= 0 where the
  /// constraint holds, NaN where the figure is missing; empty without constraints.
  std::vector<double> slack;
};

/// How a strategy is set up.
struct StrategyOptions {
  std::uint64_t seed = 1;  ///< every strategy is reproducible for a seed
  std::size_t budget = 0;  ///< evaluations the caller will allow (0 = the whole space); a
                           ///< strategy may use it to schedule (annealing temperature)
  std::size_t n_objectives = 1;
  /// Model estimate per point (lower = predicted better; tuner/model_estimate.hpp), or empty.
  /// model_guided needs it; others ignore it.
  std::vector<double> prior;
  /// What the first point of a kernel set (SearchSpace::kernel_set_of) costs beyond its
  /// measurement, in measurements: its build (NVRTC; 0 where nothing is built, the host's
  /// variants). A cost-aware strategy (kernel_staged) weighs new kernel sets by it. The
  /// default: NVRTC takes seconds per kernel (the H200 main job: 1919 kernels in 480 s on 15
  /// build threads, ~3.7 s each), a measurement of the two bundled pairs a few tenths of a
  /// second (4 points/s once builds were cached).
  double kernel_build_cost = 10;
  /// False for a point whose kernel config (variant, precision, tunables) the variant's own
  /// rules reject before any build (Variant::invalid_reason, for a variant whose checks ignore
  /// the parameters: one answer per kernel set); empty = every point allowed. A strategy that
  /// picks kernel sets (kernel_staged) draws them among the allowed ones, so that a variant
  /// and precision whose centre set breaks a rule still gets a set that runs.
  std::function<bool(std::size_t point)> kernel_set_allowed;
};

/// A search strategy over a SearchSpace. The caller alternates ask() and tell() for the point
/// asked; ask() never proposes a point it was told about or proposed before, and returns
/// nullopt when it has nothing left to propose (the whole space, or its own stopping rule).
class Strategy {
 public:
  Strategy(const SearchSpace& space, const StrategyOptions& options);
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  /// The next point to measure, or nullopt when done.
  std::optional<std::size_t> ask();
  /// The result of a point returned by ask(). Throws std::invalid_argument for a point not
  /// asked or already told.
  void tell(const Observation& observation);
  /// Up to n points the strategy expects to propose soon, likeliest first: a hint the caller
  /// may use to build their kernels ahead (ConstraintChecks::prefetch); nothing is promised.
  /// Default: none.
  virtual std::vector<std::size_t> upcoming(std::size_t n) const {
    (void)n;
    return {};
  }

 protected:
  /// The strategy's proposal; may return a point already seen (ask() then tells the strategy
  /// the known result and asks again, without counting an evaluation) or nullopt.
  virtual std::optional<std::size_t> propose() = 0;
  /// The strategy's update for a point.
  virtual void observe(const Observation& observation) = 0;

  /// A uniformly random point not yet seen, or nullopt when every point was seen.
  std::optional<std::size_t> random_unseen();
  bool seen(std::size_t point) const {
    return dense_ ? dense_state_[point] != State::unseen : state_.count(point) > 0;
  }
  /// The recorded observation of a told point, or nullptr.
  const Observation* observed(std::size_t point) const;
  /// objectives[0] of a measured point; +infinity for a failed, pruned or unseen one.
  double primary(std::size_t point) const;
  std::size_t n_seen() const { return n_seen_; }

  const SearchSpace& space_;
  StrategyOptions options_;
  std::mt19937_64 rng_;

 private:
  // A space of up to kDensePoints points holds a state per point (fast scans of small
  // spaces); a larger one (a generated space may have 10^11) per point asked only.
  static constexpr std::size_t kDensePoints = std::size_t(1) << 24;
  enum class State : std::uint8_t { unseen, asked, told };
  bool dense_ = false;
  std::vector<State> dense_state_;
  std::vector<long> dense_observation_of_;
  State state_of(std::size_t point) const;
  void set_state(std::size_t point, State state);
  std::unordered_map<std::size_t, State> state_;  // absent: unseen
  // random_unseen's permutation drawn lazily (Fisher-Yates): position -> point where it
  // differs from the identity.
  std::unordered_map<std::size_t, std::size_t> swapped_;
  std::size_t pool_pos_ = 0;
  std::size_t n_seen_ = 0;
  std::vector<Observation> observations_;
  std::unordered_map<std::size_t, std::size_t> observation_of_;
};

/// Builds a strategy over a space (a registered factory).
using StrategyFactory = std::unique_ptr<Strategy> (*)(const SearchSpace& space,
                                                      const StrategyOptions& options);

/// Registers a strategy under `name`, from the strategy's own file (a static registrar:
/// `const bool kName = register_strategy("name", &factory, rank);`, a name of its own: the
/// unity build compiles several strategy files as one), so a new
/// strategy is one new file (ARCHITECTURE.md, "How to add a strategy"). rank orders
/// strategy_names() (lower first). Returns true; throws std::logic_error for a name
/// registered twice.
bool register_strategy(const std::string& name, StrategyFactory factory, int rank = 1000);

/// The strategy registered as `name`. This build's strategies (tuner/strategies/):
/// - "brute_force": every point in enumeration order;
/// - "random_sample": points uniformly at random without replacement;
/// - "greedy_ils": first-improvement local search over SearchSpace::neighbours with random
///   perturbation restarts (iterated local search, Lourenco et al. 2003);
/// - "simulated_annealing": Metropolis acceptance on the relative change of objective 0, with
///   a geometric temperature schedule over the budget (Kirkpatrick et al. 1983);
/// - "genetic_algorithm": tournament selection, uniform crossover snapped to the nearest
///   point of the space, neighbour mutation, elitism;
/// - "bayes_opt": a Tree-structured Parzen Estimator surrogate (Bergstra et al. 2011, sec.
///   4) over the coordinates, acquisition l(x)/g(x) maximised over every unseen point;
/// - "nsga2": NSGA-II over all objectives (Deb et al. 2002: non-dominated sorting, crowding
///   distance, binary tournament);
/// - "additive_surrogate": model-based search with a main-effects surrogate of every objective
///   and constraint fitted by backfitting (a balanced design first, then ParEGO scalarisations
///   for a front; tuner/strategies/additive_surrogate.cpp cites the sources);
/// - "kernel_staged": the additive surrogate's model spent on few kernel sets (variant +
///   precision + tunables, one NVRTC build each): per variant and precision the set the prior
///   ranks fastest, then expected improvement per unit cost (a new set costs a build of ~10
///   measurements), and in the last quarter of the budget local search over the kernel sets of
///   the best points (tuner/strategies/kernel_staged.cpp cites the sources);
/// - "model_guided": the points with the best model estimate (StrategyOptions::prior) first,
///   then greedy local search from the best measured ones.
/// Throws std::invalid_argument for an unregistered name (the message lists them) or what
/// the factory throws (model_guided without a prior of the space's size).
std::unique_ptr<Strategy> make_strategy(const std::string& name, const SearchSpace& space,
                                        const StrategyOptions& options);

/// Every registered name, by rank then name.
std::vector<std::string> strategy_names();

}  // namespace flowtune
