#include "kernels/simd/tvl1_simd.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "kernels/cancellation.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"

namespace flowtune {
namespace {

using simd_tvl1::PRow;
using simd_tvl1::URow;

[[noreturn]] void fail(const std::string& problem) {
  throw std::invalid_argument("tvl1_iterate_simd (kernels/simd/tvl1_simd.cpp): " + problem);
}

/// The nine fields in the storage type S, row-major width x height.
template <typename S>
struct Fields {
  const S *grad_x, *grad_y, *rho_c;
  S *u1, *u2, *p11, *p12, *p21, *p22;
  /// binary16 arithmetic (precision f16: update_u_row_f16 / update_p_row_f16); binary16 S only.
  bool f16_math = false;
};

/// A width x height window of the nine fields: grad_x, grad_y, rho_c with row stride
/// in_stride, u and p with row stride stride (the whole image, or a tile's copy).
template <typename S>
struct View {
  const S *grad_x, *grad_y, *rho_c;
  std::size_t in_stride;
  S *u1, *u2, *p11, *p12, *p21, *p22;
  std::size_t stride;
  int width, height;
};

/// The per-iteration constants of the row kernels, and which rows run (f16_math: binary16
/// arithmetic).
struct Constants {
  float lambda_theta, theta, tau_theta;
  bool f16_math;
  std::int64_t target;  ///< SimdSchedule::simd_target
  Constants(const Tvl1Params& p, bool f16, std::int64_t simd_target)
      : lambda_theta(static_cast<float>(p.lambda * p.theta)),
        theta(static_cast<float>(p.theta)),
        tau_theta(static_cast<float>(p.tau / p.theta)),
        f16_math(f16),
        target(simd_target) {}
};

/// "update u" on row y of v; returns the change over columns [begin, end) when track.
template <typename S>
double update_u(const View<S>& v, const Constants& c, int y, bool track, int begin, int end) {
  const std::size_t i = std::size_t(y) * v.in_stride, o = std::size_t(y) * v.stride;
  const URow<S> r{v.grad_x + i,
                  v.grad_y + i,
                  v.rho_c + i,
                  v.u1 + o,
                  v.u2 + o,
                  v.p11 + o,
                  v.p12 + o,
                  v.p21 + o,
                  v.p22 + o,
                  y > 0 ? v.p12 + o - v.stride : nullptr,
                  y > 0 ? v.p22 + o - v.stride : nullptr,
                  v.width,
                  c.lambda_theta,
                  c.theta,
                  track,
                  begin,
                  end};
  if constexpr (std::is_same_v<S, hwy::float16_t>)
    if (c.f16_math) return simd_tvl1::update_u_row_f16(r, c.target);
  return simd_tvl1::update_u_row(r, c.target);
}

/// "update p" on row y of v (forward gradient 0 below its last row).
template <typename S>
void update_p(const View<S>& v, const Constants& c, int y) {
  const std::size_t o = std::size_t(y) * v.stride;
  const bool below = y + 1 < v.height;
  const PRow<S> r{v.u1 + o,
                  v.u2 + o,
                  below ? v.u1 + o + v.stride : nullptr,
                  below ? v.u2 + o + v.stride : nullptr,
                  v.p11 + o,
                  v.p12 + o,
                  v.p21 + o,
                  v.p22 + o,
                  v.width,
                  c.tau_theta};
  if constexpr (std::is_same_v<S, hwy::float16_t>) {
    if (c.f16_math) {
      simd_tvl1::update_p_row_f16(r, c.target);
      return;
    }
  }
  simd_tvl1::update_p_row(r, c.target);
}

/// The iteration loop over fields f, one band sweep per iteration (see tvl1_iterate_simd).
template <typename S>
int iterate_bands(const Fields<S>& f, int width, int height, const Tvl1Params& p, int iterations,
                  SimdSchedule schedule) {
  const std::size_t row = std::size_t(width);
  const int n_bands = (height + schedule.band_rows - 1) / schedule.band_rows;
  const Constants c(p, f.f16_math, schedule.simd_target);
  const bool use_epsilon = p.epsilon > 0.0;
  const double stop_below = p.epsilon * p.epsilon;
  const double n_pixels = double(width) * double(height);
  const int every = std::max(1, p.epsilon_check_every);
  const View<S> v{f.grad_x, f.grad_y, f.rho_c, row, f.u1,  f.u2,  f.p11,
                  f.p12,    f.p21,    f.p22,   row, width, height};

  // Per-band sums of |u_new - u_old|^2, added in band order: the stopping decision does not
  // depend on the number of threads.
  std::vector<double> band_change(std::size_t(n_bands), 0.0);
  int done = 0;
  bool stop = false, cancelled = false;
#pragma omp parallel num_threads(schedule.threads)
  {
    for (int k = 0; k < iterations && !stop; ++k) {
      const bool check = use_epsilon && (k + 1) % every == 0;
      // Phase 1: per band, "update u" on row y then "update p" on row y - 1.
#pragma omp for schedule(static)
      for (int b = 0; b < n_bands; ++b) {
        const int y0 = b * schedule.band_rows;
        const int y1 = std::min(height, y0 + schedule.band_rows);
        double change = 0.0;
        for (int y = y0; y < y1; ++y) {
          change += update_u(v, c, y, check, 0, width);
          if (y > y0) update_p(v, c, y - 1);
        }
        band_change[std::size_t(b)] = change;
      }
      // Phase 2: each band's last row, whose "update p" needs the next band's new u.
#pragma omp for schedule(static)
      for (int b = 0; b < n_bands; ++b)
        update_p(v, c, std::min(height, (b + 1) * schedule.band_rows) - 1);
#pragma omp single
      {
        done = k + 1;
        if (cancellation_requested().load(std::memory_order_relaxed)) {
          cancelled = true;
          stop = true;
        } else if (check) {
          double total = 0.0;
          for (const double ch : band_change) total += ch;
          stop = total / n_pixels <= stop_below;
        }
      }  // implicit barrier: every thread sees the same `stop`
    }
  }
  if (cancelled) throw Cancelled();
  return done;
}

/// Storage of the second set of u and p fields of the temporal blocking, kept per calling
/// thread between calls (grown, never shrunk; not initialised: every pass writes it whole).
template <typename S>
S* tile_workspace(std::size_t n) {
  static thread_local std::unique_ptr<S[]> data;
  static thread_local std::size_t size = 0;
  if (size < n) {
    data.reset(new S[n]);
    size = n;
  }
  return data.get();
}

/// The iteration loop with temporal blocking (schedule.temporal_depth > 1; see
/// tvl1_iterate_simd).
template <typename S>
int iterate_tiles(const Fields<S>& f, int width, int height, const Tvl1Params& p, int iterations,
                  SimdSchedule schedule) {
  const std::size_t row = std::size_t(width), n = row * std::size_t(height);
  const int depth = schedule.temporal_depth;
  const int tile_rows = std::min(schedule.band_rows, height);
  const int tile_cols = schedule.tile_cols == 0 ? width : std::min(schedule.tile_cols, width);
  const int tiles_y = (height + tile_rows - 1) / tile_rows;
  const int tiles_x = (width + tile_cols - 1) / tile_cols;
  const int n_tiles = tiles_y * tiles_x;
  const std::size_t local_n = std::size_t(std::min(height, tile_rows + 2 * depth)) *
                              std::size_t(std::min(width, tile_cols + 2 * depth));
  const Constants c(p, f.f16_math, schedule.simd_target);
  const bool use_epsilon = p.epsilon > 0.0;
  const double stop_below = p.epsilon * p.epsilon;
  const double n_pixels = double(n);
  const int every = std::max(1, p.epsilon_check_every);
  // Iteration j of the current pass is checked by the stopping rule (the done + j + 1-th).
  auto checked = [&](int done_before, int j) {
    return use_epsilon && (done_before + j + 1) % every == 0;
  };

  S* const work = tile_workspace<S>(6 * n);
  S* src[6] = {f.u1, f.u2, f.p11, f.p12, f.p21, f.p22};
  S* dst[6] = {work, work + n, work + 2 * n, work + 3 * n, work + 4 * n, work + 5 * n};
  // change[t * depth + j]: tile t's interior sum of |u_new - u_old|^2 in the pass's
  // iteration j; added in tile order (independent of the threads).
  std::vector<double> change(std::size_t(n_tiles) * std::size_t(depth), 0.0);
  int done = 0;
  int pass = std::min(depth, iterations);  // iterations of the current pass; 0 = finished
  bool cancelled = false;

  // One tile: copy with halo `d` from src, d fused iterations on the copy, tile to dst.
  auto run_tile = [&](int t, int d, std::vector<S>& local) {
    const int ty0 = (t / tiles_x) * tile_rows, ty1 = std::min(height, ty0 + tile_rows);
    const int tx0 = (t % tiles_x) * tile_cols, tx1 = std::min(width, tx0 + tile_cols);
    const int ey0 = std::max(0, ty0 - d), ey1 = std::min(height, ty1 + d);
    const int ex0 = std::max(0, tx0 - d), ex1 = std::min(width, tx1 + d);
    const std::size_t eh = std::size_t(ey1 - ey0), ew = std::size_t(ex1 - ex0);
    S* plane[6];
    for (int k = 0; k < 6; ++k) plane[k] = local.data() + std::size_t(k) * local_n;
    for (int k = 0; k < 6; ++k)
      for (std::size_t y = 0; y < eh; ++y)
        std::memcpy(plane[k] + y * ew, src[k] + (std::size_t(ey0) + y) * row + std::size_t(ex0),
                    ew * sizeof(S));
    const std::size_t in = std::size_t(ey0) * row + std::size_t(ex0);
    const View<S> v{f.grad_x + in, f.grad_y + in, f.rho_c + in, row, plane[0], plane[1], plane[2],
                    plane[3],      plane[4],      plane[5],     ew,  int(ew),  int(eh)};
    for (int j = 0; j < d; ++j) {
      const bool check = checked(done, j);
      double sum = 0.0;
      for (int y = 0; y < int(eh); ++y) {
        const bool interior = ey0 + y >= ty0 && ey0 + y < ty1;
        sum += update_u(v, c, y, check && interior, tx0 - ex0, tx1 - ex0);
        if (y > 0) update_p(v, c, y - 1);
      }
      update_p(v, c, int(eh) - 1);
      change[std::size_t(t) * std::size_t(depth) + std::size_t(j)] = sum;
    }
    for (int k = 0; k < 6; ++k)
      for (int y = ty0; y < ty1; ++y)
        std::memcpy(dst[k] + std::size_t(y) * row + std::size_t(tx0),
                    plane[k] + std::size_t(y - ey0) * ew + std::size_t(tx0 - ex0),
                    std::size_t(tx1 - tx0) * sizeof(S));
  };

#pragma omp parallel num_threads(schedule.threads)
  {
    std::vector<S> local(6 * local_n);
    while (pass > 0) {
#pragma omp for schedule(static)
      for (int t = 0; t < n_tiles; ++t) run_tile(t, pass, local);
#pragma omp single
      {
        // The first iteration of the pass that meets the stopping rule, else the last.
        int stop_at = -1;
        if (use_epsilon)
          for (int j = 0; j < pass && stop_at < 0; ++j) {
            if (!checked(done, j)) continue;
            double total = 0.0;
            for (int t = 0; t < n_tiles; ++t)
              total += change[std::size_t(t) * std::size_t(depth) + std::size_t(j)];
            if (total / n_pixels <= stop_below) stop_at = j;
          }
        if (stop_at >= 0 && stop_at + 1 < pass) {
          pass = stop_at + 1;  // src is intact: run the pass again, to the stop
        } else {
          done += pass;
          std::swap(src, dst);
          if (cancellation_requested().load(std::memory_order_relaxed)) cancelled = true;
          pass = (stop_at >= 0 || cancelled) ? 0 : std::min(depth, iterations - done);
        }
      }  // implicit barrier: every thread sees the same `pass` and `src`
    }
    // The result is in the workspace after an odd number of passes: copy it back.
    if (src[0] != f.u1) {
      S* const out[6] = {f.u1, f.u2, f.p11, f.p12, f.p21, f.p22};
#pragma omp for schedule(static)
      for (int y = 0; y < height; ++y)
        for (int k = 0; k < 6; ++k)
          std::memcpy(out[k] + std::size_t(y) * row, src[k] + std::size_t(y) * row,
                      row * sizeof(S));
    }
  }
  if (cancelled) throw Cancelled();
  return done;
}

/// The band sweep or the temporal blocking, as schedule asks.
template <typename S>
int iterate(const Fields<S>& f, int width, int height, const Tvl1Params& p, int iterations,
            SimdSchedule schedule) {
  if (schedule.temporal_depth > 1 && iterations > 0)
    return iterate_tiles(f, width, height, p, iterations, schedule);
  return iterate_bands(f, width, height, p, iterations, schedule);
}

std::vector<hwy::float16_t> to_binary16(const std::vector<float>& v, std::int64_t target) {
  std::vector<hwy::float16_t> out(v.size());
  simd_tvl1::to_binary16(v.data(), out.data(), v.size(), target);
  return out;
}

void check_shapes(const WarpingData<float>& w, const Tvl1State<float>& s) {
  if (auto why = warping_shape_problem(w, s)) fail(*why);
}

void check_run(const Tvl1Params& p, int iterations, SimdSchedule schedule) {
  if (iterations < 0) fail("iterations " + std::to_string(iterations) + " < 0");
  if (schedule.threads < 1 || schedule.band_rows < 1 || schedule.temporal_depth < 1)
    fail("threads " + std::to_string(schedule.threads) + ", band_rows " +
         std::to_string(schedule.band_rows) + " and temporal_depth " +
         std::to_string(schedule.temporal_depth) + " must be >= 1");
  if (schedule.tile_cols < 0) fail("tile_cols " + std::to_string(schedule.tile_cols) + " < 0");
  if (!(p.theta > 0.0) || !(p.tau > 0.0)) fail("theta and tau must be > 0");
  if (!simd_tvl1::target_supported(schedule.simd_target))
    fail("SIMD target " + std::to_string(schedule.simd_target) +
         " (Highway bit) is not compiled in or not supported by this CPU");
}

}  // namespace

std::int64_t tile_working_set_bytes(int rows, int cols, int temporal_depth, int bytes_per_value) {
  return std::int64_t(rows + 2 * temporal_depth) * std::int64_t(cols + 2 * temporal_depth) * 9 *
         std::int64_t(bytes_per_value);
}

Binary16Fields to_binary16_fields(const WarpingData<float>& w, const Tvl1State<float>& s,
                                  std::int64_t simd_target) {
  check_shapes(w, s);
  if (!simd_tvl1::target_supported(simd_target))
    fail("SIMD target " + std::to_string(simd_target) + " not supported here");
  Binary16Fields f;
  f.width = w.width;
  f.height = w.height;
  f.grad_x = to_binary16(w.grad_x, simd_target);
  f.grad_y = to_binary16(w.grad_y, simd_target);
  f.rho_c = to_binary16(w.rho_c, simd_target);
  f.u1 = to_binary16(s.u1, simd_target);
  f.u2 = to_binary16(s.u2, simd_target);
  f.p11 = to_binary16(s.p11, simd_target);
  f.p12 = to_binary16(s.p12, simd_target);
  f.p21 = to_binary16(s.p21, simd_target);
  f.p22 = to_binary16(s.p22, simd_target);
  return f;
}

void from_binary16_fields(const Binary16Fields& f, Tvl1State<float>& s, std::int64_t simd_target) {
  if (!simd_tvl1::target_supported(simd_target))
    fail("SIMD target " + std::to_string(simd_target) + " not supported here");
  const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
  if (s.width != f.width || s.height != f.height || s.u1.size() != n || s.u2.size() != n ||
      s.p11.size() != n || s.p12.size() != n || s.p21.size() != n || s.p22.size() != n)
    throw std::invalid_argument("from_binary16_fields (kernels/simd/tvl1_simd.cpp): state is not " +
                                std::to_string(f.width) + "x" + std::to_string(f.height));
  const std::pair<const std::vector<hwy::float16_t>*, std::vector<float>*> planes[] = {
      {&f.u1, &s.u1},   {&f.u2, &s.u2},   {&f.p11, &s.p11},
      {&f.p12, &s.p12}, {&f.p21, &s.p21}, {&f.p22, &s.p22}};
  for (const auto& [from, to] : planes)
    simd_tvl1::from_binary16(from->data(), to->data(), n, simd_target);
}

int tvl1_iterate_simd_binary16(Binary16Fields& f, const Tvl1Params& p, int iterations,
                               SimdSchedule schedule, bool binary16_arithmetic) {
  const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
  if (f.width < 1 || f.height < 1) fail("empty binary16 fields");
  for (const auto* plane :
       {&f.grad_x, &f.grad_y, &f.rho_c, &f.u1, &f.u2, &f.p11, &f.p12, &f.p21, &f.p22})
    if (plane->size() != n)
      fail("a binary16 field has " + std::to_string(plane->size()) + " elements, expected " +
           std::to_string(n));
  check_run(p, iterations, schedule);
  throw_if_cancelled();
  const Fields<hwy::float16_t> fields{
      f.grad_x.data(), f.grad_y.data(), f.rho_c.data(), f.u1.data(),  f.u2.data(),
      f.p11.data(),    f.p12.data(),    f.p21.data(),   f.p22.data(), binary16_arithmetic};
  return iterate(fields, f.width, f.height, p, iterations, schedule);
}

int tvl1_iterate_simd(const WarpingData<float>& w, Tvl1State<float>& s, const Tvl1Params& p,
                      int iterations, SimdSchedule schedule, SimdStorage storage) {
  check_shapes(w, s);
  check_run(p, iterations, schedule);
  throw_if_cancelled();
  if (storage == SimdStorage::f32) {
    const Fields<float> f{w.grad_x.data(), w.grad_y.data(), w.rho_c.data(),
                          s.u1.data(),     s.u2.data(),     s.p11.data(),
                          s.p12.data(),    s.p21.data(),    s.p22.data()};
    return iterate(f, w.width, w.height, p, iterations, schedule);
  }
  Binary16Fields f = to_binary16_fields(w, s, schedule.simd_target);
  const int done =
      tvl1_iterate_simd_binary16(f, p, iterations, schedule, storage == SimdStorage::f16);
  from_binary16_fields(f, s, schedule.simd_target);
  return done;
}

}  // namespace flowtune
