// The design space: every config of a workload on a board, enumerated as a Cartesian
// product of variants, precisions, parameter dimensions, clocks and tunables.
#pragma once

#include <cstddef>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "tuner/search_space.hpp"
#include "variants/config.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// What to enumerate. Empty lists mean "all that the workload/variant/board offers".
struct SpaceOptions {
  std::string workload = kDefaultWorkload;
  std::vector<std::string> variants;    ///< variant names; empty = all of the board's target
  std::vector<std::string> precisions;  ///< empty = each variant's precisions
  std::map<std::string, std::vector<int>> tunable_values;  ///< overrides a tunable's value list
  /// A parameter's dimension (values or ranges, workloads/param_dimension.hpp).
  ParamDimensions param_values;
  bool default_dimensions = true;  ///< start from the workload's default dimensions for the board
  std::vector<int> clocks_mhz;     ///< empty = clock not explored (clock_mhz 0)
};

/// The dimension of every parameter of the workload for this space: the target's default (the
/// fixed_value of the workload's default dimension for the board's target where it has one,
/// so CUDA's epsilon is 0; else the ParamSpec default), replaced by the whole default dimension
/// when options.default_dimensions, replaced by options.param_values. Throws
/// std::invalid_argument for an unknown parameter (the message lists the valid ones) or a value
/// outside its range (with the range).
ParamDimensions parameter_dimensions(const Workload& workload, const Board& board,
                                     const SpaceOptions& options);

/// Every combination of the dimensions' values, in name order (the last name varies
/// fastest); one empty point for no dimension. Holds every point: for small dimensions only
/// (ConfigSpace makes its points from their index).
std::vector<ParamValues> parameter_points(const ParamDimensions& dims);

/// The configs of a space, indexed 0..size()-1 like a std::vector<Config> but not held: config
/// i is made from i as a mixed-radix number (variant and precision block, parameter point,
/// clock, tunables; the last varies fastest; the parameter point is itself a mixed-radix
/// number over the parameter dimensions in name order), so a space of millions of configs
/// costs memory per variant and parameter value only. Or a listed space: the configs given,
/// held.
class ConfigSpace {
 public:
  ConfigSpace() = default;
  /// A listed space: exactly these configs, in this order.
  explicit ConfigSpace(std::vector<Config> configs);

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  /// Config i (made on each call for a generated space). Throws std::out_of_range for
  /// i >= size().
  Config operator[](std::size_t i) const;
  /// Calls visit(i, config) for every config in index order; for a generated space one Config
  /// is updated in place from one to the next (no allocation per config), so visiting every
  /// config of a big space is cheap. visit must not keep the reference.
  void for_each(const std::function<void(std::size_t, const Config&)>& visit) const;
  /// Every config, held (for small spaces and callers that need a vector).
  std::vector<Config> materialise() const;
  /// The parameter dimensions of a generated space (parameter_dimensions); empty for a listed
  /// one.
  const ParamDimensions& param_dimensions() const { return param_dims_; }
  /// Parameter points of a generated space: the product of the dimensions' value counts.
  std::size_t n_param_points() const { return n_points_; }
  /// True for a space made by make_space (configs made from their index), false for a listed
  /// one.
  bool generated() const { return !listed_; }
  /// The index of config in this space, or nullopt when the space does not hold it (another
  /// workload, variant, precision, clock, tunable or parameter value). A parameter the config
  /// lacks takes its absent value (a DB row's canonical form, Workload::with_absent_values).
  /// A generated space computes it from the config's values (no pass over the space: a resumed
  /// run counts the DB's configs in a space of 10^11 this way); a listed one compares configs.
  std::optional<std::size_t> index_of(const Config& config) const;
  /// The mixed-radix structure of a generated space, for a SearchSpace that computes its
  /// points' coordinates (SearchSpace(const SpaceLayout&)). Throws std::logic_error for a
  /// listed space.
  SpaceLayout layout() const;

  /// Iteration by value: `for (const Config& c : space)`.
  class const_iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = Config;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = Config;
    const_iterator(const ConfigSpace* space, std::size_t i) : space_(space), i_(i) {}
    Config operator*() const { return (*space_)[i_]; }
    const_iterator& operator++() {
      ++i_;
      return *this;
    }
    bool operator==(const const_iterator& o) const { return i_ == o.i_; }
    bool operator!=(const const_iterator& o) const { return i_ != o.i_; }

   private:
    const ConfigSpace* space_;
    std::size_t i_;
  };
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

 private:
  friend ConfigSpace make_space(const Board& board, const SpaceOptions& options);
  /// One variant and precision: param_points x clocks x tunable combinations.
  struct Block {
    std::string variant, precision;
    std::vector<TunableDomain> domains;
    std::size_t combos = 1;  ///< tunable combinations
    std::size_t first = 0;   ///< index of its first config
    std::size_t size = 0;
  };
  void set_tunables(const Block& block, std::size_t combo, Config& config) const;
  void set_params(std::size_t point, Config& config) const;
  std::string workload_;
  ParamDimensions param_dims_;
  /// The dimensions as (name, values), in name order (the last varies fastest).
  std::vector<std::pair<std::string, std::vector<double>>> param_axes_;
  std::size_t n_points_ = 1;
  std::vector<int> clocks_;
  std::vector<Block> blocks_;
  bool listed_ = false;
  std::vector<Config> list_;
  std::size_t size_ = 0;
};

/// The space of variant x precision x parameters x clock x tunables for board, in a stable
/// order (variants as registered, parameters and tunables in name order), generated (see
/// ConfigSpace). Only the workload's variants whose target matches the board's ("cpu" for host
/// boards, "cuda" for GPU boards) are included unless named explicitly. Throws
/// std::invalid_argument for an unknown workload, variant (or one of another workload),
/// precision, tunable or parameter.
ConfigSpace make_space(const Board& board, const SpaceOptions& options);

/// make_space(board, options), every config held in a vector (small spaces, tests).
std::vector<Config> enumerate_space(const Board& board, const SpaceOptions& options);

}  // namespace flowtune
