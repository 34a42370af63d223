#include "variants/apsp/apsp_variant.hpp"

#include <algorithm>

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
  std::vector<const Variant*> out;
  for (const Variant* v : all_variants())
    if (dynamic_cast<const ApspVariant*>(v)) out.push_back(v);
  return out;
}

const ApspVariant* find_apsp_variant(const std::string& name) {
  for (const Variant* v : apsp_variants())
    if (v->name() == name) return dynamic_cast<const ApspVariant*>(v);
  return nullptr;
}

}  // namespace flowtune
