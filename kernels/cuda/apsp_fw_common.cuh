// Tiled Floyd-Warshall, the part shared by the directed (apsp_fw_tiled.cuh) and the
// undirected lower-triangle (apsp_fw_tiled_sym.cuh) schemes of Marras et al. sec. 4.1-4.2
// (after Katz & Kider 2008): tile constants, shared-memory tile loads and the relaxation
// loops of the three stages.
//
// Defines (NVRTC -D): FT_TILE (tile side B, elements), FT_BLOCK_X, FT_BLOCK_Y (thread block
// shape). FT_TILE must be a multiple of both; each thread owns the
// (FT_TILE / FT_BLOCK_Y) x (FT_TILE / FT_BLOCK_X) elements (ty + a * FT_BLOCK_Y,
// tx + b * FT_BLOCK_X) of a tile, so the threads of a block row touch adjacent columns
// (coalesced global accesses, conflict-free shared rows).
//
// Distances are int (32-bit) path lengths >= 0 with "no path" = FT_APSP_INF = 0x3FFFFFFF:
// INF + INF fits in an int, so a candidate d(i,k) + d(k,j) never overflows. Padding nodes
// (N not a multiple of the tile) hold INF off the diagonal and 0 on it: isolated nodes that
// change no distance.
//
// Race freedom of the in-place loops: at step k, element (i, j) is written only when
// d(i,k) + d(k,j) < d(i,j). For j = k that would need d(k,k) < 0, for i = k likewise; the
// diagonal is 0 and weights are >= 0, so row k and column k are never written during step k
// and every thread reads them unchanged. One __syncthreads per step orders the steps.
#pragma once

#ifndef FT_TILE
#error "FT_TILE required"
#endif
#ifndef FT_BLOCK_X
#error "FT_BLOCK_X required"
#endif
#ifndef FT_BLOCK_Y
#error "FT_BLOCK_Y required"
#endif

// Loop unrolling hints; empty in the host emulation of tests/apsp (GCC has no #pragma unroll).
#ifdef __CUDACC__
#define FT_APSP_UNROLL _Pragma("unroll")
#define FT_APSP_UNROLL_4 _Pragma("unroll 4")
#else
#define FT_APSP_UNROLL
#define FT_APSP_UNROLL_4
#endif

#define FT_APSP_INF 0x3FFFFFFF
#define FT_APSP_THREADS (FT_BLOCK_X * FT_BLOCK_Y)

namespace ftapsp {

constexpr int kTile = FT_TILE;
constexpr int kBlockX = FT_BLOCK_X;
constexpr int kBlockY = FT_BLOCK_Y;
constexpr int kPerX = kTile / kBlockX;  ///< columns per thread
constexpr int kPerY = kTile / kBlockY;  ///< rows per thread
/// Row stride of a shared tile: one word of padding makes column-wise (transposed) stores
/// and reads of A(i, k) across rows hit distinct banks.
constexpr int kStride = kTile + 1;
constexpr int kTileWords = kTile * kStride;

static_assert(kTile > 0 && kBlockX > 0 && kBlockY > 0, "positive sizes");
static_assert(kTile % kBlockX == 0, "FT_TILE must be a multiple of FT_BLOCK_X");
static_assert(kTile % kBlockY == 0, "FT_TILE must be a multiple of FT_BLOCK_Y");
static_assert(kBlockX * kBlockY <= 1024, "at most 1024 threads per block");

__device__ __forceinline__ int dmin(int x, int y) {
  return x < y ? x : y;
}

/// Row and column in the tile of this thread's element (a, b).
__device__ __forceinline__ int row_of(int a) {
  return int(threadIdx.y) + a * kBlockY;
}
__device__ __forceinline__ int col_of(int b) {
  return int(threadIdx.x) + b * kBlockX;
}

/// s(r, c) = g[r * pitch + c] for the tile at g (row pitch in elements).
__device__ __forceinline__ void load_tile(int* s, const int* __restrict__ g, long long pitch) {
  FT_APSP_UNROLL
  for (int a = 0; a < kPerY; ++a) {
    FT_APSP_UNROLL
    for (int b = 0; b < kPerX; ++b)
      s[row_of(a) * kStride + col_of(b)] = g[row_of(a) * pitch + col_of(b)];
  }
}

/// s(c, r) = g[r * pitch + c]: the transposed tile, read row-wise (coalesced) and stored
/// column-wise (Marras et al. sec. 4.2, the "crossed out" dependency tile of fig. 2).
__device__ __forceinline__ void load_tile_transposed(int* s, const int* __restrict__ g,
                                                     long long pitch) {
  FT_APSP_UNROLL
  for (int a = 0; a < kPerY; ++a) {
    FT_APSP_UNROLL
    for (int b = 0; b < kPerX; ++b)
      s[col_of(b) * kStride + row_of(a)] = g[row_of(a) * pitch + col_of(b)];
  }
}

/// g[r * pitch + c] = s(r, c).
__device__ __forceinline__ void store_tile(int* __restrict__ g, long long pitch, const int* s) {
  FT_APSP_UNROLL
  for (int a = 0; a < kPerY; ++a) {
    FT_APSP_UNROLL
    for (int b = 0; b < kPerX; ++b)
      g[row_of(a) * pitch + col_of(b)] = s[row_of(a) * kStride + col_of(b)];
  }
}

/// Stage 1 (primary tile, self-dependent): plain Floyd-Warshall on s in place.
__device__ __forceinline__ void relax_primary(int* s) {
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    FT_APSP_UNROLL
    for (int a = 0; a < kPerY; ++a) {
      const int d_ik = s[row_of(a) * kStride + k];
      FT_APSP_UNROLL
      for (int b = 0; b < kPerX; ++b) {
        const int candidate = d_ik + s[k * kStride + col_of(b)];
        int* d_ij = &s[row_of(a) * kStride + col_of(b)];
        if (candidate < *d_ij) *d_ij = candidate;
      }
    }
    __syncthreads();
  }
}

