// The TV-L1 CUDA schemes (Romera et al. 2023, sec. 3.3): the one list of them. This header
// needs no CUDA toolkit, so a build without CUDA still knows the schemes' names (the
// deployment API tells "built without CUDA" from "unknown variant" with it).
#pragma once

#include <algorithm>
#include <string>
#include <vector>

/// The TV-L1 CUDA schemes in listing order, one X(scheme) each: `scheme` is the variant name,
/// flowtune::cuda::scheme##_variant() its adaptor (a CudaVariant defined in variants/cuda/,
/// declared from this list in cuda_variant.hpp) and kernels/cuda/tvl1_<scheme>.cuh its device
/// source. Every user of the schemes queries tvl1_cuda_scheme_names() or, with CUDA,
/// tvl1_cuda_schemes() (variants/cuda/cuda_variant.hpp). A new scheme is one entry here, its
/// adaptor (a CudaVariant with its tunables, rules, launch shape and iteration schedule) and
/// its kernel.
#define FLOWTUNE_TVL1_CUDA_SCHEMES(X) \
  X(global)                           \
  X(shared_fusion)                    \
  X(global_pipeline)                  \
  X(shared_pipeline)

namespace flowtune::cuda {

/// The names of FLOWTUNE_TVL1_CUDA_SCHEMES in listing order: "global", "shared_fusion",
/// "global_pipeline", "shared_pipeline". Defined in every build, with or without CUDA.
inline const std::vector<std::string>& tvl1_cuda_scheme_names() {
#define FLOWTUNE_TVL1_SCHEME_NAME_(scheme) #scheme,
  static const std::vector<std::string> names = {
      FLOWTUNE_TVL1_CUDA_SCHEMES(FLOWTUNE_TVL1_SCHEME_NAME_)};
#undef FLOWTUNE_TVL1_SCHEME_NAME_
  return names;
}

/// True when name is one of tvl1_cuda_scheme_names().
inline bool is_tvl1_cuda_scheme(const std::string& name) {
  const auto& names = tvl1_cuda_scheme_names();
  return std::find(names.begin(), names.end(), name) != names.end();
}

/// The names for messages, comma-separated in listing order: "global, shared_fusion,
/// global_pipeline, shared_pipeline".
inline std::string tvl1_cuda_scheme_list() {
  std::string list;
  for (const std::string& name : tvl1_cuda_scheme_names())
    list += (list.empty() ? "" : ", ") + name;
  return list;
}

}  // namespace flowtune::cuda
