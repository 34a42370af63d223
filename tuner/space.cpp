#include "tuner/space.hpp"

#include <algorithm>
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

// Appends every combination of the integer domains to `out`, starting from `base`.
void expand_tunables(const std::vector<TunableDomain>& domains, std::size_t i, Config& base,
                     std::vector<Config>& out) {
  if (i == domains.size()) {
    out.push_back(base);
    return;
  }
  for (int value : domains[i].values) {
    base.tunables[domains[i].name] = value;
    expand_tunables(domains, i + 1, base, out);
  }
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
  ParamDimensions dims;
  for (const ParamSpec& p : workload.params()) dims[p.name] = {p.default_value};
  if (options.default_dimensions)
    for (const auto& [name, values] : workload.default_dimensions(board.target))
      dims[name] = values;
  for (const auto& [name, values] : options.param_values) {
    if (!workload.find_param(name)) {
      std::vector<std::string> names;
      for (const ParamSpec& p : workload.params()) names.push_back(p.name);
      throw std::invalid_argument(
          "unknown parameter '" + name + "' of workload '" + workload.name() +
          "' (it has: " + (names.empty() ? std::string("none") : join(names)) + ")");
    }
    if (values.empty()) throw std::invalid_argument("parameter '" + name + "': no values");
    dims[name] = values;
  }
  for (auto& [name, values] : dims) {
    const ParamSpec& spec = *workload.find_param(name);
    for (double v : values)
      if (auto why = spec.invalid_reason(v)) throw std::invalid_argument(*why);
    std::vector<double> unique;
    for (double v : values)
      if (std::find(unique.begin(), unique.end(), v) == unique.end()) unique.push_back(v);
    values = unique;
  }
  return dims;
}

std::vector<Config> enumerate_space(const Board& board, const SpaceOptions& options) {
  const Workload& workload = find_workload(options.workload);
  std::vector<Config> out;
  const std::vector<int> clocks =
      options.clocks_mhz.empty() ? std::vector<int>{0} : options.clocks_mhz;
  std::vector<std::string> unused_overrides;
  for (const auto& kv : options.tunable_values) unused_overrides.push_back(kv.first);
  const std::vector<ParamValues> param_points =
      parameter_points(parameter_dimensions(workload, board, options));

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
    for (const std::string& precision : precisions)
      for (const ParamValues& params : param_points)
        for (int clock : clocks) {
          Config base;
          base.workload = workload.name();
          base.variant = variant->name();
          base.precision = precision;
          base.clock_mhz = clock;
          base.params = params;
          expand_tunables(domains, 0, base, out);
        }
  }
  if (!unused_overrides.empty())
    throw std::invalid_argument("tunable '" + unused_overrides.front() +
                                "' belongs to none of the selected variants");
  return out;
}

}  // namespace flowtune
