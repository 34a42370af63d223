#include "kernels/reference_tvl1.hpp"

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>

#include "kernels/cancellation.hpp"
#include "kernels/image_ops.hpp"
#include "kernels/tvl1_multiscale.hpp"

namespace flowtune {

namespace {

std::string shape(int w, int h) {
  return std::to_string(w) + "x" + std::to_string(h);
}

template <typename Real>
void require_shape(const Plane<Real>& plane, int w, int h, const char* what) {
  if (plane.width != w || plane.height != h || plane.size() != std::size_t(w) * h)
    throw std::invalid_argument(std::string("prepare_warping: ") + what + " is " +
                                shape(plane.width, plane.height) + ", expected " + shape(w, h));
}

// |grad I1|^2 below which the thresholding step leaves v = u (IPOL GRAD_IS_ZERO).
constexpr double kGradIsZero = 1e-10;

}  // namespace

template <typename Real>
WarpingData<Real> prepare_warping(const Plane<Real>& i0, const Plane<Real>& i1,
                                  const Plane<Real>& i1x, const Plane<Real>& i1y,
                                  const Tvl1State<Real>& state, WarpingInterp interp) {
  const int w = i0.width, h = i0.height;
  require_shape(i1, w, h, "I1");
  require_shape(i1x, w, h, "I1x");
  require_shape(i1y, w, h, "I1y");
  const std::size_t n = std::size_t(w) * h;
  if (state.width != w || state.height != h || state.u1.size() != n || state.u2.size() != n)
    throw std::invalid_argument("prepare_warping: state is " + shape(state.width, state.height) +
                                ", expected " + shape(w, h));
  WarpingData<Real> out(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      const std::size_t i = std::size_t(y) * w + x;
      const Real u1 = state.u1[i], u2 = state.u2[i];
      const Real px = static_cast<Real>(x) + u1, py = static_cast<Real>(y) + u2;
      Real warped, gx, gy;
      if (interp == WarpingInterp::bilinear) {
        const auto at = [](const Plane<Real>& q) {
          return [&q](int a, int b) { return q.at(a, b); };
        };
        warped = bilinear_sample<Real>(at(i1), w, h, px, py);
        gx = bilinear_sample<Real>(at(i1x), w, h, px, py);
        gy = bilinear_sample<Real>(at(i1y), w, h, px, py);
      } else {
        warped = bicubic_at(i1, px, py);
        gx = bicubic_at(i1x, px, py);
        gy = bicubic_at(i1y, px, py);
      }
      out.grad_x[i] = gx;
      out.grad_y[i] = gy;
      out.rho_c[i] = warped - gx * u1 - gy * u2 - i0.data[i];
    }
  }
  return out;
}

template WarpingData<float> prepare_warping<float>(const Plane<float>&, const Plane<float>&,
                                                   const Plane<float>&, const Plane<float>&,
                                                   const Tvl1State<float>&, WarpingInterp);
template WarpingData<double> prepare_warping<double>(const Plane<double>&, const Plane<double>&,
                                                     const Plane<double>&, const Plane<double>&,
                                                     const Tvl1State<double>&, WarpingInterp);

