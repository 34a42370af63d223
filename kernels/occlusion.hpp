// The occlusion factor of the weighted non-local median: Sun, Roth, Black, "Secrets of optical
// flow estimation and their principles", CVPR 2010, sec. 4, eq. 10 (after Sand and Teller,
// "Particle video", IJCV 2008, appendix A.2):
//   o(x) = exp(-d(x)^2 / (2 sigma_d^2)) exp(-e(x)^2 / (2 sigma_e^2)),
// d the divergence of the flow where it is negative (0 elsewhere: only a flow that converges,
// a surface moving behind another, occludes), e(x) = I0(x) - I1(x + u(x)) the residual of the
// brightness constancy; the paper's sigma_d = 0.3 (px / px) and sigma_e = 20 on intensities in
// [0, 255] (the authors' code rescales the texture frames to [0, 255]; flowtune's levels are
// normalised to [0, 255] too, also after the structure-texture decomposition, so the paper's
// values carry over). In eq. 10 the weighted median's weight of neighbour j of pixel i is
// multiplied by o(x_j) / o(x_i): flowtune stores the occlusion cost q(x) = -log o(x) =
// d^2 / (2 sigma_d^2) + e^2 / (2 sigma_e^2) per pixel and the weight carries exp(-(q_j - q_i))
// (kernels/weighted_median.hpp, weighted_median_weight_occluded), which never divides by an
// o(x_i) that underflowed.
// Discretisation (the paper gives none; as the authors' public code): the divergence by
// central differences, one-sided on the first and last column / row (Matlab's divergence);
// I1(x + u) bilinear, and e = 0 where x + u leaves the level (the authors' partial_deriv
// zeroes the residual there). The per-pixel code is written once for the host and the device:
// the CPU reference (double, occlusion_cost_map below, kernels/tvl1_multiscale.hpp) and the GPU
// frame (float, kernels/cuda/frame/occlusion_filters.cu) call occlusion_cost_px.
#pragma once

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "kernels/bilinear.hpp"

#if defined(__CUDACC__)
#define FT_OCCL_HD __host__ __device__ inline
#else
#define FT_OCCL_HD inline
#endif

