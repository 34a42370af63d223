// Kernels and host emulation of the GPU TV-L1 frame stages (see frame_kernels.hpp): one thread
// per output pixel in 32 x 8 blocks (the one-launch Gaussian 32 x 16, the one-launch pyramid
// level as its ZoomSchedule says), the per-pixel bodies of frame_pixels.cuh.
#include <algorithm>
#include <cfloat>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/cuda/frame/frame_launch.cuh"
#include "kernels/cuda/frame/frame_pixels.cuh"

namespace flowtune::cuda::frame {

namespace {

constexpr int kBlockX = 32, kBlockY = 8;
constexpr int kMinmaxThreads = 256, kMinmaxBlocks = 512;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("kernels/cuda/frame/frame_kernels.cu: ") + what + ": " +
                             cudaGetErrorString(e));
}

template <class F>
__global__ void pixel_kernel(int w, int h, F f) {
  ft::wait_previous_grid();
  const int x = int(blockIdx.x * blockDim.x + threadIdx.x);
  const int y = int(blockIdx.y * blockDim.y + threadIdx.y);
  if (x < w && y < h) f(x, y, int(blockIdx.z));
}

/// Calls f(x, y, z) for every pixel of a w x h grid and z in [0, nz): one thread each on the
/// GPU, or host loops.
template <class F>
void for_each_pixel(int w, int h, int nz, Exec exec, const char* what, const F& f) {
  if (w <= 0 || h <= 0) return;
  if (exec.on_host) {
    for (int z = 0; z < nz; ++z)
      for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) f(x, y, z);
    return;
  }
  const dim3 block(kBlockX, kBlockY);
  const dim3 grid(unsigned((w + kBlockX - 1) / kBlockX), unsigned((h + kBlockY - 1) / kBlockY),
                  unsigned(nz));
  check(launch_kernel(pixel_kernel<F>, grid, block, 0, exec, w, h, f), what);
}

/// One block's joint (min, max) of a and b (grid-stride) into partial[2 blockIdx.x + 0 / 1].
__device__ void minmax_partial_block(const float* a, const float* b, std::size_t n, float* partial,
                                     float* copy_a = nullptr, float* copy_b = nullptr);

__global__ void minmax_partial_kernel(const float* a, const float* b, std::size_t n,
                                      float* partial) {
  ft::wait_previous_grid();
  minmax_partial_block(a, b, n, partial);
}

/// Block-wide min / max of (l, m) over blockDim.x (= kMinmaxThreads) threads in lo / hi; the
/// result in lo[0], hi[0].
__device__ void block_minmax(float* lo, float* hi, float l, float m) {
  lo[threadIdx.x] = l;
  hi[threadIdx.x] = m;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) {
      lo[threadIdx.x] = fminf(lo[threadIdx.x], lo[threadIdx.x + s]);
      hi[threadIdx.x] = fmaxf(hi[threadIdx.x], hi[threadIdx.x + s]);
    }
    __syncthreads();
  }
}

__device__ void minmax_partial_block(const float* a, const float* b, std::size_t n, float* partial,
                                     float* copy_a, float* copy_b) {
  __shared__ float lo[kMinmaxThreads], hi[kMinmaxThreads];
  float l = FLT_MAX, m = -FLT_MAX;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride) {
    const float va = a[i], vb = b[i];
    if (copy_a) {
      copy_a[i] = va;
      copy_b[i] = vb;
    }
    l = fminf(l, fminf(va, vb));
    m = fmaxf(m, fmaxf(va, vb));
  }
  block_minmax(lo, hi, l, m);
  if (threadIdx.x == 0) {
    partial[2 * blockIdx.x] = lo[0];
    partial[2 * blockIdx.x + 1] = hi[0];
  }
}

/// The final reduction of n_partials (min, max) pairs by one block into minmax.
__device__ void minmax_final_block(const float* partial, int n_partials, float* minmax) {
  __shared__ float lo[kMinmaxThreads], hi[kMinmaxThreads];
  float l = FLT_MAX, m = -FLT_MAX;
  for (int i = int(threadIdx.x); i < n_partials; i += int(blockDim.x)) {
    l = fminf(l, __ldcg(partial + 2 * i));  // L2: other blocks' partials (minmax_one_kernel)
    m = fmaxf(m, __ldcg(partial + 2 * i + 1));
  }
  block_minmax(lo, hi, l, m);
  if (threadIdx.x == 0) {
    minmax[0] = lo[0];
    minmax[1] = hi[0];
  }
}

