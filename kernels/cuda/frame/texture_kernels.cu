// Kernels and host emulation of texture_kernels.hpp: one thread per pixel and frame (z), or,
// temporally blocked, one 64 x 8 block per 64 x 64 region and frame (8 rows per thread).
#include <algorithm>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/frame/frame_launch.cuh"
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

/// The joint normalisation of one value (normalisation_of's (lo, scale)).
FT_HD float normalised_value(float v, float2 norm) {
  return rof_mul(v - norm.x, norm.y);  // never fused with a later add (structure_texture.hpp)
}

template <class F>
__global__ void texture_pixel_kernel(int w, int h, F f) {
  ft::wait_previous_grid();
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
  check(launch_kernel(texture_pixel_kernel<F>, grid, block, 0, exec, w, h, f), what);
}

// ---- Temporally blocked ROF --------------------------------------------------------------

constexpr int kRofThreadsY = 8;                      ///< block: kRofRegion x 8 threads
constexpr int kRofRows = kRofRegion / kRofThreadsY;  ///< region rows per thread
constexpr int kRofCells = kRofRegion * kRofRegion;
/// Resident blocks per SM the kernel is compiled for (at most 40 registers per thread): 3 x
/// 48 KiB of shared memory, 3 x 512 threads.
constexpr int kRofBlocksPerSm = 3;

/// One block's region in shared memory (row-major, kRofRegion wide).
struct RofTile {
  float p1[kRofCells], p2[kRofCells], v[kRofCells];
};

/// One launch of the blocked ROF: k iterations on regions of kRofRegion^2 pixels whose output
/// tiles (out_w x out_h, at halo_lo from the region's top-left) partition the frame.
struct RofLaunch {
  const float* in0;  ///< frames read by the first launch (raw: normalised here)
  const float* in1;
  float* fn;          ///< 2 w h: the normalised frames (written by the first launch)
  const float* p_in;  ///< 4 w h: p1, p2 of frame 0, then of frame 1; null: p = 0
  float* p_out;       ///< where the interior's p goes (unless the texture is written)
  float* out0;        ///< texture of frame 0, 1 (written when texture is true)
  float* out1;
  const float* minmax;  ///< joint (min, max), read by the first launch
  int w, h, k, halo_lo, out_w, out_h;
  bool first, texture;
  float inv_theta, tau, theta, alpha;
};

/// One cell of a block's region: its place in the region (lx, ly) and in the frame (x, y).
struct RofCell {
  int lx, ly, x, y;
};

FT_HD RofCell rof_cell(const RofLaunch& a, int bx, int by, int lx, int ly) {
  return {lx, ly, bx * a.out_w - a.halo_lo + lx, by * a.out_h - a.halo_lo + ly};
}

FT_HD bool rof_in_frame(const RofLaunch& a, const RofCell& c) {
  return c.x >= 0 && c.x < a.w && c.y >= 0 && c.y < a.h;
}

/// Whether cell c is in the block's output tile (and the frame).
FT_HD bool rof_in_output(const RofLaunch& a, const RofCell& c) {
  return c.lx >= a.halo_lo && c.lx < a.halo_lo + a.out_w && c.ly >= a.halo_lo &&
         c.ly < a.halo_lo + a.out_h && c.x < a.w && c.y < a.h;
}

/// Loads cell c's p (or 0 before the first iteration) into the tile and returns its f / theta;
/// the first launch normalises the raw frame and writes the output tile's normalised values
/// to a.fn. Cells outside the frame hold 0 and are never read by a cell inside (the boundary
/// terms below are chosen by frame coordinates).
FT_HD float rof_load(RofTile& t, const RofLaunch& a, int z, const RofCell& c) {
  float f = 0.f, p1 = 0.f, p2 = 0.f;
  if (rof_in_frame(a, c)) {
    const std::size_t n = std::size_t(a.w) * a.h, i = std::size_t(c.y) * a.w + c.x;
    if (a.first) {
      f = normalised_value((z ? a.in1 : a.in0)[i], normalisation_of(a.minmax));
      if (rof_in_output(a, c)) a.fn[std::size_t(z) * n + i] = f;
    } else {
      f = a.fn[std::size_t(z) * n + i];
    }
    if (a.p_in) {
      p1 = a.p_in[std::size_t(z) * 2 * n + i];
      p2 = a.p_in[std::size_t(z) * 2 * n + n + i];
    }
  }
  const int k = c.ly * kRofRegion + c.lx;
  t.p1[k] = p1;
  t.p2[k] = p2;
  return rof_f_over_theta(f, a.inv_theta);
}

/// div p at cell c (p1 west, p2 north taken as 0 at the frame's left / top edge, and at the
/// region's, where the halo absorbs the error).
FT_HD float rof_tile_div(const RofTile& t, const RofCell& c) {
  const int k = c.ly * kRofRegion + c.lx;
  const float west = c.x > 0 && c.lx > 0 ? t.p1[k - 1] : 0.f;
  const float north = c.y > 0 && c.ly > 0 ? t.p2[k - kRofRegion] : 0.f;
  return rof_div_value(t.p1[k], west, t.p2[k], north);
}

