// Kernels and host emulation of occlusion_filters.hpp: the occlusion cost (one thread per
// pixel, 32 x 8 blocks) and the weighted non-local median with the occlusion factor (32 x 4
// blocks as flow_filters.cu's, the window a template constant, the samples in registers).
#include <stdexcept>
#include <string>

#include "kernels/cuda/frame/frame_launch.cuh"
#include "kernels/cuda/frame/frame_pixels.cuh"
#include "kernels/cuda/frame/occlusion_filters.hpp"
#include "kernels/occlusion.hpp"
#include "kernels/weighted_median.hpp"

namespace flowtune::cuda::frame {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kWmBlockX = 32, kWmBlockY = 4;  // flow_filters.cu: registers of the selection

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("kernels/cuda/frame/occlusion_filters.cu: ") + what +
                             ": " + cudaGetErrorString(e));
}

template <class T2>
FT_HD void cost_px(const T2* u, const float* i0, const float* i1, float* cost, int w, int h,
                   float kd, float ke, int x, int y) {
  cost[std::size_t(y) * w + x] = occlusion_cost_px<float>(
      FlowComponentLoad<T2>{u, w}, PlaneLoad{i0, w}, PlaneLoad{i1, w}, w, h, x, y, kd, ke);
}

template <class T2>
__global__ void cost_kernel(const T2* u, const float* i0, const float* i1, float* cost, int w,
                            int h, float kd, float ke) {
  ft::wait_previous_grid();
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x < w && y < h) cost_px(u, i0, i1, cost, w, h, kd, ke, x, y);
}

template <class T2>
void cost_impl(const void* u_, const float* i0, const float* i1, float* cost, int w, int h,
               float kd, float ke, Exec exec) {
  const T2* u = static_cast<const T2*>(u_);
  if (exec.on_host) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) cost_px(u, i0, i1, cost, w, h, kd, ke, x, y);
    return;
  }
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(unsigned((w + kBlockX - 1) / kBlockX), unsigned((h + kBlockY - 1) / kBlockY));
  check(launch_kernel(cost_kernel<T2>, grid, block, 0, exec, u, i0, i1, cost, w, h, kd, ke),
        "occlusion_cost");
}

template <int Window, class T2>
FT_HD void wm_occluded_px(const T2* in, T2* out, const float* guide, const float* cost, int w,
                          int h, float sigma_spatial, float sigma_color, int x, int y) {
  float a = 0, b = 0;
  weighted_median_px_window<float, Window>(FlowComponentLoad<T2>{in, w}, PlaneLoad{guide, w}, w, h,
                                           x, y, sigma_spatial, sigma_color, &a, &b,
                                           OcclusionCostLoad<float>{cost, w});
  store2(out, std::size_t(y) * w + x, make_float2(a, b));
}

template <int Window, class T2>
__global__ void __launch_bounds__(kWmBlockX* kWmBlockY)
    wm_occluded_kernel(const T2* in, T2* out, const float* guide, const float* cost, int w, int h,
                       float sigma_spatial, float sigma_color) {
  ft::wait_previous_grid();
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x < w && y < h)
    wm_occluded_px<Window>(in, out, guide, cost, w, h, sigma_spatial, sigma_color, x, y);
}

template <int Window, class T2>
void wm_occluded_impl(const void* u_in, void* u_out, const float* guide, const float* cost, int w,
                      int h, float ss, float sc, Exec exec) {
  const T2* in = static_cast<const T2*>(u_in);
  T2* out = static_cast<T2*>(u_out);
  if (exec.on_host) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) wm_occluded_px<Window>(in, out, guide, cost, w, h, ss, sc, x, y);
    return;
  }
  const dim3 block(kWmBlockX, kWmBlockY);
  const dim3 grid(unsigned((w + kWmBlockX - 1) / kWmBlockX),
                  unsigned((h + kWmBlockY - 1) / kWmBlockY));
  check(launch_kernel(wm_occluded_kernel<Window, T2>, grid, block, 0, exec, in, out, guide, cost, w,
                      h, ss, sc),
        "weighted_median_flow_occluded");
}

template <class T2>
void wm_occluded_window(int window, const void* u_in, void* u_out, const float* guide,
                        const float* cost, int w, int h, float ss, float sc, Exec exec) {
  switch (window) {
    case 3:
      return wm_occluded_impl<3, T2>(u_in, u_out, guide, cost, w, h, ss, sc, exec);
    case 5:
      return wm_occluded_impl<5, T2>(u_in, u_out, guide, cost, w, h, ss, sc, exec);
    case 7:
      return wm_occluded_impl<7, T2>(u_in, u_out, guide, cost, w, h, ss, sc, exec);
    case 9:
      return wm_occluded_impl<9, T2>(u_in, u_out, guide, cost, w, h, ss, sc, exec);
    default:
      return wm_occluded_impl<11, T2>(u_in, u_out, guide, cost, w, h, ss, sc, exec);
  }
}

}  // namespace

void occlusion_cost(bool f16, const void* u, const float* i0, const float* i1, float* cost, int w,
                    int h, float sigma_d, float sigma_e, Exec exec) {
  check_occlusion_sigmas(sigma_d, sigma_e, "kernels/cuda/frame/occlusion_filters");
  if (w <= 0 || h <= 0) return;
  // As occlusion_cost_map: the constants from the sigmas in double, then rounded.
  const float kd = float(1.0 / (2.0 * double(sigma_d) * double(sigma_d)));
  const float ke = float(1.0 / (2.0 * double(sigma_e) * double(sigma_e)));
  if (f16)
    cost_impl<__half2>(u, i0, i1, cost, w, h, kd, ke, exec);
  else
    cost_impl<float2>(u, i0, i1, cost, w, h, kd, ke, exec);
}

void weighted_median_flow_occluded(bool f16, const void* u_in, void* u_out, const float* guide,
                                   const float* cost, int w, int h, int window, float sigma_spatial,
                                   float sigma_color, Exec exec) {
  check_nl_median(window, sigma_spatial, sigma_color, "kernels/cuda/frame/occlusion_filters");
  if (window == 0 || w <= 0 || h <= 0) return;
  if (f16)
    wm_occluded_window<__half2>(window, u_in, u_out, guide, cost, w, h, sigma_spatial, sigma_color,
                                exec);
  else
    wm_occluded_window<float2>(window, u_in, u_out, guide, cost, w, h, sigma_spatial, sigma_color,
                               exec);
}

void weighted_median_flow_occlusion(bool f16, const void* u_in, void* u_out, const float* i0,
                                    const float* i1, float* cost_scratch, int w, int h, int window,
                                    float sigma_spatial, float sigma_color, float sigma_d,
                                    float sigma_e, Exec exec) {
  check_nl_median(window, sigma_spatial, sigma_color, "kernels/cuda/frame/occlusion_filters");
  if (window == 0 || w <= 0 || h <= 0) return;
  occlusion_cost(f16, u_in, i0, i1, cost_scratch, w, h, sigma_d, sigma_e, exec);
  weighted_median_flow_occluded(f16, u_in, u_out, i0, cost_scratch, w, h, window, sigma_spatial,
                                sigma_color, exec);
}

}  // namespace flowtune::cuda::frame
