#include "variants/localflow/localflow_variant.hpp"

#include <algorithm>
#include <cmath>

namespace flowtune {

std::optional<std::string> LocalFlowVariant::invalid_reason(const Config& config) const {
  if (config.workload != workload())
    return name() + ": config of workload '" + config.workload + "', not " + workload();
  const auto ps = accepted_precisions();
  if (std::find(ps.begin(), ps.end(), config.precision) == ps.end()) {
    std::string want;
    for (const auto& q : ps) want += (want.empty() ? "" : ", ") + q;
    return name() + ": unknown precision '" + config.precision + "' (want " + want + ")";
  }
  const auto domains = tunables();
  for (const auto& domain : domains) {
    auto it = config.tunables.find(domain.name);
    if (it == config.tunables.end()) {
      // simd_target came after the first configs of the SIMD variants: absent = best.
      if (domain.name == "simd_target") continue;
      return name() + ": tunable '" + domain.name + "' missing";
    }
    if (it->second < 0)
      return name() + ": tunable '" + domain.name + "' must be >= 0, got " +
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

namespace {
int whole(const Config& config, const char* name) {
  return int(std::lround(config.param(name)));
}
}  // namespace

localflow::BmParams bm_params_of(const Config& config) {
  localflow::BmParams p;
  p.levels = whole(config, "levels");
  p.block = whole(config, "block");
  p.radius = whole(config, "radius");
  p.similarity = whole(config, "similarity");
  p.subpixel = whole(config, "subpixel");
  return p;
}

localflow::LkParams lk_params_of(const Config& config) {
  localflow::LkParams p;
  p.levels = whole(config, "levels");
  p.window = whole(config, "window");
  p.iterations = whole(config, "iterations");
  p.weighting = whole(config, "weighting");
  return p;
}

localflow::LkStorage lk_storage_of(const Config& config) {
  return config.precision == "f16" ? localflow::LkStorage::f16 : localflow::LkStorage::f32;
}

localflow::FeatParams feat_params_of(const Config& config) {
  localflow::FeatParams p;
  p.method = whole(config, "method");
  p.features = whole(config, "features");
  p.sigma_space = config.param("sigma_space");
  p.sigma_color = config.param("sigma_color");
  p.sigma_flow = config.param("sigma_flow");
  p.grid_step = config.param("grid_step");
  p.hypotheses = whole(config, "hypotheses");
  p.change_threshold = config.param("change_threshold");
  return p;
}

std::vector<const Variant*> localflow_variants() {
  std::vector<const Variant*> out;
  for (const Variant* v : all_variants())
    if (dynamic_cast<const LocalFlowVariant*>(v)) out.push_back(v);
  return out;
}

const LocalFlowVariant* find_localflow_variant(const std::string& name) {
  for (const Variant* v : localflow_variants())
    if (v->name() == name) return dynamic_cast<const LocalFlowVariant*>(v);
  return nullptr;
}

}  // namespace flowtune
