// The kokkos_global variant: the paper's Global scheme (two kernels per iteration) on Kokkos,
// single precision, with the MDRange tile sizes as tunables.
#pragma once

#include "variants/variant.hpp"

namespace flowtune {

/// The process-wide kokkos_global adaptor (name "kokkos_global", target "cpu",
/// precisions {"f32"}, tunables tile_x in {8, 16, 32, 64, 128} and tile_y in
/// {1, 2, 4, 8, 16}). Its solver runs tvl1_multiscale<float> (kernels/tvl1_multiscale.hpp)
/// with tvl1_iterate_kokkos (kernels/kokkos/tvl1_kokkos.hpp) doing config.params.iterations
/// per warping.
const FlowVariant& kokkos_global_variant();

}  // namespace flowtune
