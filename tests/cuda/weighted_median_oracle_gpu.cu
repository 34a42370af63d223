// The sorting oracle of the weighted median as a device kernel (weighted_median_oracle_gpu.hpp).
#include <stdexcept>
#include <string>

#include "tests/cuda/weighted_median_oracle_gpu.hpp"
#include "tests/kernels/weighted_median_oracle.hpp"

namespace flowtune::test {
namespace {

struct OracleFlow {
  const float2* p;
  int w;
  __device__ float operator()(int i, int j, int c) const {
    const float2 v = p[std::size_t(j) * w + i];
    return c ? v.y : v.x;
  }
};
struct OracleGuide {
  const float* g;
  int w;
  __device__ float operator()(int i, int j) const { return g[std::size_t(j) * w + i]; }
};

template <int Window>
__global__ void sorting_kernel(const float2* in, const float* guide, float2* out, int w, int h,
                               float ss, float sc) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x >= w || y >= h) return;
  float a = 0, b = 0;
  sorting_px<float, Window>(OracleFlow{in, w}, OracleGuide{guide, w}, w, h, x, y, Window, ss, sc,
                            &a, &b);
  out[std::size_t(y) * w + x] = make_float2(a, b);
}

template <int Window>
void launch(const float2* in, const float* guide, float2* out, int w, int h, float ss, float sc) {
  const dim3 block(32, 8), grid(unsigned((w + 31) / 32), unsigned((h + 7) / 8));
  sorting_kernel<Window><<<grid, block>>>(in, guide, out, w, h, ss, sc);
}

}  // namespace

void weighted_median_sorting_gpu(const float2* in, const float* guide, float2* out, int w, int h,
                                 int window, float sigma_spatial, float sigma_color) {
  switch (window) {
    case 3:
      launch<3>(in, guide, out, w, h, sigma_spatial, sigma_color);
      break;
    case 5:
      launch<5>(in, guide, out, w, h, sigma_spatial, sigma_color);
      break;
    case 7:
      launch<7>(in, guide, out, w, h, sigma_spatial, sigma_color);
      break;
    case 9:
      launch<9>(in, guide, out, w, h, sigma_spatial, sigma_color);
      break;
    case 11:
      launch<11>(in, guide, out, w, h, sigma_spatial, sigma_color);
      break;
    default:
      throw std::runtime_error("weighted_median_sorting_gpu: window " + std::to_string(window));
  }
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("weighted_median_sorting_gpu: ") + cudaGetErrorString(e));
}

}  // namespace flowtune::test
