#include "kernels/simd/tvl1_simd.hpp"

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
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

void check_size(const std::vector<float>& v, std::size_t n, const char* name) {
  if (v.size() != n)
    fail(std::string(name) + " has " + std::to_string(v.size()) + " elements, expected " +
         std::to_string(n));
}

/// The nine fields in the storage type S, row-major width x height.
template <typename S>
struct Fields {
  const S *grad_x, *grad_y, *rho_c;
  S *u1, *u2, *p11, *p12, *p21, *p22;
};

/// The iteration loop over fields f (see tvl1_iterate_simd for the schedule).
template <typename S>
int iterate_bands(const Fields<S>& f, int width, int height, const Tvl1Params& p, int iterations,
                  SimdSchedule schedule) {
  const std::size_t row = std::size_t(width);
  const int n_bands = (height + schedule.band_rows - 1) / schedule.band_rows;
  const float lambda_theta = static_cast<float>(p.lambda * p.theta);
  const float theta = static_cast<float>(p.theta);
  const float tau_theta = static_cast<float>(p.tau / p.theta);
  const bool use_epsilon = p.epsilon > 0.0;
  const double stop_below = p.epsilon * p.epsilon;
  const double n_pixels = double(width) * double(height);

  auto update_u = [&](int y) {
    const std::size_t o = std::size_t(y) * row;
    const URow<S> r{f.grad_x + o,
                    f.grad_y + o,
                    f.rho_c + o,
                    f.u1 + o,
                    f.u2 + o,
                    f.p11 + o,
                    f.p12 + o,
                    f.p21 + o,
                    f.p22 + o,
                    y > 0 ? f.p12 + o - row : nullptr,
                    y > 0 ? f.p22 + o - row : nullptr,
                    width,
                    lambda_theta,
                    theta,
                    use_epsilon};
    return simd_tvl1::update_u_row(r);
  };
  auto update_p = [&](int y) {
    const std::size_t o = std::size_t(y) * row;
    const bool below = y + 1 < height;
    const PRow<S> r{f.u1 + o,
                    f.u2 + o,
                    below ? f.u1 + o + row : nullptr,
                    below ? f.u2 + o + row : nullptr,
                    f.p11 + o,
                    f.p12 + o,
                    f.p21 + o,
                    f.p22 + o,
                    width,
                    tau_theta};
    simd_tvl1::update_p_row(r);
  };

  // Per-band sums of |u_new - u_old|^2, added in band order: the stopping decision does not
  // depend on the number of threads.
  std::vector<double> band_change(std::size_t(n_bands), 0.0);
  int done = 0;
  bool stop = false, cancelled = false;
#pragma omp parallel num_threads(schedule.threads)
  {
    for (int k = 0; k < iterations && !stop; ++k) {
      // Phase 1: per band, "update u" on row y then "update p" on row y - 1.
#pragma omp for schedule(static)
      for (int b = 0; b < n_bands; ++b) {
        const int y0 = b * schedule.band_rows;
        const int y1 = std::min(height, y0 + schedule.band_rows);
        double change = 0.0;
        for (int y = y0; y < y1; ++y) {
          change += update_u(y);
          if (y > y0) update_p(y - 1);
        }
        band_change[std::size_t(b)] = change;
      }
      // Phase 2: each band's last row, whose "update p" needs the next band's new u.
#pragma omp for schedule(static)
      for (int b = 0; b < n_bands; ++b)
        update_p(std::min(height, (b + 1) * schedule.band_rows) - 1);
#pragma omp single
      {
        done = k + 1;
        if (cancellation_requested().load(std::memory_order_relaxed)) {
          cancelled = true;
          stop = true;
        } else if (use_epsilon) {
          double total = 0.0;
          for (const double c : band_change) total += c;
          stop = total / n_pixels <= stop_below;
        }
      }  // implicit barrier: every thread sees the same `stop`
    }
  }
  if (cancelled) throw Cancelled();
  return done;
}

std::vector<hwy::float16_t> to_binary16(const std::vector<float>& v) {
  std::vector<hwy::float16_t> out(v.size());
  simd_tvl1::to_binary16(v.data(), out.data(), v.size());
  return out;
}

