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

/// The mixed-radix structure of a generated space (ConfigSpace::layout, tuner/space.hpp), from
/// which a SearchSpace computes each point's coordinates instead of holding them: point i of
/// block b (one variant and precision) is b.first + ((p * clocks + k) * combos + t), p the
/// parameter point (a mixed-radix number over `params`, the last fastest), k the clock and t
/// the tunable combination (over b.tunables, the last fastest).
struct SpaceLayout {
  struct Axis {
    std::string name;
    std::vector<double> values;  ///< in enumeration order
  };
  struct Block {
    std::string variant, precision;
    std::vector<Axis> tunables;
    std::size_t first = 0;  ///< index of its first point
    std::size_t size = 0;   ///< > 0
  };
  std::vector<Axis> params;  ///< every parameter, in name order
  std::vector<int> clocks;   ///< at least one (0: clock not explored)
  std::vector<Block> blocks;
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
  /// The space of a generated ConfigSpace from its layout, with the dimensions and coordinates
  /// the visiting constructor gives its configs, but computed per point (nothing held per
  /// point): a space of 10^11 points costs memory per dimension value and block only.
  explicit SearchSpace(const SpaceLayout& layout);

  std::size_t size() const { return size_; }
  const std::vector<SpaceDimension>& dimensions() const { return dims_; }
  /// The coordinates of point (by value: a generated space computes them). Throws
  /// std::out_of_range for point >= size().
  std::vector<int> coords(std::size_t point) const;
  /// coords(point)[dim] without copying a held space's coordinates (a strategy's inner loop).
  int coord(std::size_t point, std::size_t dim) const {
    return generated_ ? coords(point)[dim] : coords_.at(point)[dim];
  }

  /// The point with exactly these coordinates, or -1.
  long find(const std::vector<int>& coords) const;

  /// Points one step away: the same coordinates except one dimension, moved by one value on an
  /// ordinal axis or to any other value on a categorical one; where a categorical move leaves
  /// no exact point (another variant has other tunables), the nearest point (nearest()) of that
  /// value. Sorted, without duplicates, never the point itself. On a range's dimension the
  /// ordinal step is to the adjacent value of its enumeration (zoom 0.55 -> 0.5 and 0.6).
  const std::vector<std::size_t>& neighbours(std::size_t point) const;

  /// The point nearest to coords (which need not exist): fewest differing dimensions, then the
  /// smallest sum of ordinal index distances; ties go to the lowest index. Only points whose
  /// dimension `fixed_dim` has value coords[fixed_dim] are considered when fixed_dim >= 0
  /// (returns -1 if there is none).
  long nearest(const std::vector<int>& coords, int fixed_dim = -1) const;

  /// Kernel sets: the points that share one NVRTC build, i.e. the same coordinates on the
  /// variant, precision and tunable dimensions (ARCHITECTURE.md, "Vocabulary"), numbered
  /// 0 .. kernel_sets() - 1 in the order of their first point. A generated space computes them
  /// from its layout (set t of a block is every point of tunable combination t); a held one
  /// indexes its points once, on the first call (8 bytes a point; like neighbours(), a lazy
  /// cache: one thread at a time).
  std::size_t kernel_sets() const;
  /// The kernel set of point. Throws std::out_of_range for point >= size().
  std::size_t kernel_set_of(std::size_t point) const;
  /// Points of a kernel set. Throws std::out_of_range for set >= kernel_sets().
  std::size_t kernel_set_size(std::size_t set) const;
  /// The i-th point of a kernel set, in index order (i < kernel_set_size(set)).
  std::size_t kernel_set_member(std::size_t set, std::size_t i) const;

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
  /// Neighbours computed so far, by point (node-based: references stay valid).
  mutable std::unordered_map<std::size_t, std::vector<std::size_t>> neighbours_;
  std::size_t size_ = 0;

  /// A generated space (SearchSpace(const SpaceLayout&)): no coords_, no index_.
  bool generated_ = false;
  /// One axis of the layout mapped onto a dimension: its dimension (-1: dropped, a single
  /// value) and, per value of the axis, the dimension's value index; per value index of the
  /// dimension, the axis value (-1: the axis lacks it).
  struct AxisMap {
    int dim = -1;
    std::vector<int> to_dim;
    std::vector<int> from_dim;
  };
  struct BlockMap {
    std::size_t first = 0, size = 0, combos = 1;
    int variant = -1, precision = -1;  ///< value indices on their dimensions
    std::vector<AxisMap> tunables;     ///< the block's tunable axes, in layout order
    std::vector<int> tunable_of_dim;   ///< per dimension: the block's tunable axis, or -1
  };
  std::vector<BlockMap> blocks_;
  std::vector<AxisMap> params_;
  AxisMap clock_;
  int variant_dim_ = -1, precision_dim_ = -1;
  std::size_t n_points_ = 1;
  std::vector<bool> is_tunable_dim_;
  long generated_find(const std::vector<int>& coords) const;
  long generated_nearest(const std::vector<int>& coords, int fixed_dim) const;

  /// Per block of a generated space, the number of its first kernel set.
  std::vector<std::size_t> block_first_set_;
  std::size_t n_generated_sets_ = 0;
  /// A held space's kernel sets, indexed once (index_held_kernel_sets).
  void index_held_kernel_sets() const;
  mutable bool held_sets_indexed_ = false;
  mutable std::vector<std::uint32_t> held_set_of_;   ///< per point
  mutable std::vector<std::uint32_t> held_members_;  ///< points by set
  mutable std::vector<std::size_t> held_set_first_;  ///< per set, offset in held_members_ (+ end)
};

}  // namespace flowtune
