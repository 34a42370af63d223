// The CUDA APSP variants fw_tiled (directed) and fw_tiled_sym (undirected, lower triangle of
// tiles) of Marras et al. sec. 4.1-4.2: tunables, validity rule, NVRTC build of
// kernels/cuda/apsp_fw_tiled[_sym].cuh and the GPU solver.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "variants/apsp/apsp_variant.hpp"

namespace flowtune::apsp_cuda {

/// Tunable values of both CUDA variants: tile (B, the tile side in nodes), block_x and
/// block_y (thread block shape; each thread relaxes tile^2 / (block_x * block_y) entries).
inline const std::vector<int> kTileValues = {16, 32, 64};
inline const std::vector<int> kBlockXValues = {8, 16, 32};
inline const std::vector<int> kBlockYValues = {4, 8, 16, 32};

/// Static shared memory of the largest kernel (stages 2 and 3: two tiles of tile x (tile + 1)
/// ints, one padding word per row; apsp_fw_common.cuh). tile 64: 33280 bytes.
int fw_tiled_shared_bytes(int tile);

/// The rule of both variants for tile and block shape: tile a multiple of block_x and of
/// block_y, block_x * block_y <= 1024 threads, fw_tiled_shared_bytes(tile) <= 48 KiB (static
/// shared memory, no opt-in). nullopt when valid, else the reason.
std::optional<std::string> fw_tiled_shape_invalid_reason(int tile, int block_x, int block_y);

/// NVRTC defines of a config: FT_TILE, FT_BLOCK_X, FT_BLOCK_Y.
std::vector<std::string> fw_tiled_defines(const Config& config);

/// The embedded device source: "apsp_fw_tiled_sym.cuh" (lower_triangle) or
/// "apsp_fw_tiled.cuh".
std::string fw_tiled_source(bool lower_triangle);

/// The entry kernels of the three stages, in stage order.
std::vector<std::string> fw_tiled_kernels(bool lower_triangle);

/// Builds (NVRTC, for the current device's arch) and loads config's kernels, ready to solve.
/// Throws std::runtime_error when there is no device or the build fails. Defined in
/// fw_tiled_solver.cpp.
std::unique_ptr<ApspSolver> make_fw_tiled_solver(const Config& config, bool lower_triangle);

/// The adaptors: "fw_tiled" (directed, any graph) and "fw_tiled_sym" (symmetric graphs only).
const ApspVariant& fw_tiled_variant();
const ApspVariant& fw_tiled_sym_variant();

}  // namespace flowtune::apsp_cuda
