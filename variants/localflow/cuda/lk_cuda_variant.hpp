// The CUDA variant lk_cuda of pyramidal dense Lucas-Kanade (Marras et al. sec. 3.3, Bouguet
// 2000): tunables, validity rule, shared-memory model, NVRTC build of
// kernels/cuda/lk_dense.cuh and the GPU solver.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "variants/localflow/localflow_variant.hpp"

namespace flowtune::localflow_cuda {

/// Tunable values: thread block shape, fused derivatives (0/1), shared-memory window tile
/// (0/1).
inline const std::vector<int> kLkBlockXValues = {8, 16, 32, 64};
inline const std::vector<int> kLkBlockYValues = {2, 4, 8, 16};
inline const std::vector<int> kLkFusedValues = {0, 1};
inline const std::vector<int> kLkTileValues = {0, 1};

/// Dynamic shared memory of lk_level in bytes: tile * (fused ? 1 : 3) planes of
/// (block_x + 2 h) x (block_y + 2 h) elements of `element_bytes` (4 in f32, 2 in f16), halo
/// h = window / 2 + fused (lk_dense.cuh).
int lk_shared_bytes(int window, int block_x, int block_y, int fused, int tile,
                    int element_bytes = 4);

/// The rule of lk_cuda: block_x * block_y a multiple of 32 and <= 1024; fused and tile 0 or 1.
std::optional<std::string> lk_shape_invalid_reason(int block_x, int block_y, int fused, int tile);

/// What the GPU solver of a config (lk_cuda_solver.cpp) launches with, derived from the config
/// alone (testable without a device). f16 must agree with lk_defines (FT_PRECISION_F16): it
/// decides whether the solver converts a level's I0, I1 to binary16 (lk_to_half, into
/// buffers of lk_plane_floats(n, 2) floats) before lk_gradients and lk_level read them as
/// ft_lk_t; a float kernel reading those buffers reads past their end.
struct LkSolverSettings {
  int block_x = 0, block_y = 0;
  bool fused = false;
  bool f16 = false;       ///< precision f16: I0, I1, Ix, Iy stored as binary16
  int element_bytes = 4;  ///< bytes of an ft_lk_t (4 in f32, 2 in f16)
  int shared_bytes = 0;   ///< lk_level's dynamic shared memory (lk_shared_bytes)
};
LkSolverSettings lk_solver_settings(const Config& config);

/// Floats of device memory that hold `pixels` elements of `element_bytes` (4 or 2) bytes.
std::size_t lk_plane_floats(std::size_t pixels, int element_bytes);

/// NVRTC defines of a config: FT_BLOCK_X, FT_BLOCK_Y, FT_FUSED, FT_TILE, and
/// FT_PRECISION_F16 for precision f16 (the macro an exported header defines).
std::vector<std::string> lk_defines(const Config& config);

inline const char* const kLkSource = "lk_dense.cuh";

/// Builds (NVRTC, current device's arch) and loads config's kernels. Throws
/// std::runtime_error when there is no device or the build fails. lk_cuda_solver.cpp.
std::unique_ptr<FlowSolver> make_lk_cuda_solver(const Config& config);

const LocalFlowVariant& lk_cuda_variant();

}  // namespace flowtune::localflow_cuda