int tvl1_iterate_reference(const WarpingData<double>& w, Tvl1State<double>& s, const Tvl1Params& p,
                           int iterations) {
  const int nx = w.width, ny = w.height;
  const std::size_t n = std::size_t(nx) * ny;
  if (s.width != nx || s.height != ny || s.u1.size() != n || s.p22.size() != n ||
      w.rho_c.size() != n)
    throw std::invalid_argument("tvl1_iterate_reference: warping data " + shape(nx, ny) +
                                " and state " + shape(s.width, s.height) + " differ");
  const double l_t = p.lambda * p.theta;
  const double theta = p.theta;
  const double taut = p.tau / p.theta;
  const double eps2 = p.epsilon * p.epsilon;
  const double* gx = w.grad_x.data();
  const double* gy = w.grad_y.data();
  const double* rho_c = w.rho_c.data();
  double* u1 = s.u1.data();
  double* u2 = s.u2.data();
  double* p11 = s.p11.data();
  double* p12 = s.p12.data();
  double* p21 = s.p21.data();
  double* p22 = s.p22.data();

  int done = 0;
  while (done < iterations) {
    throw_if_cancelled();
    ++done;
    // Pass 1: thresholding (v), divergence of p (backward differences, p = 0 outside) and
    // the u update. p is not written in this pass, so u can be updated in place.
    double change2 = 0;
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        const std::size_t i = std::size_t(y) * nx + x;
        const double g2 = gx[i] * gx[i] + gy[i] * gy[i];
        const double rho = rho_c[i] + gx[i] * u1[i] + gy[i] * u2[i];
        double d1 = 0, d2 = 0;
        if (rho < -l_t * g2) {
          d1 = l_t * gx[i];
          d2 = l_t * gy[i];
        } else if (rho > l_t * g2) {
          d1 = -l_t * gx[i];
          d2 = -l_t * gy[i];
        } else if (g2 >= kGradIsZero) {
          const double fi = -rho / g2;
          d1 = fi * gx[i];
          d2 = fi * gy[i];
        }
        const double v1 = u1[i] + d1;
        const double v2 = u2[i] + d2;
        const double p11w = x > 0 ? p11[i - 1] : 0.0;
        const double p21w = x > 0 ? p21[i - 1] : 0.0;
        const double p12n = y > 0 ? p12[i - std::size_t(nx)] : 0.0;
        const double p22n = y > 0 ? p22[i - std::size_t(nx)] : 0.0;
        const double div1 = (p11[i] - p11w) + (p12[i] - p12n);
        const double div2 = (p21[i] - p21w) + (p22[i] - p22n);
        const double new_u1 = v1 + theta * div1;
        const double new_u2 = v2 + theta * div2;
        change2 += (new_u1 - u1[i]) * (new_u1 - u1[i]) + (new_u2 - u2[i]) * (new_u2 - u2[i]);
        u1[i] = new_u1;
        u2[i] = new_u2;
      }
    }
    // Pass 2: forward-difference gradient of u (0 on the last column / row) and the
    // per-component dual update; reads u only, so p can be updated in place.
    for (int y = 0; y < ny; ++y) {
      for (int x = 0; x < nx; ++x) {
        const std::size_t i = std::size_t(y) * nx + x;
        const std::size_t e = x + 1 < nx ? i + 1 : i;
        const std::size_t so = y + 1 < ny ? i + std::size_t(nx) : i;
        const double u1x = u1[e] - u1[i], u1y = u1[so] - u1[i];
        const double u2x = u2[e] - u2[i], u2y = u2[so] - u2[i];
        const double ng1 = 1.0 + taut * std::sqrt(u1x * u1x + u1y * u1y);
        const double ng2 = 1.0 + taut * std::sqrt(u2x * u2x + u2y * u2y);
        p11[i] = (p11[i] + taut * u1x) / ng1;
        p12[i] = (p12[i] + taut * u1y) / ng1;
        p21[i] = (p21[i] + taut * u2x) / ng2;
        p22[i] = (p22[i] + taut * u2y) / ng2;
      }
    }
    if (p.epsilon > 0 && done % p.epsilon_check_every == 0 && change2 / double(n) <= eps2) break;
  }
  return done;
}

FlowField tvl1_reference(const Image& i0, const Image& i1, const Tvl1Params& p,
                         const FlowField* init_flow) {
  return tvl1_multiscale<double>(
      i0, i1, p,
      [&p](const WarpingData<double>& w, Tvl1State<double>& s) {
        tvl1_iterate_reference(w, s, p, p.iterations);
      },
      init_flow);
}

int n_scales_for_min_size(int width, int height, double zoom, int min_side) {
  if (!(zoom > 0 && zoom < 1))
    throw std::invalid_argument("n_scales_for_min_size: zoom must be in (0, 1), got " +
                                std::to_string(zoom));
  if (width < 1 || height < 1)
    throw std::invalid_argument("n_scales_for_min_size: bad size " + shape(width, height));
  int n = 1;
  int w = width, h = height;
  while (true) {
    const int nw = zoom_size(w, zoom), nh = zoom_size(h, zoom);
    if (std::min(nw, nh) < min_side || (nw == w && nh == h)) break;
    w = nw;
    h = nh;
    ++n;
  }
  return n;
}

}  // namespace flowtune