__global__ void minmax_final_kernel(const float* partial, int n_partials, float* minmax) {
  ft::wait_previous_grid();
  minmax_final_block(partial, n_partials, minmax);
}

/// minmax_partial_kernel, then the last block to finish (counted in *done) runs the final
/// reduction and resets the counter (the threadfence / atomic pattern of the CUDA
/// programming guide's "last block" reduction).
__global__ void minmax_one_kernel(const float* a, const float* b, std::size_t n, float* partial,
                                  unsigned* done, float* minmax, float* copy_a, float* copy_b) {
  ft::wait_previous_grid();
  minmax_partial_block(a, b, n, partial, copy_a, copy_b);
  __shared__ bool last;
  if (threadIdx.x == 0) {
    __threadfence();
    last = atomicAdd(done, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last) return;
  __threadfence();
  minmax_final_block(partial, int(gridDim.x), minmax);
  if (threadIdx.x == 0) *done = 0;
}

/// gaussian_pair_one_launch's kernel: blockIdx.z picks the plane.
__global__ void gaussian_one_kernel(const float* in0, const float* in1, float* out0, float* out1,
                                    int w, int h, GaussTaps t, const float* minmax) {
  ft::wait_previous_grid();
  __shared__ float tile[kGaussTileRows * kGaussBlockX];
  const int bx = int(blockIdx.x), by = int(blockIdx.y), tx = int(threadIdx.x),
            ty = int(threadIdx.y);
  gaussian_tile_rows(blockIdx.z ? in1 : in0, w, h, t, minmax, tile, bx, by, tx, ty);
  __syncthreads();
  gaussian_tile_cols(tile, blockIdx.z ? out1 : out0, w, h, t, bx, by, tx, ty);
}

/// zoom_out_pair_one_launch's kernel: block (blockIdx.x, blockIdx.y) makes a tile_x x tile_y
/// output tile with blockDim.x threads, blockIdx.z picks the plane; dynamic shared memory
/// holds the row-pass tile, then the smoothed footprint. Block index and plane pointers are
/// re-read where used rather than held across the phases: so written the kernel needs 32
/// registers on sm_90 (CUDA 13, -Xptxas -v), as the fixed 32 x 8 kernel before it, and 8 blocks
/// of 256 threads fit an SM (holding them took 34, i.e. 6 blocks; __launch_bounds__(1024, 2)
/// forced 32 with spills).
__global__ void zoom_out_one_kernel(const float* in0, const float* in1, int w, int h, float* out0,
                                    float* out1, int ow, int oh, GaussTaps t, double zoom,
                                    int tile_x, int tile_y) {
  ft::wait_previous_grid();
  extern __shared__ float smem[];
  const ZoomFootprint f =
      zoom_out_footprint(int(blockIdx.x), int(blockIdx.y), tile_x, tile_y, w, h, ow, oh, zoom);
  const int n_rows = (f.rows() + 2 * (t.radius - 1)) * f.cols(), n_smooth = f.rows() * f.cols();
  float* rows_tile = smem;
  float* smooth_tile = smem + n_rows;
  const int tid = int(threadIdx.x), nt = int(blockDim.x);
  for (int e = tid; e < n_rows; e += nt)
    zoom_tile_rows(blockIdx.z ? in1 : in0, w, h, t, f, rows_tile, e);
  __syncthreads();
  for (int e = tid; e < n_smooth; e += nt) zoom_tile_cols(rows_tile, h, t, f, smooth_tile, e);
  __syncthreads();
  for (int e = tid; e < tile_x * tile_y; e += nt)
    zoom_tile_sample(smooth_tile, f, w, h, blockIdx.z ? out1 : out0, ow, oh,
                     int(blockIdx.x) * tile_x + e % tile_x, int(blockIdx.y) * tile_y + e / tile_x,
                     zoom);
}

template <class S>
void warp_impl(const float* i0, const float4* i1g, int w, int h, const void* u, void* grad,
               void* rho_c, Exec exec, bool bilinear) {
  using T1 = typename S::T1;
  using T2 = typename S::T2;
  const T2* uu = static_cast<const T2*>(u);
  T2* g = static_cast<T2*>(grad);
  T1* r = static_cast<T1*>(rho_c);
  for_each_pixel(w, h, 1, exec, "warp", [=] __host__ __device__(int x, int y, int) {
    warp_px<S>(i0, i1g, w, h, uu, g, r, x, y, bilinear);
  });
}

template <class S>
void warp_level_impl(const float* i0, const float* i1, int w, int h, void* u, void* grad,
                     void* rho_c, void* p1, void* p2, const LevelStart& start, Exec exec,
                     bool bilinear) {
  using T1 = typename S::T1;
  using T2 = typename S::T2;
  T2* uu = static_cast<T2*>(u);
  T2* g = static_cast<T2*>(grad);
  T1* r = static_cast<T1*>(rho_c);
  T2* q1 = static_cast<T2*>(p1);
  T2* q2 = static_cast<T2*>(p2);
  const LevelStart st = start;
  for_each_pixel(w, h, 1, exec, "warp_level", [=] __host__ __device__(int x, int y, int) {
    warp_level_px<S>(i0, i1, w, h, uu, g, r, q1, q2, st, x, y, bilinear);
  });
}

template <class S>
void zoom_in_impl(const void* u_in, int w, int h, void* u_out, int ow, int oh, float factor,
                  Exec exec) {
  using T2 = typename S::T2;
  const T2* in = static_cast<const T2*>(u_in);
  T2* out = static_cast<T2*>(u_out);
  for_each_pixel(ow, oh, 1, exec, "zoom_in_flow", [=] __host__ __device__(int x, int y, int) {
    zoom_in_flow_px<S>(in, w, h, out, ow, oh, factor, x, y);
  });
}

template <class S>
void to_planar_impl(const void* u, int w, int h, float* out, Exec exec) {
  using T2 = typename S::T2;
  const T2* uu = static_cast<const T2*>(u);
  const std::size_t n = std::size_t(w) * h;
  for_each_pixel(w, h, 1, exec, "flow_to_planar", [=] __host__ __device__(int x, int y, int) {
    const std::size_t i = std::size_t(y) * w + x;
    const float2 v = load2(uu, i);
    out[i] = v.x;
    out[n + i] = v.y;
  });
}

template <class S>
void from_planar_impl(const float* in, std::size_t stride, int w, int h, float factor, void* u,
                      Exec exec) {
  using T2 = typename S::T2;
  T2* uu = static_cast<T2*>(u);
  for_each_pixel(w, h, 1, exec, "planar_to_flow", [=] __host__ __device__(int x, int y, int) {
    const std::size_t i = std::size_t(y) * w + x;
    store2(uu, i, make_float2(factor * in[i], factor * in[stride + i]));
  });
}

template <class S>
void plain_impl(const void* grad, const void* rho_c, void* u, void* p1, void* p2, int w, int h,
                int iterations, float tau, float lambda, float theta, Exec exec) {
  using T1 = typename S::T1;
  using T2 = typename S::T2;
  const T2* g = static_cast<const T2*>(grad);
  const T1* r = static_cast<const T1*>(rho_c);
  T2* uu = static_cast<T2*>(u);
  T2* q1 = static_cast<T2*>(p1);
  T2* q2 = static_cast<T2*>(p2);
  const float lt = lambda * theta, tt = tau / theta;
  for (int k = 0; k < iterations; ++k) {
    for_each_pixel(w, h, 1, exec, "plain_update_u", [=] __host__ __device__(int x, int y, int) {
      plain_update_u_px<S>(g, r, uu, q1, q2, w, h, lt, theta, x, y);
    });
    for_each_pixel(w, h, 1, exec, "plain_update_p", [=] __host__ __device__(int x, int y, int) {
      plain_update_p_px<S>(uu, q1, q2, w, h, tt, x, y);
    });
  }
}

}  // namespace

