// The launch of a frame stage's kernel (nvcc): in stream order, or, with Exec::programmatic, as
// a programmatic dependent launch (CUDA Programming Guide, "Programmatic Dependent Launch and
// Synchronization"), whose kernel begins with ft::wait_previous_grid
// (kernels/cuda/grid_dependency.cuh) and so reads and writes what it would in stream order.
// A toolkit older than 11.8 has no cudaLaunchKernelEx: there every launch is in stream order.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/cuda/grid_dependency.cuh"

namespace flowtune::cuda::frame {

/// Launches kernel(args...) with grid, block and shared_bytes of dynamic shared memory on
/// exec.stream (programmatically when exec.programmatic). Returns the launch's error
/// (cudaSuccess when it was enqueued).
template <typename... Params, typename... Args>
cudaError_t launch_kernel(void (*kernel)(Params...), dim3 grid, dim3 block,
                          std::size_t shared_bytes, const Exec& exec, Args... args) {
#if CUDART_VERSION >= 11080
  if (exec.programmatic) {
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = block;
    config.dynamicSmemBytes = shared_bytes;
    config.stream = exec.stream;
    config.attrs = attribute;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, kernel, args...);
  }
#endif
  kernel<<<grid, block, shared_bytes, exec.stream>>>(args...);
  return cudaGetLastError();
}

}  // namespace flowtune::cuda::frame
