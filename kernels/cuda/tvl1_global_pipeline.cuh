// Scheme `global_pipeline` (Romera et al. 2023, sec. 3.3, fig. 6): the iteration pipeline
// over lines of tvl1_pipeline.cuh with its ring of FT_DEPTH + 1 lines in global memory, one
// private ring of ft::kRingBytes per block in `rings` (cached in L1/L2; no shared memory).
// Defines: FT_W, FT_DEPTH, FT_STRIP_H, FT_PARTS, one FT_PRECISION_*.
#pragma once

#include "tvl1_pipeline.cuh"

/// `depth` (1..FT_DEPTH) iterations from (u, p1, p2) to (u_out, p1_out, p2_out). Grid:
/// ceil(width / (FT_W - 2 FT_DEPTH)) x ceil(height / FT_STRIP_H) blocks of
/// ft::kThreads = FT_W / (FT_PARTS x 2 for f16, x 1 otherwise) threads;
/// rings: gridDim.x * gridDim.y * ft::kRingBytes bytes of device memory.
extern "C" __global__ void __launch_bounds__(ft::kThreads)
    ft_global_pipeline(const ft::Store2* __restrict__ grad, const ft::Store1* __restrict__ rho_c,
                       const ft::Store2* __restrict__ u, const ft::Store2* __restrict__ p1,
                       const ft::Store2* __restrict__ p2, ft::Store2* __restrict__ u_out,
                       ft::Store2* __restrict__ p1_out, ft::Store2* __restrict__ p2_out, int width,
                       int height, ft::Params prm, int depth, unsigned char* rings) {
  ft::wait_previous_grid_then_allow_next();
  const size_t block = size_t(blockIdx.y) * gridDim.x + blockIdx.x;
  const ft::PipelineArgs args{grad, rho_c, u, p1, p2, u_out, p1_out, p2_out, width, prm};
  ft::pipeline_strip(rings + block * size_t(ft::kRingBytes), args, height, depth);
}