namespace flowtune {

/// Sun, Roth, Black 2010, sec. 4: sigma_d of the divergence term (px / px).
constexpr double kOcclusionSigmaDivergence = 0.3;
/// Sun, Roth, Black 2010, sec. 4: sigma_e of the residual term (grey levels of [0, 255]).
constexpr double kOcclusionSigmaResidual = 20.0;

/// The divergence d = du1/dx + du2/dy of a w x h flow at (x, y); flow(i, j, c) returns
/// component c (0: u1, 1: u2) of texel (i, j). Central differences (f(x+1) - f(x-1)) / 2 inside,
/// one-sided f(1) - f(0) and f(w-1) - f(w-2) on the first and last column (rows alike), 0 along
/// a dimension of size 1. Units: px / px.
template <class Real, class FlowLoad>
FT_OCCL_HD Real flow_divergence_px(const FlowLoad& flow, int w, int h, int x, int y) {
  Real dx = 0, dy = 0;
  if (w > 1) {
    if (x == 0)
      dx = flow(1, y, 0) - flow(0, y, 0);
    else if (x == w - 1)
      dx = flow(w - 1, y, 0) - flow(w - 2, y, 0);
    else
      dx = (flow(x + 1, y, 0) - flow(x - 1, y, 0)) * Real(0.5);
  }
  if (h > 1) {
    if (y == 0)
      dy = flow(x, 1, 1) - flow(x, 0, 1);
    else if (y == h - 1)
      dy = flow(x, h - 1, 1) - flow(x, h - 2, 1);
    else
      dy = (flow(x, y + 1, 1) - flow(x, y - 1, 1)) * Real(0.5);
  }
  return dx + dy;
}

/// The residual e = I0(x, y) - I1(x + u1, y + u2) at (x, y), I1 bilinear (kernels/bilinear.hpp);
/// 0 where (x + u1, y + u2) is outside [0, w-1] x [0, h-1] or not finite. i0(i, j), i1(i, j)
/// return texels. Units: grey levels.
template <class Real, class FlowLoad, class Load0, class Load1>
FT_OCCL_HD Real warped_residual_px(const FlowLoad& flow, const Load0& i0, const Load1& i1, int w,
                                   int h, int x, int y) {
  const Real px = Real(x) + flow(x, y, 0), py = Real(y) + flow(x, y, 1);
  if (!(px >= 0 && px <= Real(w - 1) && py >= 0 && py <= Real(h - 1))) return Real(0);
  return Real(i0(x, y)) - bilinear_sample<Real, Real>(i1, w, h, px, py);
}

/// The occlusion cost q = -log o = min(d, 0)^2 kd + e^2 ke of a divergence d and a residual e,
/// kd = 1 / (2 sigma_d^2), ke = 1 / (2 sigma_e^2) (Sun, Roth, Black 2010, eq. 10). Each
/// operation rounded as written, also on the device (float: no FMA contraction), so the GPU's
/// float equals the host's float.
template <class Real>
FT_OCCL_HD Real occlusion_cost(Real d, Real e, Real kd, Real ke) {
  const Real dn = d < 0 ? d : Real(0);
#if defined(__CUDA_ARCH__)
  if constexpr (std::is_same<Real, float>::value)
    return __fadd_rn(__fmul_rn(__fmul_rn(dn, dn), kd), __fmul_rn(__fmul_rn(e, e), ke));
  else
#endif
    return dn * dn * kd + e * e * ke;
}

/// The occlusion cost q(x, y) of a w x h level: occlusion_cost of flow_divergence_px and
/// warped_residual_px with kd = 1 / (2 sigma_d^2), ke = 1 / (2 sigma_e^2); o = exp(-q).
template <class Real, class FlowLoad, class Load0, class Load1>
FT_OCCL_HD Real occlusion_cost_px(const FlowLoad& flow, const Load0& i0, const Load1& i1, int w,
                                  int h, int x, int y, Real kd, Real ke) {
  return occlusion_cost<Real>(flow_divergence_px<Real>(flow, w, h, x, y),
                              warped_residual_px<Real>(flow, i0, i1, w, h, x, y), kd, ke);
}

/// Throws std::invalid_argument naming `who` unless both sigmas are finite and > 0.
inline void check_occlusion_sigmas(double sigma_d, double sigma_e, const char* who) {
  if (!(sigma_d > 0 && std::isfinite(sigma_d) && sigma_e > 0 && std::isfinite(sigma_e)))
    throw std::invalid_argument(std::string(who) +
                                ": nl_sigma_divergence and nl_sigma_residual must be > 0, got " +
                                std::to_string(sigma_d) + " and " + std::to_string(sigma_e));
}

/// The occlusion cost plane q = -log o (Sun, Roth, Black 2010, eq. 10) of a w x h flow (u1, u2)
/// between the level's frames i0 and i1 (row-major planes, grey levels of [0, 255]), sigma_d in
/// px / px, sigma_e in grey levels. Throws std::invalid_argument if a plane is not w x h or a
/// sigma is not > 0.
template <class Real>
std::vector<Real> occlusion_cost_map(const std::vector<Real>& u1, const std::vector<Real>& u2,
                                     const std::vector<Real>& i0, const std::vector<Real>& i1,
                                     int w, int h, double sigma_d, double sigma_e) {
  check_occlusion_sigmas(sigma_d, sigma_e, "occlusion_cost_map");
  const std::size_t n = std::size_t(w < 0 ? 0 : w) * std::size_t(h < 0 ? 0 : h);
  if (w < 0 || h < 0 || u1.size() != n || u2.size() != n || i0.size() != n || i1.size() != n)
    throw std::invalid_argument("occlusion_cost_map: planes of " + std::to_string(u1.size()) +
                                ", " + std::to_string(u2.size()) + ", " +
                                std::to_string(i0.size()) + " and " + std::to_string(i1.size()) +
                                " values are not " + std::to_string(w) + "x" + std::to_string(h));
  const Real kd = Real(1) / Real(2 * sigma_d * sigma_d);
  const Real ke = Real(1) / Real(2 * sigma_e * sigma_e);
  const Real* p1 = u1.data();
  const Real* p2 = u2.data();
  const auto flow = [p1, p2, w](int i, int j, int c) {
    return (c ? p2 : p1)[std::size_t(j) * w + i];
  };
  const Real* a = i0.data();
  const Real* b = i1.data();
  const auto load0 = [a, w](int i, int j) { return a[std::size_t(j) * w + i]; };
  const auto load1 = [b, w](int i, int j) { return b[std::size_t(j) * w + i]; };
  std::vector<Real> q(n);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      q[std::size_t(y) * w + x] = occlusion_cost_px<Real>(flow, load0, load1, w, h, x, y, kd, ke);
  return q;
}

}  // namespace flowtune
