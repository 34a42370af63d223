// The host side of an emulated tiled Floyd-Warshall solve (tests only): the same layouts and
// launch schedule as variants/apsp/cuda/fw_tiled_solver.cpp, the kernels of
// kernels/cuda/apsp_fw_tiled*.cuh run by cuda_host_emulation.hpp. Include after defining
// FT_TILE, FT_BLOCK_X, FT_BLOCK_Y and EMU_NS (a namespace unique to the test TU); the .cuh
// entry points and helpers must be renamed per TU when several TUs include this.
#pragma once

#include "kernels/apsp/graph.hpp"
#include "kernels/apsp/tiled_layout.hpp"
#include "tests/apsp/cuda_host_emulation.hpp"

// The device code, after the emulation's macros (__global__, threadIdx, __syncthreads...).
#include "kernels/cuda/apsp_fw_tiled.cuh"
#include "kernels/cuda/apsp_fw_tiled_sym.cuh"

namespace EMU_NS {

/// APSP of w by the emulated kernels: lower_triangle selects apsp_fw_tiled_sym.cuh.
inline flowtune::apsp::DistMatrix emulated_solve(const flowtune::apsp::DistMatrix& w,
                                                 bool lower_triangle) {
  using namespace flowtune::apsp;
  const int tile = FT_TILE, nb = tile_blocks(w.n, tile);
  std::vector<Dist> data = lower_triangle ? to_lower_tiles(w, tile) : to_padded(w, tile);
  int* d = data.data();
  const int pitch = nb * tile;
  for (const StageLaunch& l : tiled_fw_schedule(nb, lower_triangle)) {
    const unsigned bx = FT_BLOCK_X, by = FT_BLOCK_Y;
    if (lower_triangle) {
      auto* kernel = l.stage == 1   ? &apsp_fw_sym_stage1
                     : l.stage == 2 ? &apsp_fw_sym_stage2
                                    : &apsp_fw_sym_stage3;
      ft_emulation::launch(kernel, l.grid_x, l.grid_y, bx, by, d, l.kb);
    } else {
      auto* kernel = l.stage == 1   ? &apsp_fw_stage1
                     : l.stage == 2 ? &apsp_fw_stage2
                                    : &apsp_fw_stage3;
      ft_emulation::launch(kernel, l.grid_x, l.grid_y, bx, by, d, pitch, l.kb);
    }
  }
  return lower_triangle ? from_lower_tiles(data, w.n, tile) : from_padded(data, w.n, tile);
}

}  // namespace EMU_NS
