// The CUDA variant bm_cuda of pyramidal block matching (Marras et al. sec. 3.2):
// tunables, validity rule, shared-memory model, NVRTC build of kernels/cuda/bm_match.cuh
// and the GPU solver.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "variants/localflow/localflow_variant.hpp"

namespace flowtune::localflow_cuda {

/// Tunable values: threads per image block, image blocks per thread block, staging of the
/// search window in shared memory (0/1).
inline const std::vector<int> kBmThreadsValues = {32, 64, 128, 256};
inline const std::vector<int> kBmBlocksPerTbValues = {1, 2, 4, 8};
inline const std::vector<int> kBmTileSearchValues = {0, 1};

/// Dynamic shared memory of bm_match_level in bytes: blocks_per_tb * ((2R + 1)^2 +
/// tile_search * (B^2 + (B + 2R)^2)) floats (bm_match.cuh). B = 16, R = 8, tiled: 6276 bytes
/// per image block.
int bm_shared_bytes(int block, int radius, int blocks_per_tb, int tile_search);

/// The rule of bm_cuda: threads a multiple of 32, threads * blocks_per_tb <= 1024,
/// tile_search 0 or 1. nullopt when valid.
std::optional<std::string> bm_shape_invalid_reason(int threads, int blocks_per_tb, int tile_search);

/// NVRTC defines of a config: FT_THREADS, FT_BLOCKS_PER_TB, FT_TILE_SEARCH.
std::vector<std::string> bm_defines(const Config& config);

/// The embedded device source "bm_match.cuh" and its entry kernels.
inline const char* const kBmSource = "bm_match.cuh";

/// Builds (NVRTC, current device's arch) and loads config's kernels. Throws
/// std::runtime_error when there is no device or the build fails. bm_cuda_solver.cpp.
std::unique_ptr<FlowSolver> make_bm_cuda_solver(const Config& config);

const LocalFlowVariant& bm_cuda_variant();

}  // namespace flowtune::localflow_cuda
