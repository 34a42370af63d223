// The error convention of the GPU frame solver's files: a failed CUDA call throws
// std::runtime_error "cuda_frame_solver: <call>: <CUDA error string>".
#pragma once

#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>

namespace flowtune::cuda {

/// Throws std::runtime_error "cuda_frame_solver: <what>: <cudaGetErrorString(e)>" when e is
/// not cudaSuccess.
inline void check_frame(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("cuda_frame_solver: ") + what + ": " +
                             cudaGetErrorString(e));
}

}  // namespace flowtune::cuda
