#include "variants/cuda/cuda_variant.hpp"
#include "variants/registry_parts.hpp"

namespace flowtune {

std::vector<const Variant*> cuda_variants() {
  const auto& schemes = cuda::tvl1_cuda_schemes();
  return {schemes.begin(), schemes.end()};
}

}  // namespace flowtune
