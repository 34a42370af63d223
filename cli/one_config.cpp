// See one_config.hpp.
#include "cli/one_config.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "variants/variant.hpp"

namespace flowtune::cli {

Config config_from_options(const SpaceArgs& args) {
  const SpaceOptions s = to_space_options(args);
  const Workload& workload = find_workload(s.workload);
  if (args.variants.size() > 1 || args.precisions.size() > 1)
    throw UsageError("this command runs one config: give at most one --variant and --precision");
  for (const auto& [name, values] : s.tunable_values)
    if (values.size() != 1)
      throw UsageError("this command runs one config: --tunable " + name + " takes one value");
  for (const auto& [name, values] : s.param_values)
    if (values.size() != 1)
      throw UsageError("this command runs one config: --param " + name + " takes one value");
  Config c;
  c.workload = workload.name();
  if (args.variants.empty()) {
    for (const Variant* v : workload.variants())
      if (v->target() == "cpu") {
        c.variant = v->name();
        break;
      }
  } else {
    c.variant = args.variants.front();
  }
  const Variant* v = find_workload_variant(workload, c.variant);
  if (!v || v->workload() != workload.name())
    throw UsageError("unknown variant '" + c.variant + "' of workload '" + workload.name() + "'");
  c.precision = args.precisions.empty() ? v->precisions().front() : args.precisions.front();
  c.params = workload.default_params();
  // The target's defaults (CUDA's epsilon 0), as a space that leaves its dimensions out.
  for (const auto& [name, dim] : workload.default_dimensions(v->target()))
    if (const ParamSpec* spec = workload.find_param(name)) c.params[name] = dim.fixed_value(*spec);
  for (const auto& [name, values] : s.param_values) c.params[name] = values.front();
  // Tunables: each domain's values ordered by distance from its middle; the first valid
  // combination in that order (given tunables fixed).
  std::vector<TunableDomain> domains = v->tunables();
  for (TunableDomain& d : domains) {
    if (auto it = s.tunable_values.find(d.name); it != s.tunable_values.end()) {
      d.values = it->second;
      continue;
    }
    const long mid = long(d.values.size() - 1) / 2;
    std::vector<int> ordered;
    for (long k = 0; k < long(d.values.size()); ++k) {
      for (long i : {mid - k, mid + k + 1})
        if (i >= 0 && i < long(d.values.size())) ordered.push_back(d.values[std::size_t(i)]);
      if (ordered.size() >= d.values.size()) break;
    }
    ordered.resize(d.values.size());
    // The domain's default values first (e.g. threads: all the CPUs), then the others.
    std::vector<int> first = d.default_values;
    for (int value : ordered)
      if (std::find(first.begin(), first.end(), value) == first.end()) first.push_back(value);
    d.values = first;
  }
  std::vector<std::size_t> idx(domains.size(), 0);
  std::optional<std::string> first_reason;
  for (int tries = 0; tries < 100000; ++tries) {
    for (std::size_t k = 0; k < domains.size(); ++k)
      c.tunables[domains[k].name] = domains[k].values[idx[k]];
    const std::optional<std::string> why = v->invalid_reason(c);
    if (!why) return c;
    if (!first_reason) first_reason = why;
    std::size_t k = domains.size();  // odometer, the last tunable fastest
    while (k > 0 && ++idx[k - 1] == domains[k - 1].values.size()) idx[--k] = 0;
    if (k == 0) break;
  }
  throw UsageError("no valid config of " + c.variant +
                   " with the given options: " + first_reason.value_or("?"));
}

}  // namespace flowtune::cli
