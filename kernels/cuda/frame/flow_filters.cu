// Kernels and host emulation of flow_filters.hpp: the median filter and the weighted
// non-local median (one thread per pixel, 32 x 8 and 32 x 4 blocks, the window a template
// constant, the samples in registers; a half2 flow's median in packed half2 on sm_80+) and
// the two-pass reduction of the epsilon stopping test.
#include <stdexcept>
#include <string>
#include <type_traits>

#include "kernels/cuda/frame/flow_filters.hpp"
#include "kernels/cuda/frame/frame_launch.cuh"
#include "kernels/cuda/frame/frame_pixels.cuh"
#include "kernels/median_filter.hpp"
#include "kernels/weighted_median.hpp"

namespace flowtune::cuda::frame {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
// The weighted median's selection holds a component's window of (value, weight) pairs in
// registers (151 per thread at 5x5, 255 at 7x7; ptxas, sm_90): 128-thread blocks let three
// blocks (12 warps) share an SM at 5x5, where one 256-thread block would fit alone.
constexpr int kWmBlockX = 32, kWmBlockY = 4;
constexpr int kSumThreads = 256, kSumBlocks = 512;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("kernels/cuda/frame/flow_filters.cu: ") + what + ": " +
                             cudaGetErrorString(e));
}

/// A flow of pairs as the loader of both components (median_window_samples reads pairs).
template <class T2>
struct PairLoad {
  const T2* p;
  int w;
  FT_HD float2 operator()(int i, int j) const { return load2(p, std::size_t(j) * w + i); }
};

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
/// Compare-exchange of both halves of two half2 at once (HMNMX2: sm_80 and newer).
struct Half2Exchange {
  __device__ void operator()(__half2& a, __half2& b) const {
    const __half2 lo = __hmin2(a, b);
    b = __hmax2(a, b);
    a = lo;
  }
};

/// A flow stored as half2 pairs, read as they are (no conversion).
struct Half2Load {
  const __half2* p;
  int w;
  __device__ __half2 operator()(int i, int j) const { return p[std::size_t(j) * w + i]; }
};

/// median_px_pair for a flow of half2 pairs: one forgetful selection orders both components
/// at once in packed half2 registers, half the instructions and registers of two float
/// selections. Each half's result is the same sample as the float selection's (converting a
/// half to float is exact and keeps the order), except that where +0 and -0 tie either may be
/// returned (min/max do not keep the operands' places as median_exchange does): equal values.
template <int Window>
__device__ void median_px_half2(const __half2* in, __half2* out, int w, int h, int x, int y) {
  constexpr int N = Window * Window;
  __half2 s[N];
  median_window_samples<__half2, Window>(Half2Load{in, w}, w, h, x, y, s);
  out[std::size_t(y) * w + x] = median_select_by<__half2, N>(s, Half2Exchange{});
}
#endif

/// The median of both components at (x, y): the window's pairs read once, each component
/// selected by median_select in registers (kernels/median_filter.hpp, the CPU's median_px);
/// on sm_80 and newer a flow of half2 pairs takes median_px_half2.
template <int Window, class T2>
FT_HD void median_px_pair(const T2* in, T2* out, int w, int h, int x, int y) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same<T2, __half2>::value) {
    median_px_half2<Window>(in, out, w, h, x, y);
    return;
  }
#endif
  constexpr int N = Window * Window;
  float2 s[N];
  median_window_samples<float2, Window>(PairLoad<T2>{in, w}, w, h, x, y, s);
  float a[N], b[N];
#if defined(__CUDA_ARCH__)
#pragma unroll
#endif
  for (int k = 0; k < N; ++k) {
    a[k] = s[k].x;
    b[k] = s[k].y;
  }
  store2(out, std::size_t(y) * w + x,
         make_float2(median_select<float, N>(a), median_select<float, N>(b)));
}

template <int Window, class T2>
__global__ void median_kernel(const T2* in, T2* out, int w, int h) {
  ft::wait_previous_grid();
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x < w && y < h) median_px_pair<Window>(in, out, w, h, x, y);
}

template <int Window, class T2>
void median_impl(const void* u_in, void* u_out, int w, int h, Exec exec) {
  const T2* in = static_cast<const T2*>(u_in);
  T2* out = static_cast<T2*>(u_out);
  if (exec.on_host) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) median_px_pair<Window>(in, out, w, h, x, y);
    return;
  }
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(unsigned((w + kBlockX - 1) / kBlockX), unsigned((h + kBlockY - 1) / kBlockY));
  check(launch_kernel(median_kernel<Window, T2>, grid, block, 0, exec, in, out, w, h),
        "median_flow");
}

template <int Window, class T2>
FT_HD void weighted_median_px_pair(const T2* in, T2* out, const float* guide, int w, int h,
                                   float sigma_spatial, float sigma_color, int x, int y) {
  float a = 0, b = 0;
  weighted_median_px_window<float, Window>(FlowComponentLoad<T2>{in, w}, PlaneLoad{guide, w}, w, h,
                                           x, y, sigma_spatial, sigma_color, &a, &b);
  store2(out, std::size_t(y) * w + x, make_float2(a, b));
}

template <int Window, class T2>
__global__ void __launch_bounds__(kWmBlockX* kWmBlockY)
    weighted_median_kernel(const T2* in, T2* out, const float* guide, int w, int h,
                           float sigma_spatial, float sigma_color) {
  ft::wait_previous_grid();
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x < w && y < h)
    weighted_median_px_pair<Window>(in, out, guide, w, h, sigma_spatial, sigma_color, x, y);
}

