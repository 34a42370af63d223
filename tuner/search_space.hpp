// The design space as strategies see it: every config as a vector of coordinates (one value
// index per dimension), with neighbourhoods and snapping, independent of any workload.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "variants/config.hpp"

namespace flowtune {

/// What an axis of the space varies (ARCHITECTURE.md, "Vocabulary"). A config's kernel set,
/// what one NVRTC build serves, is its variant, precision and tunables; its accuracy depends
/// only on its parameters and precision (the numerics contract).
enum class DimensionKind : std::uint8_t { variant, precision, clock, tunable, parameter };

/// One axis of the space. Ordinal axes (tunables, parameters, clocks) have their values
/// sorted ascending, so value index +-1 is a step; categorical ones (variant, precision) have
/// no order.
struct SpaceDimension {
  std::string name;                 ///< "variant", "precision", "clock_mhz", a tunable or parameter
  std::vector<std::string> labels;  ///< the values, as text ("32", "0.5", "shared_fusion")
  std::vector<double> numbers;      ///< ordinal: the values as numbers (empty for categorical)
  bool ordinal = false;
  /// Set from the configs by the Config constructors; a synthetic space says it (default:
  /// an algorithm parameter).
  DimensionKind kind = DimensionKind::parameter;
};

/// A finite space of points. Point i has coords[i][d] = value index on dimension d, or -1
/// where the dimension does not apply to it (a tunable of another variant). Dimensions that
/// take a single value in the whole space are dropped.
class SearchSpace {
 public:
  SearchSpace() = default;
  /// Builds the coordinates of configs (the enumeration of tuner/space.hpp or the configs of
  /// a recorded run): dimensions "variant", "precision", "clock_mhz", every tunable and every
  /// parameter that takes two or more values. Duplicate configs (same coordinates) throw
  /// std::invalid_argument.
  explicit SearchSpace(const std::vector<Config>& configs);
  /// Calls its argument with every config of a space and its index, in index order.
  using ConfigVisitor = std::function<void(const std::function<void(std::size_t, const Config&)>&)>;
  /// The same for the n configs visit_configs visits (a generated space: ConfigSpace::for_each
  /// of tuner/space.hpp, which holds no configs).
  SearchSpace(std::size_t n, const ConfigVisitor& visit_configs);
  /// A space straight from coordinates (tests, synthetic spaces). Throws
  /// std::invalid_argument for a coordinate out of range or a duplicate point.
  SearchSpace(std::vector<SpaceDimension> dims, std::vector<std::vector<int>> coords);

  std::size_t size() const { return coords_.size(); }
  const std::vector<SpaceDimension>& dimensions() const { return dims_; }
  const std::vector<int>& coords(std::size_t point) const { return coords_.at(point); }

  /// The point with exactly these coordinates, or -1.
  long find(const std::vector<int>& coords) const;

  /// Points one step away: the same coordinates except one dimension, moved by one value on an
  /// ordinal axis or to any other value on a categorical one; where a categorical move leaves
  /// no exact point (another variant has other tunables), the nearest point (nearest()) of that
  /// value. Sorted, without duplicates, never the point itself.
  const std::vector<std::size_t>& neighbours(std::size_t point) const;

  /// The point nearest to coords (which need not exist): fewest differing dimensions, then the
  /// smallest sum of ordinal index distances; ties go to the lowest index. Only points whose
  /// dimension `fixed_dim` has value coords[fixed_dim] are considered when fixed_dim >= 0
  /// (returns -1 if there is none).
  long nearest(const std::vector<int>& coords, int fixed_dim = -1) const;

 private:
  void build_index();
  std::vector<SpaceDimension> dims_;
  std::vector<std::vector<int>> coords_;
  /// The key of coords in index_: a mixed-radix number (coordinate + 1 in base labels + 1).
  std::uint64_t key_of(const std::vector<int>& coords) const;
  std::unordered_map<std::uint64_t, std::size_t> index_;
  /// index_ needs the product of (labels + 1) over the dimensions below 2^64; a space too wide
  /// for that keys by text (string_index_).
  bool text_keys_ = false;
  std::unordered_map<std::string, std::size_t> string_index_;
  mutable std::vector<std::vector<std::size_t>> neighbours_;
  mutable std::vector<bool> neighbours_done_;
};

}  // namespace flowtune
