// Kernels and host emulation of texture_kernels.hpp: one thread per pixel and frame (z).
#include <cstring>
#include <stdexcept>
#include <string>

#include "kernels/cuda/frame/frame_pixels.cuh"
#include "kernels/cuda/frame/texture_kernels.hpp"
#include "kernels/structure_texture.hpp"

namespace flowtune::cuda::frame {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("kernels/cuda/frame/texture_kernels.cu: ") + what + ": " +
                             cudaGetErrorString(e));
}

template <class F>
__global__ void texture_pixel_kernel(int w, int h, F f) {
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x < w && y < h) f(x, y, int(blockIdx.z));
}

template <class F>
void each_pixel(int w, int h, Exec exec, const char* what, const F& f) {
  if (exec.on_host) {
    for (int z = 0; z < 2; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) f(x, y, z);
    return;
  }
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(unsigned((w + kBlockX - 1) / kBlockX), unsigned((h + kBlockY - 1) / kBlockY), 2u);
  texture_pixel_kernel<<<grid, block, 0, exec.stream>>>(w, h, f);
  check(cudaGetLastError(), what);
}

}  // namespace

void structure_texture_pair(float* f0, float* f1, int w, int h, float* p, float* v,
                            const float* minmax, float alpha, float theta, int iterations,
                            Exec exec) {
  if (w <= 0 || h <= 0) return;
  const std::size_t n = std::size_t(w) * h;
  if (exec.on_host)
    std::memset(p, 0, 4 * n * sizeof(float));
  else
    check(cudaMemsetAsync(p, 0, 4 * n * sizeof(float), exec.stream), "cudaMemsetAsync");
  each_pixel(w, h, exec, "texture_normalise", [=] __host__ __device__(int x, int y, int z) {
    const float2 norm = normalisation_of(minmax);
    float* f = z ? f1 : f0;
    const std::size_t i = std::size_t(y) * w + x;
    f[i] = (f[i] - norm.x) * norm.y;
  });
  const float inv_theta = 1.f / theta, tau = float(kRofTau);
  for (int k = 0; k < iterations; ++k) {
    each_pixel(w, h, exec, "rof_v", [=] __host__ __device__(int x, int y, int z) {
      const float* pz = p + std::size_t(z) * 2 * n;
      rof_v_px(z ? f1 : f0, pz, pz + n, v + std::size_t(z) * n, w, x, y, inv_theta);
    });
    each_pixel(w, h, exec, "rof_p", [=] __host__ __device__(int x, int y, int z) {
      float* pz = p + std::size_t(z) * 2 * n;
      rof_p_px(v + std::size_t(z) * n, pz, pz + n, w, h, x, y, tau);
    });
  }
  each_pixel(w, h, exec, "texture", [=] __host__ __device__(int x, int y, int z) {
    const float* pz = p + std::size_t(z) * 2 * n;
    float* f = z ? f1 : f0;
    f[std::size_t(y) * w + x] = texture_px(f, pz, pz + n, w, x, y, theta, alpha);
  });
}

}  // namespace flowtune::cuda::frame
