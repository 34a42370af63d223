#include "tuner/search_space.hpp"

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <stdexcept>

namespace flowtune {
namespace {

std::string coords_key(const std::vector<int>& c) {
  std::string key;
  for (int v : c) key += std::to_string(v) + ',';
  return key;
}

// Values of one axis over the configs, in the order of the axis.
struct Axis {
  std::set<std::string> categorical;
  std::set<double> ordinal;
};

}  // namespace

SearchSpace::SearchSpace(const std::vector<Config>& configs)
    : SearchSpace(configs.size(), [&](const std::function<void(std::size_t, const Config&)>& f) {
        for (std::size_t i = 0; i < configs.size(); ++i) f(i, configs[i]);
      }) {}

SearchSpace::SearchSpace(std::size_t n, const ConfigVisitor& visit_configs) {
  std::map<std::string, Axis> axes;  // name -> values
  std::vector<std::string> order = {"variant", "precision", "clock_mhz"};
  {
    // By name without the prefix, so that a config's names find their axis without making a
    // string (millions of configs).
    Axis& variant = axes["variant"];
    Axis& precision = axes["precision"];
    Axis& clock = axes["clock_mhz"];
    std::map<std::string, std::set<double>, std::less<>> tunables, params;
    visit_configs([&](std::size_t, const Config& c) {
      variant.categorical.insert(c.variant);
      precision.categorical.insert(c.precision);
      clock.ordinal.insert(c.clock_mhz);
      for (const auto& [name, v] : c.tunables) tunables[name].insert(v);
      for (const auto& [name, v] : c.params) params[name].insert(v);
    });
    for (auto& [name, values] : tunables) axes["t:" + name].ordinal = std::move(values);
    for (auto& [name, values] : params) axes["p:" + name].ordinal = std::move(values);
  }
  for (const auto& [name, axis] : axes)
    if (name.rfind("t:", 0) == 0) order.push_back(name);
  for (const auto& [name, axis] : axes)
    if (name.rfind("p:", 0) == 0) order.push_back(name);
  std::vector<std::string> kept;  // internal names of the dimensions with >= 2 values
  for (const std::string& name : order) {
    const Axis& axis = axes[name];
    SpaceDimension d;
    d.name = name.size() > 2 && name[1] == ':' ? name.substr(2) : name;
    if (!axis.categorical.empty()) {
      d.labels.assign(axis.categorical.begin(), axis.categorical.end());
    } else {
      d.ordinal = true;
      for (double v : axis.ordinal) {
        d.numbers.push_back(v);
        d.labels.push_back(shortest_decimal(v));
      }
    }
    if (d.labels.size() < 2) continue;
    d.kind = name == "variant"          ? DimensionKind::variant
             : name == "precision"      ? DimensionKind::precision
             : name == "clock_mhz"      ? DimensionKind::clock
             : name.rfind("t:", 0) == 0 ? DimensionKind::tunable
                                        : DimensionKind::parameter;
    dims_.push_back(std::move(d));
    kept.push_back(name);
  }
  // What each kept dimension reads: v(ariant), p(recision), c(lock), t(unable), else parameter.
  std::vector<char> kind(kept.size());
  for (std::size_t d = 0; d < kept.size(); ++d)
    kind[d] = kept[d] == "variant"     ? 'v'
              : kept[d] == "precision" ? 'p'
              : kept[d] == "clock_mhz" ? 'c'
              : kept[d][0] == 't'      ? 't'
                                       : 'q';
  coords_.reserve(n);
  visit_configs([&](std::size_t, const Config& c) {
    std::vector<int> coords(dims_.size(), -1);
    for (std::size_t d = 0; d < dims_.size(); ++d) {
      const SpaceDimension& dim = dims_[d];
      if (kind[d] == 'v' || kind[d] == 'p') {
        const std::string& v = kind[d] == 'v' ? c.variant : c.precision;
        coords[d] =
            int(std::lower_bound(dim.labels.begin(), dim.labels.end(), v) - dim.labels.begin());
        continue;
      }
      double v = 0;
      if (kind[d] == 'c') {
        v = c.clock_mhz;
      } else if (kind[d] == 't') {
        auto it = c.tunables.find(dim.name);
        if (it == c.tunables.end()) continue;
        v = it->second;
      } else {
        auto it = c.params.find(dim.name);
        if (it == c.params.end()) continue;
        v = it->second;
      }
      coords[d] =
          int(std::lower_bound(dim.numbers.begin(), dim.numbers.end(), v) - dim.numbers.begin());
    }
    coords_.push_back(std::move(coords));
  });
  if (coords_.size() != n)
    throw std::invalid_argument("SearchSpace: " + std::to_string(coords_.size()) +
                                " configs visited for a space of " + std::to_string(n));
  size_ = n;
  build_index();
}

SearchSpace::SearchSpace(std::vector<SpaceDimension> dims, std::vector<std::vector<int>> coords)
    : dims_(std::move(dims)), coords_(std::move(coords)) {
  for (const auto& c : coords_) {
    if (c.size() != dims_.size())
      throw std::invalid_argument("SearchSpace: a point has " + std::to_string(c.size()) +
                                  " coordinates for " + std::to_string(dims_.size()) +
                                  " dimensions");
    for (std::size_t d = 0; d < c.size(); ++d)
      if (c[d] < -1 || c[d] >= int(dims_[d].labels.size()))
        throw std::invalid_argument("SearchSpace: coordinate " + std::to_string(c[d]) +
                                    " out of range on dimension " + dims_[d].name);
  }
  size_ = coords_.size();
  build_index();
}

std::uint64_t SearchSpace::key_of(const std::vector<int>& coords) const {
  std::uint64_t key = 0;
  for (std::size_t d = 0; d < dims_.size(); ++d)
    key = key * (dims_[d].labels.size() + 1) + std::uint64_t(coords[d] + 1);
  return key;
}

void SearchSpace::build_index() {
  held_sets_indexed_ = false;
  index_.clear();
  string_index_.clear();
  std::uint64_t radix = 1;
  text_keys_ = false;
  for (const SpaceDimension& d : dims_) {
    const std::uint64_t base = d.labels.size() + 1;
    if (radix > std::numeric_limits<std::uint64_t>::max() / base) text_keys_ = true;
    radix *= base;
  }
  if (text_keys_)
    string_index_.reserve(coords_.size());
  else
    index_.reserve(coords_.size());
  for (std::size_t i = 0; i < coords_.size(); ++i) {
    const bool added = text_keys_ ? string_index_.emplace(coords_key(coords_[i]), i).second
                                  : index_.emplace(key_of(coords_[i]), i).second;
    if (!added)
      throw std::invalid_argument("SearchSpace: point " + std::to_string(i) +
                                  " duplicates an earlier point");
  }
  neighbours_.clear();
}

std::vector<int> SearchSpace::coords(std::size_t point) const {
  if (point >= size_)
    throw std::out_of_range("point " + std::to_string(point) + " of a space of " +
                            std::to_string(size_));
  if (!generated_) return coords_[point];
  const auto it = std::upper_bound(blocks_.begin(), blocks_.end(), point,
                                   [](std::size_t i, const BlockMap& b) { return i < b.first; });
  const BlockMap& b = *(it - 1);
  std::size_t r = point - b.first;
  std::size_t combo = r % b.combos;
  r /= b.combos;
  const std::size_t clock = r % clock_.to_dim.size();
  std::size_t p = r / clock_.to_dim.size();
  std::vector<int> c(dims_.size(), -1);
  if (variant_dim_ >= 0) c[std::size_t(variant_dim_)] = b.variant;
  if (precision_dim_ >= 0) c[std::size_t(precision_dim_)] = b.precision;
  if (clock_.dim >= 0) c[std::size_t(clock_.dim)] = clock_.to_dim[clock];
  for (std::size_t k = params_.size(); k-- > 0;) {
    const AxisMap& a = params_[k];
    const std::size_t n = a.to_dim.size();
    if (a.dim >= 0) c[std::size_t(a.dim)] = a.to_dim[p % n];
    p /= n;
  }
  for (std::size_t k = b.tunables.size(); k-- > 0;) {
    const AxisMap& a = b.tunables[k];
    const std::size_t n = a.to_dim.size();
    if (a.dim >= 0) c[std::size_t(a.dim)] = a.to_dim[combo % n];
    combo /= n;
  }
  return c;
}

long SearchSpace::find(const std::vector<int>& coords) const {
  if (coords.size() != dims_.size()) return -1;
  for (std::size_t d = 0; d < coords.size(); ++d)
    if (coords[d] < -1 || coords[d] >= int(dims_[d].labels.size())) return -1;
  if (generated_) return generated_find(coords);
  if (text_keys_) {
    auto it = string_index_.find(coords_key(coords));
    return it == string_index_.end() ? -1 : long(it->second);
  }
  auto it = index_.find(key_of(coords));
  return it == index_.end() ? -1 : long(it->second);
}

long SearchSpace::nearest(const std::vector<int>& coords, int fixed_dim) const {
  if (generated_) return generated_nearest(coords, fixed_dim);
  long best = -1;
  std::pair<int, long> best_score{std::numeric_limits<int>::max(), 0};
  for (std::size_t i = 0; i < coords_.size(); ++i) {
    const std::vector<int>& c = coords_[i];
    if (fixed_dim >= 0 && c[fixed_dim] != coords[fixed_dim]) continue;
    int differ = 0;
    long dist = 0;
    for (std::size_t d = 0; d < c.size(); ++d) {
      if (c[d] == coords[d]) continue;
      ++differ;
      if (dims_[d].ordinal && c[d] >= 0 && coords[d] >= 0) dist += std::abs(c[d] - coords[d]);
    }
    if (std::make_pair(differ, dist) < best_score) {
      best_score = {differ, dist};
      best = long(i);
    }
  }
  return best;
}

const std::vector<std::size_t>& SearchSpace::neighbours(std::size_t point) const {
  if (auto it = neighbours_.find(point); it != neighbours_.end()) return it->second;
  std::set<std::size_t> out;
  const std::vector<int> c = coords(point);
  for (std::size_t d = 0; d < dims_.size(); ++d) {
    if (c[d] < 0) continue;
    std::vector<int> moved = c;
    if (dims_[d].ordinal) {
      for (int step : {-1, 1}) {
        moved[d] = c[d] + step;
        if (moved[d] < 0 || moved[d] >= int(dims_[d].labels.size())) continue;
        if (long j = find(moved); j >= 0) out.insert(std::size_t(j));
      }
      continue;
    }
    for (int v = 0; v < int(dims_[d].labels.size()); ++v) {
      if (v == c[d]) continue;
      moved[d] = v;
      long j = find(moved);
      if (j < 0) j = nearest(moved, int(d));
      if (j >= 0 && std::size_t(j) != point) out.insert(std::size_t(j));
    }
  }
  std::vector<std::size_t>& stored = neighbours_[point];
  stored.assign(out.begin(), out.end());
  return stored;
}

}  // namespace flowtune