GaussTaps gaussian_taps(double sigma) {
  if (!(sigma > 0))
    throw std::invalid_argument("kernels/cuda/frame: Gaussian sigma must be > 0, got " +
                                std::to_string(sigma));
  const int radius = static_cast<int>(5.0 * sigma) + 1;
  if (radius > kMaxGaussTaps)
    throw std::invalid_argument("kernels/cuda/frame: Gaussian sigma " + std::to_string(sigma) +
                                " needs " + std::to_string(radius) + " taps, at most " +
                                std::to_string(kMaxGaussTaps) + " supported");
  double w[kMaxGaussTaps];
  double norm = 0;
  for (int i = 0; i < radius; ++i) {
    w[i] = std::exp(-double(i) * i / (2 * sigma * sigma));
    norm += (i == 0 ? 1 : 2) * w[i];
  }
  GaussTaps t;
  t.radius = radius;
  for (int i = 0; i < radius; ++i) t.w[i] = static_cast<float>(w[i] / norm);
  return t;
}

std::size_t minmax_scratch_floats() {
  return 2 * std::size_t(kMinmaxBlocks) + 1;  // the partials, then minmax_one_kernel's counter
}

void minmax_pair(const float* a, const float* b, std::size_t n, float* scratch, float* minmax,
                 Exec exec) {
  if (exec.on_host) {
    float l = FLT_MAX, m = -FLT_MAX;
    for (std::size_t i = 0; i < n; ++i) {
      l = std::fmin(l, std::fmin(a[i], b[i]));
      m = std::fmax(m, std::fmax(a[i], b[i]));
    }
    minmax[0] = l;
    minmax[1] = m;
    return;
  }
  const std::size_t want = (n + kMinmaxThreads - 1) / kMinmaxThreads;
  const int blocks = int(want < std::size_t(kMinmaxBlocks) ? (want > 0 ? want : 1) : kMinmaxBlocks);
  check(launch_kernel(minmax_partial_kernel, blocks, kMinmaxThreads, 0, exec, a, b, n, scratch),
        "minmax_partial");
  check(launch_kernel(minmax_final_kernel, 1, kMinmaxThreads, 0, exec, scratch, blocks, minmax),
        "minmax_final");
}