/// Step 1 at cell c: v = div p - f / theta.
FT_HD void rof_tile_v(RofTile& t, const RofCell& c, float f_over_theta) {
  t.v[c.ly * kRofRegion + c.lx] = rof_v_value(rof_tile_div(t, c), f_over_theta);
}

/// Step 2 at cell c: p from the forward differences of v (0 at the frame's last column /
/// row, and at the region's).
FT_HD void rof_tile_p(RofTile& t, const RofLaunch& a, const RofCell& c) {
  const int k = c.ly * kRofRegion + c.lx;
  const float gx = c.x < a.w - 1 && c.lx < kRofRegion - 1 ? t.v[k + 1] - t.v[k] : 0.f;
  const float gy = c.y < a.h - 1 && c.ly < kRofRegion - 1 ? t.v[k + kRofRegion] - t.v[k] : 0.f;
  float p1 = t.p1[k], p2 = t.p2[k];
  rof_p_value(p1, p2, gx, gy, a.tau);
  t.p1[k] = p1;
  t.p2[k] = p2;
}

/// Rows of the region whose v (p) iteration j = it + 1 still needs: [j, kRofRegion - j]
/// ([j, kRofRegion - 1 - j]); the p of the rows outside cannot reach the output tile any more
/// (one row per iteration), so skipping them changes no output value.
FT_HD bool rof_v_row_needed(int ly, int it) {
  return ly >= it + 1 && ly <= kRofRegion - 1 - it;
}
FT_HD bool rof_p_row_needed(int ly, int it) {
  return ly >= it + 1 && ly <= kRofRegion - 2 - it;
}

/// Writes cell c back if it is in the block's output tile: p, or at the last launch the
/// texture (f reloaded from a.fn, which the first launch wrote).
FT_HD void rof_store(const RofTile& t, const RofLaunch& a, int z, const RofCell& c) {
  if (!rof_in_output(a, c)) return;
  const std::size_t n = std::size_t(a.w) * a.h, i = std::size_t(c.y) * a.w + c.x;
  if (a.texture) {
    const float f = a.fn[std::size_t(z) * n + i];
    (z ? a.out1 : a.out0)[i] = texture_value(f, rof_tile_div(t, c), a.theta, a.alpha);
  } else {
    const int k = c.ly * kRofRegion + c.lx;
    a.p_out[std::size_t(z) * 2 * n + i] = t.p1[k];
    a.p_out[std::size_t(z) * 2 * n + n + i] = t.p2[k];
  }
}

__global__ void __launch_bounds__(kRofRegion* kRofThreadsY, kRofBlocksPerSm)
    rof_blocked_kernel(const RofLaunch a) {
  ft::wait_previous_grid();
  __shared__ RofTile t;
  const int bx = int(blockIdx.x), by = int(blockIdx.y), z = int(blockIdx.z);
  const int lx = int(threadIdx.x), ly0 = int(threadIdx.y);
  float fs[kRofRows];  // f / theta of the thread's cells (rows ly0 + r kRofThreadsY)
#pragma unroll
  for (int r = 0; r < kRofRows; ++r)
    fs[r] = rof_load(t, a, z, rof_cell(a, bx, by, lx, ly0 + r * kRofThreadsY));
  __syncthreads();
  for (int it = 0; it < a.k; ++it) {
#pragma unroll
    for (int r = 0; r < kRofRows; ++r) {
      const int ly = ly0 + r * kRofThreadsY;
      if (rof_v_row_needed(ly, it)) rof_tile_v(t, rof_cell(a, bx, by, lx, ly), fs[r]);
    }
    __syncthreads();
#pragma unroll
    for (int r = 0; r < kRofRows; ++r) {
      const int ly = ly0 + r * kRofThreadsY;
      if (rof_p_row_needed(ly, it)) rof_tile_p(t, a, rof_cell(a, bx, by, lx, ly));
    }
    __syncthreads();
  }
#pragma unroll
  for (int r = 0; r < kRofRows; ++r)
    rof_store(t, a, z, rof_cell(a, bx, by, lx, ly0 + r * kRofThreadsY));
}

