// Search strategies: they only choose which points of the space to measure, in which order
// (Kernel Tuner's split between strategies and observers).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace flowtune {

/// Chooses the order in which the n_points candidates (indices 0..n_points-1) are measured.
class Strategy {
 public:
  virtual ~Strategy() = default;
  virtual std::string name() const = 0;
  /// Indices into the candidate list, each at most once.
  virtual std::vector<std::size_t> order(std::size_t n_points) const = 0;
};

/// "brute_force": every point, in enumeration order.
/// "random_sample": a uniformly random subset of max_evals points (seeded, reproducible).
/// Throws std::invalid_argument for another name.
std::unique_ptr<Strategy> make_strategy(const std::string& name, std::size_t max_evals,
                                        std::uint64_t seed);

}  // namespace flowtune
