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

SearchSpace::SearchSpace(const std::vector<Config>& configs) {
  std::map<std::string, Axis> axes;  // name -> values
  std::vector<std::string> order = {"variant", "precision", "clock_mhz"};
  for (const Config& c : configs) {
    axes["variant"].categorical.insert(c.variant);
    axes["precision"].categorical.insert(c.precision);
    axes["clock_mhz"].ordinal.insert(c.clock_mhz);
    for (const auto& [name, v] : c.tunables) axes["t:" + name].ordinal.insert(v);
    for (const auto& [name, v] : c.params) axes["p:" + name].ordinal.insert(v);
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
    dims_.push_back(std::move(d));
    kept.push_back(name);
  }
  coords_.reserve(configs.size());
  for (const Config& c : configs) {
    std::vector<int> coords(dims_.size(), -1);
    for (std::size_t d = 0; d < dims_.size(); ++d) {
      const std::string& name = kept[d];
      const SpaceDimension& dim = dims_[d];
      if (name == "variant" || name == "precision") {
        const std::string& v = name == "variant" ? c.variant : c.precision;
        coords[d] =
            int(std::lower_bound(dim.labels.begin(), dim.labels.end(), v) - dim.labels.begin());
        continue;
      }
      double v = 0;
      if (name == "clock_mhz") {
        v = c.clock_mhz;
      } else if (name[0] == 't') {
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
  }
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

void SearchSpace::build_index() {
  index_.clear();
  for (std::size_t i = 0; i < coords_.size(); ++i)
    if (!index_.emplace(coords_key(coords_[i]), i).second)
      throw std::invalid_argument("SearchSpace: point " + std::to_string(i) +
                                  " duplicates an earlier point");
  neighbours_.assign(coords_.size(), {});
  neighbours_done_.assign(coords_.size(), false);
}

long SearchSpace::find(const std::vector<int>& coords) const {
  auto it = index_.find(coords_key(coords));
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