void minmax_pair_one_launch(const float* a, const float* b, std::size_t n, float* scratch,
                            float* minmax, Exec exec, float* copy_a, float* copy_b) {
  if (exec.on_host) {
    if (copy_a) {
      std::copy(a, a + n, copy_a);
      std::copy(b, b + n, copy_b);
    }
    minmax_pair(a, b, n, scratch, minmax, exec);
    return;
  }
  const std::size_t want = (n + kMinmaxThreads - 1) / kMinmaxThreads;
  const int blocks = int(want < std::size_t(kMinmaxBlocks) ? (want > 0 ? want : 1) : kMinmaxBlocks);
  unsigned* done = reinterpret_cast<unsigned*>(scratch + 2 * kMinmaxBlocks);
  check(launch_kernel(minmax_one_kernel, blocks, kMinmaxThreads, 0, exec, a, b, n, scratch, done,
                      minmax, copy_a, copy_b),
        "minmax_one");
}

void bytes_to_float_pair(const std::uint8_t* in, int w, int h, float* out, Exec exec) {
  const std::size_t n = std::size_t(w) * h;
  for_each_pixel(w, h, 2, exec, "bytes_to_float_pair",
                 [=] __host__ __device__(int x, int y, int z) {
                   const std::size_t i = std::size_t(z) * n + std::size_t(y) * w + x;
                   out[i] = float(in[i]);
                 });
}

void planar_to_interleaved_rows(const float* planar, int w, int h, float* out,
                                std::size_t out_pitch, Exec exec) {
  const std::size_t n = std::size_t(w) * h;
  char* rows = reinterpret_cast<char*>(out);
  for_each_pixel(w, h, 1, exec, "planar_to_interleaved_rows",
                 [=] __host__ __device__(int x, int y, int) {
                   float* row = reinterpret_cast<float*>(rows + std::size_t(y) * out_pitch);
                   const std::size_t i = std::size_t(y) * w + x;
                   row[2 * x] = planar[i];
                   row[2 * x + 1] = planar[n + i];
                 });
}

void gaussian_pair(const float* in0, const float* in1, float* tmp0, float* tmp1, float* out0,
                   float* out1, int w, int h, const GaussTaps& taps, const float* minmax,
                   Exec exec) {
  const GaussTaps t = taps;
  for_each_pixel(w, h, 2, exec, "gaussian_rows", [=] __host__ __device__(int x, int y, int z) {
    const float2 norm = minmax ? normalisation_of(minmax) : make_float2(0.f, 1.f);
    (z ? tmp1 : tmp0)[std::size_t(y) * w + x] = gaussian_row_px(z ? in1 : in0, w, x, y, t, norm);
  });
  for_each_pixel(w, h, 2, exec, "gaussian_cols", [=] __host__ __device__(int x, int y, int z) {
    (z ? out1 : out0)[std::size_t(y) * w + x] = gaussian_col_px(z ? tmp1 : tmp0, w, h, x, y, t);
  });
}

