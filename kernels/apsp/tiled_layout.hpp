// Host side of the CUDA tiled Floyd-Warshall (kernels/cuda/apsp_fw_tiled.cuh and
// apsp_fw_tiled_sym.cuh, Marras et al. sec. 4.1-4.2): the device memory layouts (padded
// row-major matrix; packed lower triangle of tiles) and the launch schedule of the three
// stages. No CUDA needed: the GPU solvers and the host-emulation tests share them.
#pragma once

#include <vector>

#include "kernels/apsp/graph.hpp"

namespace flowtune::apsp {

/// Tiles per side, ceil(n / tile). Throws std::invalid_argument for tile < 1 or n < 0.
int tile_blocks(int n, int tile);

/// The padded matrix of apsp_fw_tiled.cuh: P x P ints, P = tile_blocks(n, tile) * tile,
/// row-major, pitch P; w in the top-left n x n corner, padding nodes isolated (kInf off the
/// diagonal, 0 on it). Throws std::invalid_argument for tile < 1.
std::vector<Dist> to_padded(const DistMatrix& w, int tile);
/// The top-left n x n corner of a padded matrix (inverse of to_padded). Throws
/// std::invalid_argument when padded has not the size to_padded gives for (n, tile).
DistMatrix from_padded(const std::vector<Dist>& padded, int n, int tile);

/// Index of tile (r, c), r >= c, in the packed lower triangle: r (r + 1) / 2 + c.
inline long long lower_tile_index(int r, int c) {
  return (long long)r * (r + 1) / 2 + c;
}

/// The packed lower triangle of apsp_fw_tiled_sym.cuh: for nb = tile_blocks(n, tile), the
/// nb (nb + 1) / 2 tiles (r, c) with r >= c of the padded matrix, each tile x tile
/// row-major and contiguous, tile (r, c) at lower_tile_index(r, c) * tile^2. w must be
/// symmetric (the upper triangle is dropped). Throws std::invalid_argument for tile < 1.
std::vector<Dist> to_lower_tiles(const DistMatrix& w, int tile);
/// The full symmetric n x n matrix of a packed lower triangle (inverse of to_lower_tiles on a
/// symmetric matrix): (i, j) above the tile diagonal is read as (j, i) of tile (bj, bi).
/// Throws std::invalid_argument on a size mismatch.
DistMatrix from_lower_tiles(const std::vector<Dist>& tiles, int n, int tile);

/// One kernel launch of the tiled schedule: stage 1, 2 or 3 for primary block kb on a grid
/// of grid_x x grid_y thread blocks.
struct StageLaunch {
  int stage = 0;
  int kb = 0;
  unsigned grid_x = 0, grid_y = 0;
};

/// The launches of the tiled Floyd-Warshall on nb x nb tiles, in order: for kb = 0 .. nb-1,
/// stage 1 on 1 x 1, then (when nb > 1) stage 2 and stage 3. Directed (apsp_fw_tiled.cuh):
/// stage 2 on (nb-1) x 2, stage 3 on (nb-1) x (nb-1). Lower triangle
/// (apsp_fw_tiled_sym.cuh): stage 2 on (nb-1) x 1, stage 3 on (nb-1) nb / 2 x 1.
std::vector<StageLaunch> tiled_fw_schedule(int nb, bool lower_triangle);

}  // namespace flowtune::apsp