/// Stage 2, a tile in the primary row: own(i, j) = min(own(i, j), primary(i, k) + own(k, j)).
__device__ __forceinline__ void relax_row_tile(int* own, const int* primary) {
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    FT_APSP_UNROLL
    for (int a = 0; a < kPerY; ++a) {
      const int d_ik = primary[row_of(a) * kStride + k];
      FT_APSP_UNROLL
      for (int b = 0; b < kPerX; ++b) {
        const int candidate = d_ik + own[k * kStride + col_of(b)];
        int* d_ij = &own[row_of(a) * kStride + col_of(b)];
        if (candidate < *d_ij) *d_ij = candidate;
      }
    }
    __syncthreads();
  }
}

/// Stage 2, a tile in the primary column: own(i, j) = min(own(i, j), own(i, k) + primary(k, j)).
__device__ __forceinline__ void relax_column_tile(int* own, const int* primary) {
  __syncthreads();
  for (int k = 0; k < kTile; ++k) {
    FT_APSP_UNROLL
    for (int a = 0; a < kPerY; ++a) {
      const int d_ik = own[row_of(a) * kStride + k];
      FT_APSP_UNROLL
      for (int b = 0; b < kPerX; ++b) {
        const int candidate = d_ik + primary[k * kStride + col_of(b)];
        int* d_ij = &own[row_of(a) * kStride + col_of(b)];
        if (candidate < *d_ij) *d_ij = candidate;
      }
    }
    __syncthreads();
  }
}

/// Stage 3: the tile at g (pitch) = min(itself, col (x) row) in the min-plus sense, where
/// col = D(tile row, primary) and row = D(primary, tile column) are final after stage 2 and
/// already in shared memory. The own elements stay in registers (no step depends on another
/// step's output), one barrier before the loop.
__device__ __forceinline__ void relax_other_tile(int* __restrict__ g, long long pitch,
                                                 const int* col, const int* row) {
  int d[kPerY][kPerX];
  FT_APSP_UNROLL
  for (int a = 0; a < kPerY; ++a) {
    FT_APSP_UNROLL
    for (int b = 0; b < kPerX; ++b) d[a][b] = g[row_of(a) * pitch + col_of(b)];
  }
  __syncthreads();
  FT_APSP_UNROLL_4
  for (int k = 0; k < kTile; ++k) {
    int d_kj[kPerX];
    FT_APSP_UNROLL
    for (int b = 0; b < kPerX; ++b) d_kj[b] = row[k * kStride + col_of(b)];
    FT_APSP_UNROLL
    for (int a = 0; a < kPerY; ++a) {
      const int d_ik = col[row_of(a) * kStride + k];
      FT_APSP_UNROLL
      for (int b = 0; b < kPerX; ++b) d[a][b] = dmin(d[a][b], d_ik + d_kj[b]);
    }
  }
  FT_APSP_UNROLL
  for (int a = 0; a < kPerY; ++a) {
    FT_APSP_UNROLL
    for (int b = 0; b < kPerX; ++b) g[row_of(a) * pitch + col_of(b)] = d[a][b];
  }
}

/// Index of block b of a stage grid that skips the primary index kb (Marras et al. sec. 4.2,
/// c_t = c + min((c + 1) / (k + 1), 1)).
__device__ __forceinline__ int skip_primary(int b, int kb) {
  return b + (b >= kb ? 1 : 0);
}

}  // namespace ftapsp
