// Scheme `fw_tiled` of the APSP workload: the tiled three-stage Floyd-Warshall for directed
// graphs (Marras et al. sec. 4.1, fig. 1; sec. 4.2 for the grid mapping), one thread block
// per B x B tile, dependency tiles in shared memory. The host (variants/apsp/cuda/) calls,
// for every kb in [0, nb): stage1 <<<1>>>, stage2 <<<(nb-1, 2)>>>, stage3 <<<(nb-1, nb-1)>>>,
// blocks of (FT_BLOCK_X, FT_BLOCK_Y) threads, no dynamic shared memory.
//
// Layout: d is the padded distance matrix, nb*B x nb*B ints, row-major, pitch = nb*B
// elements; tile (bi, bj) starts at d + bi*B*pitch + bj*B. Defines: see apsp_fw_common.cuh.
#pragma once

#include "apsp_fw_common.cuh"

/// Tile (bi, bj) of the row-major matrix d.
__device__ __forceinline__ int* ft_apsp_tile(int* d, long long pitch, int bi, int bj) {
  return d + (long long)bi * ftapsp::kTile * pitch + (long long)bj * ftapsp::kTile;
}

/// Stage 1: the primary tile (kb, kb), in place. Grid 1 block.
extern "C" __global__ void __launch_bounds__(FT_APSP_THREADS)
    apsp_fw_stage1(int* __restrict__ d, int pitch, int kb) {
  __shared__ int primary[ftapsp::kTileWords];
  int* g = ft_apsp_tile(d, pitch, kb, kb);
  ftapsp::load_tile(primary, g, pitch);
  ftapsp::relax_primary(primary);
  ftapsp::store_tile(g, pitch, primary);
}

/// Stage 2: blockIdx.y == 0: tile (kb, t) of the primary row; blockIdx.y == 1: tile (t, kb) of
/// the primary column; t = blockIdx.x skipping kb. Grid (nb - 1, 2).
extern "C" __global__ void __launch_bounds__(FT_APSP_THREADS)
    apsp_fw_stage2(int* __restrict__ d, int pitch, int kb) {
  __shared__ int primary[ftapsp::kTileWords];
  __shared__ int own[ftapsp::kTileWords];
  const int t = ftapsp::skip_primary(int(blockIdx.x), kb);
  const bool in_row = blockIdx.y == 0;
  int* g = in_row ? ft_apsp_tile(d, pitch, kb, t) : ft_apsp_tile(d, pitch, t, kb);
  ftapsp::load_tile(primary, ft_apsp_tile(d, pitch, kb, kb), pitch);
  ftapsp::load_tile(own, g, pitch);
  if (in_row)
    ftapsp::relax_row_tile(own, primary);
  else
    ftapsp::relax_column_tile(own, primary);
  ftapsp::store_tile(g, pitch, own);
}

/// Stage 3: tile (bi, bj), bi = blockIdx.y and bj = blockIdx.x skipping kb, through tiles
/// (bi, kb) and (kb, bj). Grid (nb - 1, nb - 1).
extern "C" __global__ void __launch_bounds__(FT_APSP_THREADS)
    apsp_fw_stage3(int* __restrict__ d, int pitch, int kb) {
  __shared__ int col[ftapsp::kTileWords];
  __shared__ int row[ftapsp::kTileWords];
  const int bi = ftapsp::skip_primary(int(blockIdx.y), kb);
  const int bj = ftapsp::skip_primary(int(blockIdx.x), kb);
  ftapsp::load_tile(col, ft_apsp_tile(d, pitch, bi, kb), pitch);
  ftapsp::load_tile(row, ft_apsp_tile(d, pitch, kb, bj), pitch);
  ftapsp::relax_other_tile(ft_apsp_tile(d, pitch, bi, bj), pitch, col, row);
}