void gaussian_pair_one_launch(const float* in0, const float* in1, float* out0, float* out1, int w,
                              int h, const GaussTaps& taps, const float* minmax, Exec exec) {
  if (w <= 0 || h <= 0) return;
  const int gx = (w + kGaussBlockX - 1) / kGaussBlockX, gy = (h + kGaussBlockY - 1) / kGaussBlockY;
  if (exec.on_host) {  // the kernel's two phases, block after block
    std::vector<float> tile(std::size_t(kGaussTileRows) * kGaussBlockX);
    for (int z = 0; z < 2; ++z)
      for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx) {
          for (int ty = 0; ty < kGaussBlockY; ++ty)
            for (int tx = 0; tx < kGaussBlockX; ++tx)
              gaussian_tile_rows(z ? in1 : in0, w, h, taps, minmax, tile.data(), bx, by, tx, ty);
          for (int ty = 0; ty < kGaussBlockY; ++ty)
            for (int tx = 0; tx < kGaussBlockX; ++tx)
              gaussian_tile_cols(tile.data(), z ? out1 : out0, w, h, taps, bx, by, tx, ty);
        }
    return;
  }
  const dim3 block(kGaussBlockX, kGaussBlockY), grid(unsigned(gx), unsigned(gy), 2u);
  check(launch_kernel(gaussian_one_kernel, grid, block, 0, exec, in0, in1, out0, out1, w, h, taps,
                      minmax),
        "gaussian_one");
}

void zoom_out_sample_pair(const float* in0, const float* in1, int w, int h, float* out0,
                          float* out1, int ow, int oh, double zoom, Exec exec) {
  for_each_pixel(ow, oh, 2, exec, "zoom_out_sample", [=] __host__ __device__(int x, int y, int z) {
    (z ? out1 : out0)[std::size_t(y) * ow + x] = zoom_out_px(z ? in1 : in0, w, h, x, y, zoom);
  });
}

void check_zoom_schedule(const ZoomSchedule& s) {
  const auto bad = [](const std::string& what) {
    throw std::invalid_argument("kernels/cuda/frame: zoom_out schedule: " + what);
  };
  if (s.tile_x < 1 || s.tile_y < 1)
    bad("tile " + std::to_string(s.tile_x) + " x " + std::to_string(s.tile_y) +
        " must be at least 1 x 1");
  if (long(s.tile_x) * s.tile_y > 65536)
    bad("tile " + std::to_string(s.tile_x) + " x " + std::to_string(s.tile_y) +
        " has more than 65536 outputs");
  if (s.threads < 32 || s.threads > 1024 || s.threads % 32 != 0)
    bad("threads " + std::to_string(s.threads) + " must be a multiple of 32 in [32, 1024]");
}

ZoomLaunch zoom_out_launch(int w, int h, int ow, int oh, const GaussTaps& taps, double zoom,
                           const ZoomSchedule& schedule, bool query_occupancy) {
  check_zoom_schedule(schedule);
  ZoomLaunch l;
  if (ow <= 0 || oh <= 0) return l;
  const int tx = schedule.tile_x, ty = schedule.tile_y;
  l.grid_x = (ow + tx - 1) / tx;
  l.grid_y = (oh + ty - 1) / ty;
  // The largest footprint over the blocks (columns depend on bx only, rows on by only).
  int cols = 0, rows = 0;
  for (int bx = 0; bx < l.grid_x; ++bx)
    cols = std::max(cols, zoom_out_footprint(bx, 0, tx, ty, w, h, ow, oh, zoom).cols());
  for (int by = 0; by < l.grid_y; ++by)
    rows = std::max(rows, zoom_out_footprint(0, by, tx, ty, w, h, ow, oh, zoom).rows());
  l.smem_bytes = sizeof(float) * (std::size_t(rows + 2 * (taps.radius - 1)) * std::size_t(cols) +
                                  std::size_t(rows) * cols);
  if (query_occupancy)
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&l.blocks_per_sm, zoom_out_one_kernel,
                                                        schedule.threads, l.smem_bytes),
          "zoom_out_one occupancy");
  return l;
}

