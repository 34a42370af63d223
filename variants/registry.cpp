#include "variants/registry_parts.hpp"
#include "variants/variant.hpp"

namespace flowtune {

const std::vector<const Variant*>& all_variants() {
  static const std::vector<const Variant*> variants = [] {
    std::vector<const Variant*> v = kokkos_variants();
#ifdef FLOWTUNE_HAVE_CUDA
    for (const Variant* c : cuda_variants()) v.push_back(c);
#endif
    for (const Variant* a : apsp_variants()) v.push_back(a);
    for (const Variant* l : localflow_variants()) v.push_back(l);
    return v;
  }();
  return variants;
}

const Variant* find_variant(const std::string& name) {
  for (const Variant* v : all_variants())
    if (v->name() == name) return v;
  return nullptr;
}

const FlowVariant* find_flow_variant(const std::string& name) {
  return dynamic_cast<const FlowVariant*>(find_variant(name));
}

}  // namespace flowtune
