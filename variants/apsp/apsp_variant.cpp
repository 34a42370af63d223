#include "variants/apsp/apsp_variant.hpp"

#include <algorithm>

#ifdef FLOWTUNE_HAVE_CUDA
#include "variants/apsp/cuda/fw_tiled_variant.hpp"
#endif

namespace flowtune {

std::optional<std::string> ApspVariant::invalid_reason(const Config& config) const {
  if (config.precision != kApspPrecision)
    return name() + ": unknown precision '" + config.precision + "' (want i32)";
  const auto domains = tunables();
  for (const auto& domain : domains) {
    auto it = config.tunables.find(domain.name);
    if (it == config.tunables.end()) return name() + ": tunable '" + domain.name + "' missing";
    if (it->second <= 0)
      return name() + ": tunable '" + domain.name + "' must be positive, got " +
             std::to_string(it->second);
  }
  for (const auto& [tunable, value] : config.tunables) {
    (void)value;
    const bool known = std::any_of(domains.begin(), domains.end(),
                                   [&](const TunableDomain& d) { return d.name == tunable; });
    if (!known) return name() + ": unknown tunable '" + tunable + "'";
  }
  return rule_invalid_reason(config);
}

std::vector<const Variant*> apsp_variants() {
  std::vector<const Variant*> v = {&fw_cpu_variant(), &dijkstra_cpu_variant()};
#ifdef FLOWTUNE_HAVE_CUDA
  v.push_back(&apsp_cuda::fw_tiled_variant());
  v.push_back(&apsp_cuda::fw_tiled_sym_variant());
#endif
  return v;
}

const ApspVariant* find_apsp_variant(const std::string& name) {
  for (const Variant* v : apsp_variants())
    if (v->name() == name) return dynamic_cast<const ApspVariant*>(v);
  return nullptr;
}

}  // namespace flowtune