bool zoom_out_pair_one_launch(const float* in0, const float* in1, int w, int h, float* out0,
                              float* out1, int ow, int oh, const GaussTaps& taps, double zoom,
                              Exec exec, const ZoomSchedule& schedule) {
  const ZoomLaunch l = zoom_out_launch(w, h, ow, oh, taps, zoom, schedule, false);
  if (ow <= 0 || oh <= 0) return true;
  if (l.smem_bytes > 48 * 1024) return false;
  const int tx = schedule.tile_x, ty = schedule.tile_y, gx = l.grid_x, gy = l.grid_y;
  const std::size_t floats = l.smem_bytes / sizeof(float);
  if (exec.on_host) {  // the kernel's three phases, block after block
    std::vector<float> smem(floats);
    for (int z = 0; z < 2; ++z)
      for (int by = 0; by < gy; ++by)
        for (int bx = 0; bx < gx; ++bx) {
          const ZoomFootprint f = zoom_out_footprint(bx, by, tx, ty, w, h, ow, oh, zoom);
          const int n_rows = (f.rows() + 2 * (taps.radius - 1)) * f.cols();
          float* rows_tile = smem.data();
          float* smooth_tile = smem.data() + n_rows;
          for (int e = 0; e < n_rows; ++e)
            zoom_tile_rows(z ? in1 : in0, w, h, taps, f, rows_tile, e);
          for (int e = 0; e < f.rows() * f.cols(); ++e)
            zoom_tile_cols(rows_tile, h, taps, f, smooth_tile, e);
          for (int e = 0; e < tx * ty; ++e)
            zoom_tile_sample(smooth_tile, f, w, h, z ? out1 : out0, ow, oh, bx * tx + e % tx,
                             by * ty + e / tx, zoom);
        }
    return true;
  }
  const dim3 block(unsigned(schedule.threads)), grid(unsigned(gx), unsigned(gy), 2u);
  check(launch_kernel(zoom_out_one_kernel, grid, block, floats * sizeof(float), exec, in0, in1, w,
                      h, out0, out1, ow, oh, taps, zoom, tx, ty),
        "zoom_out_one");
  return true;
}

void packed_gradient(const float* i1, int w, int h, float4* i1g, Exec exec) {
  for_each_pixel(w, h, 1, exec, "packed_gradient", [=] __host__ __device__(int x, int y, int) {
    i1g[std::size_t(y) * w + x] = packed_gradient_px(i1, w, h, x, y);
  });
}

void warp(bool f16, const float* i0, const float4* i1g, int w, int h, const void* u, void* grad,
          void* rho_c, Exec exec, WarpingInterp interp) {
  const bool bilinear = interp == WarpingInterp::bilinear;
  if (f16)
    warp_impl<StorageF16>(i0, i1g, w, h, u, grad, rho_c, exec, bilinear);
  else
    warp_impl<StorageF32>(i0, i1g, w, h, u, grad, rho_c, exec, bilinear);
}

void warp_level(bool f16, const float* i0, const float* i1, int w, int h, void* u, void* grad,
                void* rho_c, void* p1, void* p2, const LevelStart& start, Exec exec,
                WarpingInterp interp) {
  const bool bilinear = interp == WarpingInterp::bilinear;
  if (f16)
    warp_level_impl<StorageF16>(i0, i1, w, h, u, grad, rho_c, p1, p2, start, exec, bilinear);
  else
    warp_level_impl<StorageF32>(i0, i1, w, h, u, grad, rho_c, p1, p2, start, exec, bilinear);
}

void zoom_in_flow(bool f16, const void* u_in, int w, int h, void* u_out, int ow, int oh,
                  float factor, Exec exec) {
  if (f16)
    zoom_in_impl<StorageF16>(u_in, w, h, u_out, ow, oh, factor, exec);
  else
    zoom_in_impl<StorageF32>(u_in, w, h, u_out, ow, oh, factor, exec);
}

void flow_to_planar(bool f16, const void* u, int w, int h, float* out, Exec exec) {
  if (f16)
    to_planar_impl<StorageF16>(u, w, h, out, exec);
  else
    to_planar_impl<StorageF32>(u, w, h, out, exec);
}

void planar_to_flow(bool f16, const float* in, std::size_t stride, int w, int h, float factor,
                    void* u, Exec exec) {
  if (f16)
    from_planar_impl<StorageF16>(in, stride, w, h, factor, u, exec);
  else
    from_planar_impl<StorageF32>(in, stride, w, h, factor, u, exec);
}

void plain_iterations(bool f16, const void* grad, const void* rho_c, void* u, void* p1, void* p2,
                      int w, int h, int iterations, float tau, float lambda, float theta,
                      Exec exec) {
  if (f16)
    plain_impl<StorageF16>(grad, rho_c, u, p1, p2, w, h, iterations, tau, lambda, theta, exec);
  else
    plain_impl<StorageF32>(grad, rho_c, u, p1, p2, w, h, iterations, tau, lambda, theta, exec);
}

}  // namespace flowtune::cuda::frame