template <int Window, class T2>
void weighted_median_impl(const void* u_in, void* u_out, const float* guide, int w, int h,
                          float sigma_spatial, float sigma_color, Exec exec) {
  const T2* in = static_cast<const T2*>(u_in);
  T2* out = static_cast<T2*>(u_out);
  if (exec.on_host) {
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x)
        weighted_median_px_pair<Window>(in, out, guide, w, h, sigma_spatial, sigma_color, x, y);
    return;
  }
  const dim3 block(kWmBlockX, kWmBlockY);
  const dim3 grid(unsigned((w + kWmBlockX - 1) / kWmBlockX),
                  unsigned((h + kWmBlockY - 1) / kWmBlockY));
  check(launch_kernel(weighted_median_kernel<Window, T2>, grid, block, 0, exec, in, out, guide, w,
                      h, sigma_spatial, sigma_color),
        "weighted_median_flow");
}

template <class T2>
void weighted_median_window(int window, const void* u_in, void* u_out, const float* guide, int w,
                            int h, float ss, float sc, Exec exec) {
  switch (window) {
    case 3:
      return weighted_median_impl<3, T2>(u_in, u_out, guide, w, h, ss, sc, exec);
    case 5:
      return weighted_median_impl<5, T2>(u_in, u_out, guide, w, h, ss, sc, exec);
    case 7:
      return weighted_median_impl<7, T2>(u_in, u_out, guide, w, h, ss, sc, exec);
    case 9:
      return weighted_median_impl<9, T2>(u_in, u_out, guide, w, h, ss, sc, exec);
    default:
      return weighted_median_impl<11, T2>(u_in, u_out, guide, w, h, ss, sc, exec);
  }
}

template <class T2>
FT_HD double change_at(const T2* u, const T2* prev, std::size_t i) {
  const float2 a = load2(u, i), b = load2(prev, i);
  const double dx = double(a.x) - b.x, dy = double(a.y) - b.y;
  return dx * dx + dy * dy;
}

template <class T2>
__global__ void change_partial_kernel(const T2* u, const T2* prev, std::size_t n, double* partial) {
  ft::wait_previous_grid();
  __shared__ double s[kSumThreads];
  double acc = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    acc += change_at(u, prev, i);
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}

__global__ void change_final_kernel(const double* partial, int n_partials, std::size_t n,
                                    double* mean_out) {
  ft::wait_previous_grid();
  __shared__ double s[kSumThreads];
  double acc = 0;
  for (int i = int(threadIdx.x); i < n_partials; i += int(blockDim.x)) acc += partial[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k /= 2) {
    if (threadIdx.x < k) s[threadIdx.x] += s[threadIdx.x + k];
    __syncthreads();
  }
  if (threadIdx.x == 0) mean_out[0] = s[0] / double(n);
}

template <class T2>
void change_impl(const void* u_, const void* prev_, int w, int h, double* scratch, double* mean_out,
                 Exec exec) {
  const T2* u = static_cast<const T2*>(u_);
  const T2* prev = static_cast<const T2*>(prev_);
  const std::size_t n = std::size_t(w) * h;
  if (exec.on_host) {
    double acc = 0;
    for (std::size_t i = 0; i < n; ++i) acc += change_at(u, prev, i);
    mean_out[0] = n ? acc / double(n) : 0.0;
    return;
  }
  const std::size_t want = (n + kSumThreads - 1) / kSumThreads;
  const int blocks = int(want < std::size_t(kSumBlocks) ? (want > 0 ? want : 1) : kSumBlocks);
  check(launch_kernel(change_partial_kernel<T2>, blocks, kSumThreads, 0, exec, u, prev, n, scratch),
        "flow_change_partial");
  check(launch_kernel(change_final_kernel, 1, kSumThreads, 0, exec, scratch, blocks, n, mean_out),
        "flow_change_final");
}

}  // namespace

void median_flow(bool f16, const void* u_in, void* u_out, int w, int h, int window, Exec exec) {
  if (window != 3 && window != 5)
    throw std::invalid_argument(
        "kernels/cuda/frame/flow_filters: median window must be 3 or 5, "
        "got " +
        std::to_string(window));
  if (w <= 0 || h <= 0) return;
  if (f16)
    window == 3 ? median_impl<3, __half2>(u_in, u_out, w, h, exec)
                : median_impl<5, __half2>(u_in, u_out, w, h, exec);
  else
    window == 3 ? median_impl<3, float2>(u_in, u_out, w, h, exec)
                : median_impl<5, float2>(u_in, u_out, w, h, exec);
}

void weighted_median_flow(bool f16, const void* u_in, void* u_out, const float* guide, int w, int h,
                          int window, float sigma_spatial, float sigma_color, Exec exec) {
  check_nl_median(window, sigma_spatial, sigma_color, "kernels/cuda/frame/flow_filters");
  if (window == 0 || w <= 0 || h <= 0) return;
  if (f16)
    weighted_median_window<__half2>(window, u_in, u_out, guide, w, h, sigma_spatial, sigma_color,
                                    exec);
  else
    weighted_median_window<float2>(window, u_in, u_out, guide, w, h, sigma_spatial, sigma_color,
                                   exec);
}

std::size_t flow_change_scratch_doubles() {
  return std::size_t(kSumBlocks);
}

void flow_change_mean(bool f16, const void* u, const void* u_prev, int w, int h, double* scratch,
                      double* mean_out, Exec exec) {
  if (f16)
    change_impl<__half2>(u, u_prev, w, h, scratch, mean_out, exec);
  else
    change_impl<float2>(u, u_prev, w, h, scratch, mean_out, exec);
}

}  // namespace flowtune::cuda::frame
