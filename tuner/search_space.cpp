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
  build_index();
}

std::uint64_t SearchSpace::key_of(const std::vector<int>& coords) const {
  std::uint64_t key = 0;
  for (std::size_t d = 0; d < dims_.size(); ++d)
    key = key * (dims_[d].labels.size() + 1) + std::uint64_t(coords[d] + 1);
  return key;
}

void SearchSpace::build_index() {
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
  neighbours_.assign(coords_.size(), {});
  neighbours_done_.assign(coords_.size(), false);
}

long SearchSpace::find(const std::vector<int>& coords) const {
  if (coords.size() != dims_.size()) return -1;
  for (std::size_t d = 0; d < coords.size(); ++d)
    if (coords[d] < -1 || coords[d] >= int(dims_[d].labels.size())) return -1;
  if (text_keys_) {
    auto it = string_index_.find(coords_key(coords));
    return it == string_index_.end() ? -1 : long(it->second);
  }
  auto it = index_.find(key_of(coords));
  return it == index_.end() ? -1 : long(it->second);
}

long SearchSpace::nearest(const std::vector<int>& coords, int fixed_dim) const {
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
  if (neighbours_done_.at(point)) return neighbours_[point];
  std::set<std::size_t> out;
  const std::vector<int>& c = coords_[point];
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
  neighbours_[point].assign(out.begin(), out.end());
  neighbours_done_[point] = true;
  return neighbours_[point];
}

}  // namespace flowtune
