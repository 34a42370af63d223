// Scheme `shared_pipeline` (Romera et al. 2023, sec. 3.3, fig. 7): the iteration pipeline
// over lines of tvl1_pipeline.cuh with its ring of FT_DEPTH + 1 lines in dynamic shared
// memory (ft::kRingBytes per block; above 48 KiB it needs the opt-in, FT_OPTIN = 1).
// Defines: FT_W, FT_DEPTH, FT_STRIP_H, FT_PARTS, FT_OPTIN (0/1, used by the host only), one
// FT_PRECISION_*; optional FT_SKEW, FT_ROWS_PER_THREAD and FT_STAGING (1: the ring filled by
// cp.async, sm_80 and newer; tvl1_pipeline.cuh).
#pragma once

#include "tvl1_pipeline.cuh"

/// `depth` (1..FT_DEPTH) iterations from (u, p1, p2) to (u_out, p1_out, p2_out). Grid:
/// ceil(width / (FT_W - 2 FT_DEPTH)) x ceil(height / FT_STRIP_H) blocks of
/// ft::kThreads = FT_W / (FT_PARTS x 2 for f16, x 1 otherwise) threads,
/// ft::kRingBytes of dynamic shared memory.
extern "C" __global__ void __launch_bounds__(ft::kThreads)
    ft_shared_pipeline(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
                       const ft::Store2* __restrict__ u, const ft::Store2* __restrict__ p1,
                       const ft::Store2* __restrict__ p2, ft::Store2* __restrict__ u_out,
                       ft::Store2* __restrict__ p1_out, ft::Store2* __restrict__ p2_out, int width,
                       int height, ft::Params prm, int depth) {
  ft::wait_previous_grid_then_allow_next();
  extern __shared__ __align__(16) unsigned char ft_ring[];
  const ft::PipelineArgs args{grad, rho_c, u, p1, p2, u_out, p1_out, p2_out, width, prm};
  ft::pipeline_strip(ft_ring, args, height, depth);
}