/// Runs one blocked launch: on the device, or block after block and phase after phase on
/// the host (the phases only read what the previous one wrote, so any cell order is exact).
void rof_blocked_launch(const RofLaunch& a, Exec exec) {
  const unsigned gx = unsigned((a.w + a.out_w - 1) / a.out_w);
  const unsigned gy = unsigned((a.h + a.out_h - 1) / a.out_h);
  if (!exec.on_host) {
    check(launch_kernel(rof_blocked_kernel, dim3(gx, gy, 2u), dim3(kRofRegion, kRofThreadsY), 0,
                        exec, a),
          "rof_blocked");
    return;
  }
  auto t = std::make_unique<RofTile>();
  std::vector<float> fs(kRofCells);
  for (int z = 0; z < 2; ++z)
    for (int by = 0; by < int(gy); ++by)
      for (int bx = 0; bx < int(gx); ++bx) {
        auto cell = [&](int k) { return rof_cell(a, bx, by, k % kRofRegion, k / kRofRegion); };
        for (int k = 0; k < kRofCells; ++k) fs[std::size_t(k)] = rof_load(*t, a, z, cell(k));
        for (int it = 0; it < a.k; ++it) {
          for (int k = 0; k < kRofCells; ++k)
            if (rof_v_row_needed(k / kRofRegion, it)) rof_tile_v(*t, cell(k), fs[std::size_t(k)]);
          for (int k = 0; k < kRofCells; ++k)
            if (rof_p_row_needed(k / kRofRegion, it)) rof_tile_p(*t, a, cell(k));
        }
        for (int k = 0; k < kRofCells; ++k) rof_store(*t, a, z, cell(k));
      }
}

/// The per-iteration path (iterations_per_launch = 1): p in scratch[0, 4n), v after it.
void structure_texture_per_iteration(float* f0, float* f1, int w, int h, float* scratch,
                                     const float* minmax, float alpha, float theta, int iterations,
                                     Exec exec) {
  const std::size_t n = std::size_t(w) * h;
  float* p = scratch;
  float* v = scratch + 4 * n;
  if (exec.on_host)
    std::memset(p, 0, 4 * n * sizeof(float));
  else
    check(cudaMemsetAsync(p, 0, 4 * n * sizeof(float), exec.stream), "cudaMemsetAsync");
  each_pixel(w, h, exec, "texture_normalise", [=] __host__ __device__(int x, int y, int z) {
    float* f = z ? f1 : f0;
    const std::size_t i = std::size_t(y) * w + x;
    f[i] = normalised_value(f[i], normalisation_of(minmax));
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

}  // namespace

std::size_t structure_texture_scratch_floats(int w, int h, int iterations_per_launch) {
  if (iterations_per_launch < 1 || iterations_per_launch > kMaxRofIterationsPerLaunch)
    throw std::invalid_argument(
        "kernels/cuda/frame/texture_kernels: rof_iterations_per_launch must be in [1, " +
        std::to_string(kMaxRofIterationsPerLaunch) + "], got " +
        std::to_string(iterations_per_launch));
  const std::size_t n = std::size_t(w > 0 ? w : 0) * std::size_t(h > 0 ? h : 0);
  return (iterations_per_launch == 1 ? 6 : 10) * n;
}

void structure_texture_pair(float* f0, float* f1, int w, int h, float* scratch, const float* minmax,
                            float alpha, float theta, int iterations, int iterations_per_launch,
                            Exec exec) {
  structure_texture_scratch_floats(w, h, iterations_per_launch);  // checks the range
  if (w <= 0 || h <= 0) return;
  if (iterations_per_launch == 1 || iterations <= 0) {
    structure_texture_per_iteration(f0, f1, w, h, scratch, minmax, alpha, theta, iterations, exec);
    return;
  }
  const std::size_t n = std::size_t(w) * h;
  float* p[2] = {scratch, scratch + 4 * n};
  float* fn = scratch + 8 * n;
  const int launches = (iterations + iterations_per_launch - 1) / iterations_per_launch;
  RofLaunch a{};
  a.in0 = f0;
  a.in1 = f1;
  a.fn = fn;
  a.out0 = f0;
  a.out1 = f1;
  a.minmax = minmax;
  a.w = w;
  a.h = h;
  a.inv_theta = 1.f / theta;
  a.tau = float(kRofTau);
  a.theta = theta;
  a.alpha = alpha;
  for (int j = 0; j < launches; ++j) {
    a.k = std::min(iterations_per_launch, iterations - j * iterations_per_launch);
    a.first = j == 0;
    // The texture is folded into the last launch unless that is also the first, which reads
    // the raw frames that the texture overwrites (other blocks' halos would see it).
    a.texture = j == launches - 1 && launches > 1;
    a.halo_lo = a.k + (a.texture ? 1 : 0);
    a.out_w = a.out_h = kRofRegion - a.halo_lo - a.k;
    a.p_in = a.first ? nullptr : p[j % 2];
    a.p_out = p[(j + 1) % 2];
    rof_blocked_launch(a, exec);
  }
  if (launches == 1) {  // the texture from the normalised frames fn and p
    const float* pz0 = p[1];
    each_pixel(w, h, exec, "texture", [=] __host__ __device__(int x, int y, int z) {
      const float* pz = pz0 + std::size_t(z) * 2 * n;
      const float* fz = fn + std::size_t(z) * n;
      (z ? f1 : f0)[std::size_t(y) * w + x] = texture_px(fz, pz, pz + n, w, x, y, theta, alpha);
    });
  }
}

}  // namespace flowtune::cuda::frame
