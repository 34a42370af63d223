// The adaptors of FLOWTUNE_TVL1_CUDA_SCHEMES (variants/cuda/tvl1_schemes.hpp), registered as
// the TV-L1 CUDA variants (listing rank 110: after kokkos_global).
#include "variants/cuda/tvl1_schemes.hpp"

#include "variants/cuda/cuda_variant.hpp"

namespace flowtune::cuda {

#define FLOWTUNE_TVL1_SCHEME_ADAPTOR_(scheme) &scheme##_variant(),

const std::vector<const CudaVariant*>& tvl1_cuda_schemes() {
  static const std::vector<const CudaVariant*> schemes = {
      FLOWTUNE_TVL1_CUDA_SCHEMES(FLOWTUNE_TVL1_SCHEME_ADAPTOR_)};
  return schemes;
}

const CudaVariant* find_tvl1_cuda_scheme(const std::string& name) {
  for (const CudaVariant* scheme : tvl1_cuda_schemes())
    if (scheme->name() == name) return scheme;
  return nullptr;
}

FLOWTUNE_REGISTER_VARIANTS(110, FLOWTUNE_TVL1_CUDA_SCHEMES(FLOWTUNE_TVL1_SCHEME_ADAPTOR_));

#undef FLOWTUNE_TVL1_SCHEME_ADAPTOR_

}  // namespace flowtune::cuda
