// The generic coarse-to-fine pyramid and warping driver of TV-L1 (IPOL 2013,
// Dual_TVL1_optic_flow_multiscale), shared by the reference and every host-side variant: the
// variant supplies only the inner iterations.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "kernels/cancellation.hpp"
#include "kernels/image.hpp"
#include "kernels/image_ops.hpp"
#include "kernels/median_filter.hpp"
#include "kernels/occlusion.hpp"
#include "kernels/reference_tvl1.hpp"
#include "kernels/structure_texture.hpp"
#include "kernels/tvl1_params.hpp"
#include "kernels/tvl1_warping.hpp"
#include "kernels/weighted_median.hpp"

namespace flowtune {

namespace detail {
/// Throws std::invalid_argument unless the parameters describe a runnable schedule.
inline void check_tvl1_params(const Tvl1Params& p) {
  if (!(p.zoom > 0 && p.zoom < 1))
    throw std::invalid_argument("Tvl1Params: zoom must be in (0, 1), got " +
                                std::to_string(p.zoom));
  if (p.n_scales < 0 || p.n_warpings < 1 || p.iterations < 0)
    throw std::invalid_argument(
        "Tvl1Params: need n_scales >= 0, n_warpings >= 1, iterations >= 0, got n_scales " +
        std::to_string(p.n_scales) + ", n_warpings " + std::to_string(p.n_warpings) +
        ", iterations " + std::to_string(p.iterations));
  if (!(p.theta > 0) || !(p.tau > 0) || !(p.lambda >= 0))
    throw std::invalid_argument("Tvl1Params: need theta > 0, tau > 0, lambda >= 0");
  if (p.epsilon_check_every < 1)
    throw std::invalid_argument("Tvl1Params: need epsilon_check_every >= 1, got " +
                                std::to_string(p.epsilon_check_every));
  check_median_window(p.median_window, "Tvl1Params");
  check_nl_median(p.nl_median_window, p.nl_sigma_spatial, p.nl_sigma_color, "Tvl1Params");
  if (p.nl_occlusion)
    check_occlusion_sigmas(p.nl_sigma_divergence, p.nl_sigma_residual, "Tvl1Params");
  check_structure_texture(p.texture_alpha, p.rof_theta, p.rof_iterations, "Tvl1Params");
}
}  // namespace detail

/// Multiscale TV-L1 (IPOL Dual_TVL1_optic_flow_multiscale):
///  1. i0, i1 converted to Real and normalised jointly to [0, 255] (normalize_pair); if
///     p.texture_alpha > 0 each replaced by its texture part (structure_texture.hpp) and the
///     pair normalised again; then smoothed with a Gaussian of sigma p.presmoothing_sigma;
///  2. pyramids of effective_n_scales(p, w, h) levels built with zoom_out(p.zoom); building stops
///  early if the
///     next level's smaller side would drop below 4 px (the bicubic stencil's width);
///  3. from the coarsest level (flow 0) to the finest: the centred gradient of I1 once per
///     scale, the dual variables p reset to 0 (as IPOL), then p.n_warpings times
///     { prepare_warping(I0, I1, I1x, I1y, state); iterate(warping_data, state);
///       if p.median_window > 0: u1, u2 = median_filter(u1, u2, p.median_window) (Wedel et
///       al. 2009, sec. 3; the duals p are kept);
///       if p.nl_median_window > 0: u1, u2 = weighted_median_filter(u1, u2, guide I0 of the
///       level) (Sun, Roth, Black 2010, sec. 4), its weights multiplied by the occlusion factor
///       o(x_j) / o(x_i) of eq. 10 when p.nl_occlusion (occlusion_cost_map of the flow after
///       the median filter and the level's I0, I1, kernels/occlusion.hpp) };
///     between levels the flow is zoom_in-ed to the finer size and multiplied by 1 / p.zoom.
/// `iterate` is any callable void(const WarpingData<Real>&, Tvl1State<Real>&) running the
/// inner iterations in place. Real: float or double.
/// init_flow (optional, i0's size): the flow to start from instead of 0 (for video, the
/// previous pair's flow): its components are zoom_out-ed with the frames' pyramid and
/// multiplied by zoom per level, so the coarsest level starts from it (values that are not
/// finite or above 1e9, the .flo "unknown", count as 0).
/// Returns i0's width x height flow (float, pixels) from i0 to i1.
/// Throws std::invalid_argument for frames of different sizes (message gives both), empty
/// frames or invalid parameters.
template <typename Real, typename IterateFn>
FlowField tvl1_multiscale(const Image& i0, const Image& i1, const Tvl1Params& p,
                          IterateFn&& iterate, const FlowField* init_flow = nullptr) {
  if (i0.width != i1.width || i0.height != i1.height)
    throw std::invalid_argument("TV-L1: frames differ in size: " + std::to_string(i0.width) + "x" +
                                std::to_string(i0.height) + " vs " + std::to_string(i1.width) +
                                "x" + std::to_string(i1.height));
  if (i0.width < 1 || i0.height < 1 || i0.size() != std::size_t(i0.width) * i0.height ||
      i1.size() != i0.size())
    throw std::invalid_argument("TV-L1: empty or inconsistent frame (" + std::to_string(i0.width) +
                                "x" + std::to_string(i0.height) + ")");
  detail::check_tvl1_params(p);
  if (init_flow && (init_flow->width != i0.width || init_flow->height != i0.height ||
                    init_flow->u.size() != i0.size() || init_flow->v.size() != i0.size()))
    throw std::invalid_argument("TV-L1: initial flow is " + std::to_string(init_flow->width) + "x" +
                                std::to_string(init_flow->height) + ", frames are " +
                                std::to_string(i0.width) + "x" + std::to_string(i0.height));

  std::vector<Plane<Real>> i0s, i1s;
  {
    Plane<Real> a = plane_cast<Real>(i0), b = plane_cast<Real>(i1);
    normalize_pair(a, b);
    if (p.texture_alpha > 0) {  // Wedel et al. 2009, sec. 2.3, then normalised again
      a = structure_texture(a, p.texture_alpha, p.rof_theta, p.rof_iterations);
      b = structure_texture(b, p.texture_alpha, p.rof_theta, p.rof_iterations);
      normalize_pair(a, b);
    }
    i0s.push_back(gaussian_smooth(a, p.presmoothing_sigma));
    i1s.push_back(gaussian_smooth(b, p.presmoothing_sigma));
  }
  const int n_scales = effective_n_scales(p, i0.width, i0.height);
  for (int s = 1; s < n_scales; ++s) {
    const Plane<Real>& prev = i0s.back();
    if (std::min(zoom_size(prev.width, p.zoom), zoom_size(prev.height, p.zoom)) < 4) break;
    i0s.push_back(zoom_out(i0s.back(), p.zoom));
    i1s.push_back(zoom_out(i1s.back(), p.zoom));
  }

  const int coarsest = static_cast<int>(i0s.size()) - 1;
  Tvl1State<Real> state(i0s[std::size_t(coarsest)].width, i0s[std::size_t(coarsest)].height);
  if (init_flow) {  // its pyramid, as the frames' (zoom_out), scaled by zoom per level
    Plane<Real> a(i0.width, i0.height), b(i0.width, i0.height);
    for (std::size_t i = 0; i < a.size(); ++i) {
      const double u = init_flow->u[i], v = init_flow->v[i];
      const bool known =
          std::isfinite(u) && std::isfinite(v) && std::fabs(u) <= 1e9 && std::fabs(v) <= 1e9;
      a.data[i] = known ? static_cast<Real>(u) : Real(0);
      b.data[i] = known ? static_cast<Real>(v) : Real(0);
    }
    for (int s = 1; s <= coarsest; ++s) {
      a = zoom_out(a, p.zoom);
      b = zoom_out(b, p.zoom);
      for (auto& x : a.data) x *= static_cast<Real>(p.zoom);
      for (auto& x : b.data) x *= static_cast<Real>(p.zoom);
    }
    state.u1 = std::move(a.data);
    state.u2 = std::move(b.data);
  }
  Plane<Real> i1x, i1y;
  for (int s = coarsest; s >= 0; --s) {
    const Plane<Real>& f0 = i0s[std::size_t(s)];
    const Plane<Real>& f1 = i1s[std::size_t(s)];
    centered_gradient(f1, i1x, i1y);
    for (auto* q : {&state.p11, &state.p12, &state.p21, &state.p22})
      std::fill(q->begin(), q->end(), Real(0));
    for (int k = 0; k < p.n_warpings; ++k) {
      throw_if_cancelled();
      const WarpingData<Real> w = prepare_warping(f0, f1, i1x, i1y, state, p.warping_interp);
      iterate(w, state);
      if (p.median_window > 0) {
        state.u1 = median_filter(state.u1, state.width, state.height, p.median_window);
        state.u2 = median_filter(state.u2, state.width, state.height, p.median_window);
      }
      if (p.nl_median_window > 0) {  // Sun, Roth, Black 2010, sec. 4, guided by this level's I0
        std::vector<Real> o1, o2, q;
        if (p.nl_occlusion)  // eq. 10: the occlusion cost -log o of the flow as it is now
          q = occlusion_cost_map(state.u1, state.u2, f0.data, f1.data, state.width, state.height,
                                 p.nl_sigma_divergence, p.nl_sigma_residual);
        weighted_median_filter(state.u1, state.u2, f0.data, state.width, state.height,
                               p.nl_median_window, p.nl_sigma_spatial, p.nl_sigma_color, &o1, &o2,
                               p.nl_occlusion ? &q : nullptr);
        state.u1 = std::move(o1);
        state.u2 = std::move(o2);
      }
    }
    if (s == 0) break;
    const Plane<Real>& finer = i0s[std::size_t(s - 1)];
    const Real factor = static_cast<Real>(1.0 / p.zoom);
    Plane<Real> u1(state.width, state.height), u2(state.width, state.height);
    u1.data = std::move(state.u1);
    u2.data = std::move(state.u2);
    Tvl1State<Real> next(finer.width, finer.height);
    next.u1 = zoom_in(u1, finer.width, finer.height, factor).data;
    next.u2 = zoom_in(u2, finer.width, finer.height, factor).data;
    state = std::move(next);
  }

  FlowField flow(i0.width, i0.height);
  for (std::size_t i = 0; i < flow.size(); ++i) {
    flow.u[i] = static_cast<float>(state.u1[i]);
    flow.v[i] = static_cast<float>(state.u2[i]);
  }
  return flow;
}

}  // namespace flowtune
