// The driver's occupancy calculator (cuOccupancyMaxActiveBlocksPerMultiprocessor) through the
// runtime's entry-point query, for the tests that compare the occupancy model
// (tuner/occupancy.hpp) with it on a device.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

namespace flowtune::cuda::testing {

using OccupancyFn = decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor);

/// cuOccupancyMaxActiveBlocksPerMultiprocessor of the installed driver, or nullptr when the
/// runtime cannot find it (no driver).
inline OccupancyFn driver_occupancy() {
  void* p = nullptr;
  cudaDriverEntryPointQueryResult status{};
#if CUDART_VERSION >= 12050
  const cudaError_t e = cudaGetDriverEntryPointByVersion(
      "cuOccupancyMaxActiveBlocksPerMultiprocessor", &p, 12000, cudaEnableDefault, &status);
#else
  const cudaError_t e = cudaGetDriverEntryPoint("cuOccupancyMaxActiveBlocksPerMultiprocessor", &p,
                                                cudaEnableDefault, &status);
#endif
  return e == cudaSuccess && status == cudaDriverEntryPointSuccess
             ? reinterpret_cast<OccupancyFn>(p)
             : nullptr;
}

}  // namespace flowtune::cuda::testing
