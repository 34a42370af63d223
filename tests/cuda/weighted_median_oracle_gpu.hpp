// Test oracle on the device (test code only): the weighted median of a float2 flow by the
// insertion-sort oracle (tests/kernels/weighted_median_oracle.hpp), one thread per
// pixel, compiled by nvcc in tests/cuda/weighted_median_oracle_gpu.cu.
#pragma once

#include <cuda_runtime.h>

namespace flowtune::test {

/// out[y w + x] = the sorting oracle's weighted median of both components of in (device
/// pointers, w x h float2 / float planes), window odd in 3..11, sigmas > 0; waits for the
/// kernel. Throws std::runtime_error on a CUDA error or another window.
void weighted_median_sorting_gpu(const float2* in, const float* guide, float2* out, int w, int h,
                                 int window, float sigma_spatial, float sigma_color);

}  // namespace flowtune::test
