// The simd_fused variant: TV-L1 on every core with SIMD (the paper's CPU baselines Neon.F32
// and Neon.F16, Romera et al. 2023 sec. 4), the five steps fused per row band.
#pragma once

#include "variants/variant.hpp"

namespace flowtune {

/// The process-wide simd_fused adaptor (name "simd_fused", target "cpu", precisions "f32"
/// and "mixed" = binary16 storage with float arithmetic). Tunables: `threads` (OpenMP
/// threads; host_thread_counts(): powers of two up to the CPUs this process may use, and
/// that count) and `band_rows` (rows per band of the fused sweep) in {4, 16, 64}. Its solver
/// runs tvl1_multiscale<float> (kernels/tvl1_multiscale.hpp) with tvl1_iterate_simd
/// (kernels/simd/tvl1_simd.hpp) doing config.params.iterations per warping.
const FlowVariant& simd_fused_variant();

}  // namespace flowtune