void check_shapes(const WarpingData<float>& w, const Tvl1State<float>& s) {
  if (w.width < 1 || w.height < 1) fail("empty warping data");
  if (s.width != w.width || s.height != w.height)
    fail("state is " + std::to_string(s.width) + "x" + std::to_string(s.height) +
         " but warping data is " + std::to_string(w.width) + "x" + std::to_string(w.height));
  const std::size_t n = std::size_t(w.width) * std::size_t(w.height);
  check_size(w.grad_x, n, "grad_x");
  check_size(w.grad_y, n, "grad_y");
  check_size(w.rho_c, n, "rho_c");
  check_size(s.u1, n, "u1");
  check_size(s.u2, n, "u2");
  check_size(s.p11, n, "p11");
  check_size(s.p12, n, "p12");
  check_size(s.p21, n, "p21");
  check_size(s.p22, n, "p22");
}

void check_run(const Tvl1Params& p, int iterations, SimdSchedule schedule) {
  if (iterations < 0) fail("iterations " + std::to_string(iterations) + " < 0");
  if (schedule.threads < 1 || schedule.band_rows < 1)
    fail("threads " + std::to_string(schedule.threads) + " and band_rows " +
         std::to_string(schedule.band_rows) + " must be >= 1");
  if (!(p.theta > 0.0) || !(p.tau > 0.0)) fail("theta and tau must be > 0");
}

}  // namespace

Binary16Fields to_binary16_fields(const WarpingData<float>& w, const Tvl1State<float>& s) {
  check_shapes(w, s);
  Binary16Fields f;
  f.width = w.width;
  f.height = w.height;
  f.grad_x = to_binary16(w.grad_x);
  f.grad_y = to_binary16(w.grad_y);
  f.rho_c = to_binary16(w.rho_c);
  f.u1 = to_binary16(s.u1);
  f.u2 = to_binary16(s.u2);
  f.p11 = to_binary16(s.p11);
  f.p12 = to_binary16(s.p12);
  f.p21 = to_binary16(s.p21);
  f.p22 = to_binary16(s.p22);
  return f;
}

void from_binary16_fields(const Binary16Fields& f, Tvl1State<float>& s) {
  const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
  if (s.width != f.width || s.height != f.height || s.u1.size() != n || s.u2.size() != n ||
      s.p11.size() != n || s.p12.size() != n || s.p21.size() != n || s.p22.size() != n)
    throw std::invalid_argument("from_binary16_fields (kernels/simd/tvl1_simd.cpp): state is not " +
                                std::to_string(f.width) + "x" + std::to_string(f.height));
  const std::pair<const std::vector<hwy::float16_t>*, std::vector<float>*> planes[] = {
      {&f.u1, &s.u1},   {&f.u2, &s.u2},   {&f.p11, &s.p11},
      {&f.p12, &s.p12}, {&f.p21, &s.p21}, {&f.p22, &s.p22}};
  for (const auto& [from, to] : planes) simd_tvl1::from_binary16(from->data(), to->data(), n);
}

int tvl1_iterate_simd_binary16(Binary16Fields& f, const Tvl1Params& p, int iterations,
                               SimdSchedule schedule) {
  const std::size_t n = std::size_t(f.width) * std::size_t(f.height);
  if (f.width < 1 || f.height < 1) fail("empty binary16 fields");
  for (const auto* plane :
       {&f.grad_x, &f.grad_y, &f.rho_c, &f.u1, &f.u2, &f.p11, &f.p12, &f.p21, &f.p22})
    if (plane->size() != n)
      fail("a binary16 field has " + std::to_string(plane->size()) + " elements, expected " +
           std::to_string(n));
  check_run(p, iterations, schedule);
  throw_if_cancelled();
  const Fields<hwy::float16_t> fields{f.grad_x.data(), f.grad_y.data(), f.rho_c.data(),
                                      f.u1.data(),     f.u2.data(),     f.p11.data(),
                                      f.p12.data(),    f.p21.data(),    f.p22.data()};
  return iterate_bands(fields, f.width, f.height, p, iterations, schedule);
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
    return iterate_bands(f, w.width, w.height, p, iterations, schedule);
  }
  Binary16Fields f = to_binary16_fields(w, s);
  const int done = tvl1_iterate_simd_binary16(f, p, iterations, schedule);
  from_binary16_fields(f, s);
  return done;
}

}  // namespace flowtune
