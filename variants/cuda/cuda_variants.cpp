#include "variants/cuda/cuda_variant.hpp"
#include "variants/registry_parts.hpp"

namespace flowtune {

std::vector<const Variant*> cuda_variants() {
  return {&cuda::global_variant(), &cuda::shared_fusion_variant()};
}

}  // namespace flowtune
