// Scheme `fw_tiled_sym` of the APSP workload: the tiled Floyd-Warshall adapted to undirected
// graphs (Marras et al. sec. 4.1, fig. 2; sec. 4.2): only the tiles (r, c) with r >= c of
// the symmetric distance matrix are stored and computed; a dependency tile above the
// diagonal is read as the transpose of its mirror (c, r), transposed while loading.
//
// Layout (packed lower triangle of tiles): tile (r, c), r >= c, is B*B contiguous ints,
// row-major with pitch B, at tiles + (r*(r+1)/2 + c) * B*B (Marras et al. store the tiles in
// z-order; row-major triangle order keeps the same property, every tile contiguous, with
// simpler indexing). Diagonal tiles are stored whole (both halves), which keeps stage 1
// regular (the "extra k * Omega(B^2/2) operations" of sec. 4.1).
//
// The host calls, for every kb in [0, nb): stage1 <<<1>>>, stage2 <<<nb-1>>>,
// stage3 <<<(nb-1)*nb/2>>>, blocks of (FT_BLOCK_X, FT_BLOCK_Y) threads, no dynamic shared
// memory. Defines: see apsp_fw_common.cuh.
#pragma once

#include "apsp_fw_common.cuh"

/// Stored tile (r, c), r >= c.
__device__ __forceinline__ int* ft_apsp_sym_tile(int* tiles, int r, int c) {
  return tiles + ((long long)r * (r + 1) / 2 + c) * ftapsp::kTile * ftapsp::kTile;
}

/// Loads D(r-block, c-block) of the full symmetric matrix into s: the stored tile (r, c) when
/// r >= c, else the transpose of the stored tile (c, r).
__device__ __forceinline__ void ft_apsp_sym_load(int* s, int* tiles, int r, int c) {
  if (r >= c)
    ftapsp::load_tile(s, ft_apsp_sym_tile(tiles, r, c), ftapsp::kTile);
  else
    ftapsp::load_tile_transposed(s, ft_apsp_sym_tile(tiles, c, r), ftapsp::kTile);
}

/// Stage 1: the primary tile (kb, kb), in place. Grid 1 block.
extern "C" __global__ void __launch_bounds__(FT_APSP_THREADS)
    apsp_fw_sym_stage1(int* __restrict__ tiles, int kb) {
  __shared__ int primary[ftapsp::kTileWords];
  int* g = ft_apsp_sym_tile(tiles, kb, kb);
  ftapsp::load_tile(primary, g, ftapsp::kTile);
  ftapsp::relax_primary(primary);
  ftapsp::store_tile(g, ftapsp::kTile, primary);
}

/// Stage 2: t = blockIdx.x skipping kb. The stored tile of the pair {(kb, t), (t, kb)}: for
/// t < kb it is (kb, t), a tile of the primary row; for t > kb it is (t, kb), a tile of the
/// primary column. Updating only it covers both (by symmetry), half of the directed stage 2.
/// Grid nb - 1.
extern "C" __global__ void __launch_bounds__(FT_APSP_THREADS)
    apsp_fw_sym_stage2(int* __restrict__ tiles, int kb) {
  __shared__ int primary[ftapsp::kTileWords];
  __shared__ int own[ftapsp::kTileWords];
  const int t = ftapsp::skip_primary(int(blockIdx.x), kb);
  const bool in_row = t < kb;
  int* g = in_row ? ft_apsp_sym_tile(tiles, kb, t) : ft_apsp_sym_tile(tiles, t, kb);
  ftapsp::load_tile(primary, ft_apsp_sym_tile(tiles, kb, kb), ftapsp::kTile);
  ftapsp::load_tile(own, g, ftapsp::kTile);
  if (in_row)
    ftapsp::relax_row_tile(own, primary);
  else
    ftapsp::relax_column_tile(own, primary);
  ftapsp::store_tile(g, ftapsp::kTile, own);
}

/// Stage 3: block b of a 1D grid of m(m+1)/2 blocks, m = nb - 1, is tile (rr, cc) of the
/// packed lower triangle of the (nb-1) x (nb-1) tiles left once row and column kb are removed
/// (rr >= cc, b = rr(rr+1)/2 + cc); r and c skip kb. D(r, c) = min(D(r, c), D(r, kb) (x)
/// D(kb, c)), where D(r, kb) is stored as (r, kb) if r > kb, else transposed from (kb, r), and
/// D(kb, c) as (kb, c) if c < kb, else transposed from (c, kb).
extern "C" __global__ void __launch_bounds__(FT_APSP_THREADS)
    apsp_fw_sym_stage3(int* __restrict__ tiles, int kb) {
  __shared__ int col[ftapsp::kTileWords];
  __shared__ int row[ftapsp::kTileWords];
  const int b = int(blockIdx.x);
  int rr = int((sqrtf(8.0f * float(b) + 1.0f) - 1.0f) * 0.5f);
  while (rr * (rr + 1) / 2 > b) --rr;  // exact integer correction of the float estimate
  while ((rr + 1) * (rr + 2) / 2 <= b) ++rr;
  const int cc = b - rr * (rr + 1) / 2;
  const int r = ftapsp::skip_primary(rr, kb);
  const int c = ftapsp::skip_primary(cc, kb);
  ft_apsp_sym_load(col, tiles, r, kb);
  ft_apsp_sym_load(row, tiles, kb, c);
  ftapsp::relax_other_tile(ft_apsp_sym_tile(tiles, r, c), ftapsp::kTile, col, row);
}
