// The groups of variants that all_variants() concatenates; each is defined next to its adaptors.
#pragma once

#include <vector>

#include "variants/variant.hpp"

namespace flowtune {

/// Host variants on Kokkos (variants/kokkos_*.cpp).
std::vector<const Variant*> kokkos_variants();
/// APSP variants of Marras et al. (variants/apsp/: fw_cpu, dijkstra_cpu; with CUDA fw_tiled,
/// fw_tiled_sym); also declared in variants/apsp/apsp_variant.hpp.
std::vector<const Variant*> apsp_variants();
/// Variants of the local flow workloads bm and lk (variants/localflow/: bm_cpu, lk_cpu; with
/// CUDA bm_cuda, lk_cuda); also declared in variants/localflow/localflow_variant.hpp.
std::vector<const Variant*> localflow_variants();
#ifdef FLOWTUNE_HAVE_CUDA
/// CUDA variants of Romera et al. 2023, sec. 3.3 (variants/cuda/*.cpp).
std::vector<const Variant*> cuda_variants();
#endif

}  // namespace flowtune
