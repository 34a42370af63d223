#include "variants/registry_parts.hpp"

namespace flowtune {

std::vector<const Variant*> kokkos_variants() { return {}; }

}  // namespace flowtune
