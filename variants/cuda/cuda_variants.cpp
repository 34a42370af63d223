#include "variants/cuda/cuda_variant.hpp"
#include "variants/registry_parts.hpp"

namespace flowtune {

std::vector<const Variant*> cuda_variants() {
  return {&cuda::global_variant(), &cuda::shared_fusion_variant(), &cuda::global_pipeline_variant(),
          &cuda::shared_pipeline_variant()};
}

}  // namespace flowtune
