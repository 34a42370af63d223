#include "variants/kokkos_global.hpp"
#include "variants/registry_parts.hpp"

namespace flowtune {

std::vector<const Variant*> kokkos_variants() {
  return {&kokkos_global_variant()};
}

}  // namespace flowtune