namespace flowtune {
namespace {

// The value index of each of values on dim (numbers sorted ascending).
std::vector<int> indices_on(const SpaceDimension& dim, const std::vector<double>& values) {
  std::vector<int> out;
  for (double v : values)
    out.push_back(
        int(std::lower_bound(dim.numbers.begin(), dim.numbers.end(), v) - dim.numbers.begin()));
  return out;
}

}  // namespace

SearchSpace::SearchSpace(const SpaceLayout& layout) : generated_(true) {
  // The dimensions as the visiting constructor makes them: variant, precision, clock_mhz,
  // tunables, parameters (names sorted), values sorted, single-valued ones dropped.
  std::set<std::string> variants, precisions;
  std::map<std::string, std::set<double>> tunables;
  for (const SpaceLayout::Block& b : layout.blocks) {
    variants.insert(b.variant);
    precisions.insert(b.precision);
    for (const SpaceLayout::Axis& a : b.tunables)
      tunables[a.name].insert(a.values.begin(), a.values.end());
  }
  const auto categorical = [&](const std::string& name, const std::set<std::string>& labels) {
    if (labels.size() < 2) return -1;
    SpaceDimension d;
    d.name = name;
    d.kind = name == "variant" ? DimensionKind::variant : DimensionKind::precision;
    d.labels.assign(labels.begin(), labels.end());
    dims_.push_back(std::move(d));
    return int(dims_.size()) - 1;
  };
  const auto ordinal = [&](const std::string& name, const std::set<double>& values,
                           DimensionKind kind) {
    if (values.size() < 2) return -1;
    SpaceDimension d;
    d.name = name;
    d.kind = kind;
    d.ordinal = true;
    for (double v : values) {
      d.numbers.push_back(v);
      d.labels.push_back(shortest_decimal(v));
    }
    dims_.push_back(std::move(d));
    return int(dims_.size()) - 1;
  };
  variant_dim_ = categorical("variant", variants);
  precision_dim_ = categorical("precision", precisions);
  const auto axis_map = [&](int dim, const std::vector<double>& values) {
    AxisMap a;
    a.dim = dim;
    if (dim < 0) {
      a.to_dim.assign(values.size(), -1);
      return a;
    }
    a.to_dim = indices_on(dims_[std::size_t(dim)], values);
    a.from_dim.assign(dims_[std::size_t(dim)].labels.size(), -1);
    for (std::size_t k = 0; k < a.to_dim.size(); ++k)
      if (a.from_dim[std::size_t(a.to_dim[k])] < 0) a.from_dim[std::size_t(a.to_dim[k])] = int(k);
    return a;
  };
  std::vector<double> clocks(layout.clocks.begin(), layout.clocks.end());
  if (clocks.empty()) clocks = {0};
  const int clock_dim =
      ordinal("clock_mhz", std::set<double>(clocks.begin(), clocks.end()), DimensionKind::clock);
  clock_ = axis_map(clock_dim, clocks);
  std::map<std::string, int> tunable_dim;
  for (const auto& [name, values] : tunables)
    tunable_dim[name] = ordinal(name, values, DimensionKind::tunable);
  for (const SpaceLayout::Axis& a : layout.params) {
    const int dim = ordinal(a.name, std::set<double>(a.values.begin(), a.values.end()),
                            DimensionKind::parameter);
    params_.push_back(axis_map(dim, a.values));
    n_points_ *= a.values.size();
  }
  is_tunable_dim_.assign(dims_.size(), false);
  for (const auto& [name, dim] : tunable_dim)
    if (dim >= 0) is_tunable_dim_[std::size_t(dim)] = true;
  const auto label_index = [&](int dim, const std::string& label) {
    if (dim < 0) return -1;
    const auto& labels = dims_[std::size_t(dim)].labels;
    return int(std::lower_bound(labels.begin(), labels.end(), label) - labels.begin());
  };
  for (const SpaceLayout::Block& b : layout.blocks) {
    BlockMap m;
    m.first = b.first;
    m.size = b.size;
    m.variant = label_index(variant_dim_, b.variant);
    m.precision = label_index(precision_dim_, b.precision);
    m.tunable_of_dim.assign(dims_.size(), -1);
    for (const SpaceLayout::Axis& a : b.tunables) {
      const int dim = tunable_dim.at(a.name);
      if (dim >= 0) m.tunable_of_dim[std::size_t(dim)] = int(m.tunables.size());
      m.tunables.push_back(axis_map(dim, a.values));
      m.combos *= a.values.size();
    }
    if (m.size != n_points_ * clocks.size() * m.combos)
      throw std::invalid_argument("SearchSpace: block " + b.variant + " " + b.precision +
                                  " holds " + std::to_string(m.size) + " points, its axes " +
                                  std::to_string(n_points_ * clocks.size() * m.combos));
    if (m.first != size_)
      throw std::invalid_argument("SearchSpace: the blocks of a layout must be contiguous");
    size_ += m.size;
    block_first_set_.push_back(n_generated_sets_);
    n_generated_sets_ += m.combos;
    blocks_.push_back(std::move(m));
  }
}

void SearchSpace::index_held_kernel_sets() const {
  if (held_sets_indexed_) return;
  {
    std::vector<std::size_t> kernel_dims;
    for (std::size_t d = 0; d < dims_.size(); ++d)
      if (dims_[d].kind == DimensionKind::variant || dims_[d].kind == DimensionKind::precision ||
          dims_[d].kind == DimensionKind::tunable)
        kernel_dims.push_back(d);
    std::map<std::vector<int>, std::uint32_t> set_index;
    held_set_of_.resize(size_);
    std::vector<std::size_t> count;
    for (std::size_t p = 0; p < size_; ++p) {
      std::vector<int> key;
      key.reserve(kernel_dims.size());
      for (std::size_t d : kernel_dims) key.push_back(coords_[p][d]);
      const auto [it, added] = set_index.emplace(std::move(key), std::uint32_t(count.size()));
      if (added) count.push_back(0);
      held_set_of_[p] = it->second;
      ++count[it->second];
    }
    held_set_first_.assign(count.size() + 1, 0);
    for (std::size_t k = 0; k < count.size(); ++k)
      held_set_first_[k + 1] = held_set_first_[k] + count[k];
    held_members_.resize(size_);
    std::vector<std::size_t> fill(held_set_first_.begin(), held_set_first_.end() - 1);
    for (std::size_t p = 0; p < size_; ++p)
      held_members_[fill[held_set_of_[p]]++] = std::uint32_t(p);
  }
  held_sets_indexed_ = true;
}

std::size_t SearchSpace::kernel_sets() const {
  if (generated_) return n_generated_sets_;
  index_held_kernel_sets();
  return held_set_first_.size() - 1;
}

std::size_t SearchSpace::kernel_set_of(std::size_t point) const {
  if (point >= size_)
    throw std::out_of_range("point " + std::to_string(point) + " of a space of " +
                            std::to_string(size_));
  if (!generated_) {
    index_held_kernel_sets();
    return held_set_of_[point];
  }
  const auto it = std::upper_bound(blocks_.begin(), blocks_.end(), point,
                                   [](std::size_t i, const BlockMap& b) { return i < b.first; });
  const std::size_t b = std::size_t(it - blocks_.begin()) - 1;
  return block_first_set_[b] + (point - blocks_[b].first) % blocks_[b].combos;
}

std::size_t SearchSpace::kernel_set_size(std::size_t set) const {
  if (set >= kernel_sets())
    throw std::out_of_range("kernel set " + std::to_string(set) + " of " +
                            std::to_string(kernel_sets()));
  if (!generated_) return held_set_first_[set + 1] - held_set_first_[set];
  const std::size_t b =
      std::size_t(std::upper_bound(block_first_set_.begin(), block_first_set_.end(), set) -
                  block_first_set_.begin()) -
      1;
  return blocks_[b].size / blocks_[b].combos;
}

std::size_t SearchSpace::kernel_set_member(std::size_t set, std::size_t i) const {
  if (i >= kernel_set_size(set))
    throw std::out_of_range("point " + std::to_string(i) + " of kernel set " + std::to_string(set) +
                            " of " + std::to_string(kernel_set_size(set)) + " points");
  if (!generated_) return held_members_[held_set_first_[set] + i];
  const std::size_t b =
      std::size_t(std::upper_bound(block_first_set_.begin(), block_first_set_.end(), set) -
                  block_first_set_.begin()) -
      1;
  return blocks_[b].first + i * blocks_[b].combos + (set - block_first_set_[b]);
}

long SearchSpace::generated_find(const std::vector<int>& coords) const {
  const auto digit = [&](const AxisMap& a) {
    if (a.dim < 0) return 0;
    const int v = coords[std::size_t(a.dim)];
    return v < 0 ? -1 : a.from_dim[std::size_t(v)];
  };
  for (const BlockMap& b : blocks_) {
    if (variant_dim_ >= 0 && coords[std::size_t(variant_dim_)] != b.variant) continue;
    if (precision_dim_ >= 0 && coords[std::size_t(precision_dim_)] != b.precision) continue;
    bool ok = true;
    for (std::size_t d = 0; d < dims_.size() && ok; ++d)
      if (is_tunable_dim_[d] && b.tunable_of_dim[d] < 0 && coords[d] != -1) ok = false;
    std::size_t point = 0;
    for (const AxisMap& a : params_) {
      const int k = digit(a);
      if (k < 0) ok = false;
      point = point * a.to_dim.size() + std::size_t(std::max(k, 0));
    }
    const int clock = digit(clock_);
    std::size_t combo = 0;
    for (const AxisMap& a : b.tunables) {
      const int k = digit(a);
      if (k < 0) ok = false;
      combo = combo * a.to_dim.size() + std::size_t(std::max(k, 0));
    }
    if (!ok || clock < 0) return -1;  // (variant, precision) names one block
    return long(b.first + (point * clock_.to_dim.size() + std::size_t(clock)) * b.combos + combo);
  }
  return -1;
}

long SearchSpace::generated_nearest(const std::vector<int>& coords, int fixed_dim) const {
  if (coords.size() != dims_.size()) return -1;
  long best = -1;
  std::pair<int, long> best_score{std::numeric_limits<int>::max(), 0};
  for (const BlockMap& b : blocks_) {
    int differ = 0;
    long dist = 0;
    bool skip = false;
    // The value of one axis nearest to its coordinate: exact, else the smallest index
    // distance (lowest value index on ties), else (coordinate -1) the first value.
    const auto choose = [&](const AxisMap& a) -> std::size_t {
      if (a.dim < 0) return 0;
      const int want = coords[std::size_t(a.dim)];
      if (want >= 0 && a.from_dim[std::size_t(want)] >= 0)
        return std::size_t(a.from_dim[std::size_t(want)]);
      if (a.dim == fixed_dim) skip = true;
      ++differ;
      if (want < 0) return 0;
      std::size_t pick = 0;
      int gap = std::numeric_limits<int>::max();
      for (std::size_t k = 0; k < a.to_dim.size(); ++k) {
        const int g = std::abs(a.to_dim[k] - want);
        if (g < gap) {
          gap = g;
          pick = k;
        }
      }
      dist += gap;
      return pick;
    };
    if (variant_dim_ >= 0 && coords[std::size_t(variant_dim_)] != b.variant) {
      if (fixed_dim == variant_dim_) continue;
      ++differ;
    }
    if (precision_dim_ >= 0 && coords[std::size_t(precision_dim_)] != b.precision) {
      if (fixed_dim == precision_dim_) continue;
      ++differ;
    }
    for (std::size_t d = 0; d < dims_.size(); ++d)
      if (is_tunable_dim_[d] && b.tunable_of_dim[d] < 0 && coords[d] != -1) {
        if (int(d) == fixed_dim) skip = true;
        ++differ;
      }
    std::size_t point = 0;
    for (const AxisMap& a : params_) point = point * a.to_dim.size() + choose(a);
    const std::size_t clock = choose(clock_);
    std::size_t combo = 0;
    for (const AxisMap& a : b.tunables) combo = combo * a.to_dim.size() + choose(a);
    if (skip) continue;
    if (std::make_pair(differ, dist) < best_score) {
      best_score = {differ, dist};
      best = long(b.first + (point * clock_.to_dim.size() + clock) * b.combos + combo);
    }
  }
  return best;
}

}  // namespace flowtune
