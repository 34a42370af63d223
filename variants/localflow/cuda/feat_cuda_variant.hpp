// The CUDA variant feat_cuda of flow from tracked features (Kim, Hwangbo and Kanade, sec. 5):
// corners and the KLT on the host (the paper's "features tracked in advance"), the dense
// per-pixel step (method 1 or 2) on the GPU (kernels/cuda/feat_dense.cuh through NVRTC).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "variants/localflow/localflow_variant.hpp"

namespace flowtune::localflow_cuda {

/// Tunable values: thread block shape, features staged in shared memory (0: read from
/// global memory), features per chunk.
inline const std::vector<int> kFeatBlockXValues = {16, 32};
inline const std::vector<int> kFeatBlockYValues = {4, 8};
inline const std::vector<int> kFeatSharedValues = {0, 1};
inline const std::vector<int> kFeatPerTbValues = {32, 128};

/// Dynamic shared memory of feat_dense: shared_features * features_per_tb * 20 bytes.
int feat_shared_bytes(int shared_features, int features_per_tb);

/// The rule of feat_cuda: block_x * block_y a multiple of 32 and <= 1024, shared_features 0
/// or 1, features_per_tb > 0.
std::optional<std::string> feat_shape_invalid_reason(int block_x, int block_y, int shared,
                                                     int per_tb);

/// NVRTC defines: FT_BLOCK_X, FT_BLOCK_Y, FT_SHARED_FEATURES, FT_FEATURES_PER_TB.
std::vector<std::string> feat_defines(const Config& config);

inline const char* const kFeatSource = "feat_dense.cuh";

/// Builds and loads config's kernel; throws std::runtime_error without a device or when the
/// build fails. feat_cuda_solver.cpp. The solver is a FeatureSolver.
std::unique_ptr<FlowSolver> make_feat_cuda_solver(const Config& config);

const LocalFlowVariant& feat_cuda_variant();

}  // namespace flowtune::localflow_cuda
