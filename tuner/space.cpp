#include "tuner/space.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "variants/variant.hpp"

namespace flowtune {
namespace {

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

std::vector<const Variant*> selected_variants(const Workload& workload, const Board& board,
                                              const SpaceOptions& options) {
  const std::vector<const Variant*> own = workload.variants();
  std::vector<const Variant*> out;
  if (options.variants.empty()) {
    for (const Variant* v : own)
      if (v->target() == board.target) out.push_back(v);
    return out;
  }
  for (const std::string& name : options.variants) {
    const auto it =
        std::find_if(own.begin(), own.end(), [&](const Variant* v) { return v->name() == name; });
    if (it == own.end()) {
      std::vector<std::string> names;
      for (const Variant* k : own) names.push_back(k->name());
      throw std::invalid_argument("unknown variant '" + name + "' for workload '" +
                                  workload.name() + "' (this build has: " + join(names) + ")");
    }
    out.push_back(*it);
  }
  return out;
}

}  // namespace

std::vector<ParamValues> parameter_points(const ParamDimensions& dims) {
  std::vector<ParamValues> out{ParamValues{}};
  for (const auto& [name, values] : dims) {
    std::vector<ParamValues> next;
    for (const ParamValues& partial : out)
      for (double v : values) {
        ParamValues p = partial;
        p[name] = v;
        next.push_back(std::move(p));
      }
    out = std::move(next);
  }
  return out;
}

ParamDimensions parameter_dimensions(const Workload& workload, const Board& board,
                                     const SpaceOptions& options) {
  const ParamDimensions target = workload.default_dimensions(board.target);
  ParamDimensions dims;
  for (const ParamSpec& p : workload.params()) {
    const auto it = target.find(p.name);
    dims[p.name] = {it == target.end() ? p.default_value : it->second.fixed_value(p)};
  }
  if (options.default_dimensions)
    for (const auto& [name, dim] : target) dims[name] = dim;
  for (const auto& [name, dim] : options.param_values) {
    if (!workload.find_param(name)) {
      std::vector<std::string> names;
      for (const ParamSpec& p : workload.params()) names.push_back(p.name);
      throw std::invalid_argument(
          "unknown parameter '" + name + "' of workload '" + workload.name() +
          "' (it has: " + (names.empty() ? std::string("none") : join(names)) + ")");
    }
    if (dim.empty()) throw std::invalid_argument("parameter '" + name + "': no values");
    dims[name] = dim;
  }
  for (const auto& [name, dim] : dims) {
    const ParamSpec* spec = workload.find_param(name);
    if (!spec)
      throw std::invalid_argument("workload '" + workload.name() +
                                  "': a default dimension names no parameter: " + name);
    for (double v : dim)
      if (auto why = spec->invalid_reason(v)) throw std::invalid_argument(*why);
  }
  return dims;
}

ConfigSpace::ConfigSpace(std::vector<Config> configs)
    : listed_(true), list_(std::move(configs)), size_(list_.size()) {}

void ConfigSpace::set_params(std::size_t point, Config& config) const {
  // The last dimension varies fastest (parameter_points' order).
  for (std::size_t d = param_axes_.size(); d-- > 0;) {
    const std::vector<double>& values = param_axes_[d].second;
    config.params[param_axes_[d].first] = values[point % values.size()];
    point /= values.size();
  }
}

void ConfigSpace::set_tunables(const Block& block, std::size_t combo, Config& config) const {
  // The last domain varies fastest (expand order of the enumeration).
  for (std::size_t d = block.domains.size(); d-- > 0;) {
    const std::vector<int>& values = block.domains[d].values;
    config.tunables[block.domains[d].name] = values[combo % values.size()];
    combo /= values.size();
  }
}

Config ConfigSpace::operator[](std::size_t i) const {
  if (i >= size_)
    throw std::out_of_range("config " + std::to_string(i) + " of a space of " +
                            std::to_string(size_));
  if (listed_) return list_[i];
  const auto it = std::upper_bound(blocks_.begin(), blocks_.end(), i,
                                   [](std::size_t k, const Block& b) { return k < b.first; });
  const Block& block = *(it - 1);
  std::size_t r = i - block.first;
  const std::size_t combo = r % block.combos;
  r /= block.combos;
  const std::size_t clock = r % clocks_.size();
  const std::size_t point = r / clocks_.size();
  Config c;
  c.workload = workload_;
  c.variant = block.variant;
  c.precision = block.precision;
  c.clock_mhz = clocks_[clock];
  set_params(point, c);
  set_tunables(block, combo, c);
  return c;
}

void ConfigSpace::for_each(const std::function<void(std::size_t, const Config&)>& visit) const {
  if (listed_) {
    for (std::size_t i = 0; i < list_.size(); ++i) visit(i, list_[i]);
    return;
  }
  for (const Block& block : blocks_) {
    Config c;
    c.workload = workload_;
    c.variant = block.variant;
    c.precision = block.precision;
    std::size_t i = block.first;
    for (std::size_t point = 0; point < n_points_; ++point) {
      set_params(point, c);
      for (int clock : clocks_) {
        c.clock_mhz = clock;
        for (std::size_t combo = 0; combo < block.combos; ++combo) {
          set_tunables(block, combo, c);
          visit(i++, c);
        }
      }
    }
  }
}

std::optional<std::size_t> ConfigSpace::index_of(const Config& config) const {
  if (config.workload != workload_) return std::nullopt;
  Config c = config;
  c.params = find_workload(workload_).with_absent_values(c.params);
  if (listed_) {
    for (std::size_t i = 0; i < list_.size(); ++i)
      if (list_[i].variant == c.variant && list_[i].precision == c.precision &&
          list_[i].clock_mhz == c.clock_mhz && list_[i].tunables == c.tunables &&
          list_[i].params == c.params)
        return i;
    return std::nullopt;
  }
  const auto digit = [](const auto& values, double v) -> long {
    for (std::size_t k = 0; k < values.size(); ++k)
      if (double(values[k]) == v) return long(k);
    return -1;
  };
  if (c.params.size() != param_axes_.size()) return std::nullopt;
  std::size_t point = 0;
  for (const auto& [name, values] : param_axes_) {
    const auto it = c.params.find(name);
    const long k = it == c.params.end() ? -1 : digit(values, it->second);
    if (k < 0) return std::nullopt;
    point = point * values.size() + std::size_t(k);
  }
  const long clock = digit(clocks_, double(c.clock_mhz));
  if (clock < 0) return std::nullopt;
  for (const Block& b : blocks_) {
    if (b.variant != c.variant || b.precision != c.precision) continue;
    if (c.tunables.size() != b.domains.size()) return std::nullopt;
    std::size_t combo = 0;
    for (const TunableDomain& d : b.domains) {
      const auto it = c.tunables.find(d.name);
      const long k = it == c.tunables.end() ? -1 : digit(d.values, double(it->second));
      if (k < 0) return std::nullopt;
      combo = combo * d.values.size() + std::size_t(k);
    }
    return b.first + (point * clocks_.size() + std::size_t(clock)) * b.combos + combo;
  }
  return std::nullopt;
}

SpaceLayout ConfigSpace::layout() const {
  if (listed_) throw std::logic_error("ConfigSpace::layout: a listed space has no layout");
  SpaceLayout out;
  for (const auto& [name, values] : param_axes_) out.params.push_back({name, values});
  out.clocks = clocks_;
  for (const Block& b : blocks_) {
    SpaceLayout::Block lb;
    lb.variant = b.variant;
    lb.precision = b.precision;
    lb.first = b.first;
    lb.size = b.size;
    for (const TunableDomain& d : b.domains)
      lb.tunables.push_back({d.name, std::vector<double>(d.values.begin(), d.values.end())});
    out.blocks.push_back(std::move(lb));
  }
  return out;
}

std::vector<Config> ConfigSpace::materialise() const {
  if (listed_) return list_;
  std::vector<Config> out;
  out.reserve(size_);
  for_each([&](std::size_t, const Config& c) { out.push_back(c); });
  return out;
}

ConfigSpace make_space(const Board& board, const SpaceOptions& options) {
  const Workload& workload = find_workload(options.workload);
  ConfigSpace out;
  out.workload_ = workload.name();
  out.clocks_ = options.clocks_mhz.empty() ? std::vector<int>{0} : options.clocks_mhz;
  std::vector<std::string> unused_overrides;
  for (const auto& kv : options.tunable_values) unused_overrides.push_back(kv.first);
  out.param_dims_ = parameter_dimensions(workload, board, options);
  for (const auto& [name, dim] : out.param_dims_) {
    out.param_axes_.emplace_back(name, dim.values());
    if (dim.size() > 0 && out.n_points_ > std::numeric_limits<std::size_t>::max() / dim.size())
      throw std::invalid_argument("the space's parameter points overflow a 64-bit index");
    out.n_points_ *= dim.size();
  }

  for (const Variant* variant : selected_variants(workload, board, options)) {
    std::vector<std::string> precisions = variant->default_precisions();
    if (!options.precisions.empty()) {
      precisions = variant->precisions();
      std::vector<std::string> kept;
      for (const std::string& p : options.precisions)
        if (std::find(precisions.begin(), precisions.end(), p) != precisions.end())
          kept.push_back(p);
      precisions = kept;
    }
    std::vector<TunableDomain> domains = variant->tunables();
    for (TunableDomain& d : domains) {
      auto it = options.tunable_values.find(d.name);
      if (it != options.tunable_values.end()) {
        d.values = it->second;
        unused_overrides.erase(
            std::remove(unused_overrides.begin(), unused_overrides.end(), d.name),
            unused_overrides.end());
      } else if (!d.default_values.empty()) {
        d.values = d.default_values;
      }
    }
    std::size_t combos = 1;
    for (const TunableDomain& d : domains) combos *= d.values.size();
    for (const std::string& precision : precisions) {
      ConfigSpace::Block b;
      b.variant = variant->name();
      b.precision = precision;
      b.domains = domains;
      b.combos = combos;
      b.first = out.size_;
      b.size = out.n_points_ * out.clocks_.size() * combos;
      out.size_ += b.size;
      // A block without configs (a domain with no value) is left out, so every block holds
      // the index of its first config.
      if (b.size > 0) out.blocks_.push_back(std::move(b));
    }
  }
  if (!unused_overrides.empty())
    throw std::invalid_argument("tunable '" + unused_overrides.front() +
                                "' belongs to none of the selected variants");
  return out;
}

std::vector<Config> enumerate_space(const Board& board, const SpaceOptions& options) {
  return make_space(board, options).materialise();
}

}  // namespace flowtune
