// Algorithm parameters of TV-L1 (Zach et al. 2007; Sanchez Perez et al., IPOL 2013).
#pragma once

#include <cmath>

#include "kernels/bilinear.hpp"

namespace flowtune {

/// TV-L1 parameters of the numerical kernels. The member initialisers are the kernels'
/// test defaults (a short 3-scale, 1-warping, 10-iteration schedule); the product defaults
/// (IPOL 2013's) are the TV-L1 workload's parameter schema (workloads/tvl1, `tune params`).
struct Tvl1Params {
  double tau = 0.25;     ///< time step of the dual (p) update; tau <= 0.25 converges
  double lambda = 0.15;  ///< data-term weight (the threshold is lambda * theta)
  double theta = 0.3;    ///< coupling between u and v
  double zoom = 0.5;     ///< pyramid down-sampling factor per scale, in (0, 1)
  int n_scales =
      3;  ///< pyramid levels (1 = monoscale; 0 = from the image size, see effective_n_scales)
  int n_warpings = 1;   ///< outer warpings per scale
  int iterations = 10;  ///< inner iterations per warping (an upper bound when epsilon > 0)
  double epsilon =
      0.0;  ///< stopping threshold on mean squared |u - u_prev|; 0 = run all iterations
  double presmoothing_sigma =
      0.8;  ///< Gaussian sigma applied to both frames before the pyramid (IPOL)
  /// Iterations between two stopping tests when epsilon > 0: the test runs after iterations
  /// k, 2k, 3k, ... on the change of that iteration (1 = every iteration, IPOL's loop).
  int epsilon_check_every = 1;
  /// Median filter of the flow after each warping (Wedel et al. 2009, sec. 3; Sun, Roth,
  /// Black 2010, sec. 3.3): window 3 or 5, 0 = off (IPOL 2013 has none). 0 here, with the
  /// other test defaults, and as the schema's absent value (a config without it); the
  /// product default, the schema's, is 5 (README "Defaults").
  int median_window = 0;
  /// Weighted non-local median of the flow after each warping (after the median filter when
  /// both are on; Sun, Roth, Black 2010, sec. 4, "Classic+NL"; kernels/weighted_median.hpp):
  /// odd window 3..11, 0 = off; weights exp(-d^2 / (2 nl_sigma_spatial^2) - (I0 difference)^2 /
  /// (2 nl_sigma_color^2)) on the level's grey I0 (Sun et al.: 15 x 15, 7 and 7 on Lab).
  int nl_median_window = 0;
  double nl_sigma_spatial = 7.0;  ///< px
  double nl_sigma_color = 7.0;    ///< grey levels of the [0, 255] normalised I0
  /// The occlusion factor o(x_j) / o(x_i) in the weighted median's weights (Sun, Roth, Black
  /// 2010, sec. 4, eq. 10; kernels/occlusion.hpp): o = exp(-d^2 / (2 nl_sigma_divergence^2))
  /// exp(-e^2 / (2 nl_sigma_residual^2)), d the negative part of the flow's divergence, e the
  /// residual I0(x) - I1(x + u) on the level's frames. false = off (no effect without
  /// nl_median_window).
  bool nl_occlusion = false;
  double nl_sigma_divergence = 0.3;  ///< px / px (Sun et al.: 0.3)
  double nl_sigma_residual = 20.0;   ///< grey levels of the [0, 255] levels (Sun et al.: 20)
  /// Structure-texture decomposition of both frames before the pyramid (Wedel et al. 2009,
  /// sec. 2.3): I_texture = I - texture_alpha * ROF(I); 0 = off (Wedel: 0.95).
  double texture_alpha = 0.0;
  double rof_theta = 0.125;  ///< ROF weight theta (Wedel et al. 2009: 1/8)
  int rof_iterations = 100;  ///< Chambolle projection iterations of the ROF (Wedel: 100)
  /// Interpolation of I1 and its gradient in each warping: bicubic (IPOL 2013, sec. 4) or
  /// bilinear (kernels/bilinear.hpp).
  WarpingInterp warping_interp = WarpingInterp::bicubic;
  /// In a stream of frames, each pair starts from the previous pair's flow (the workload's
  /// runner chains them, workloads/tvl1/flow_runner.hpp); no solver reads it: a solver starts
  /// from an initial flow when it is given one (compute_from).
  bool warm_start = false;
};

/// Pyramid levels used for a width x height frame: p.n_scales when > 0; when 0, IPOL 2013's
/// rule (Sanchez Perez et al., tvl1flow main.c): N = 1 + log(hypot(w, h) / 16) / log(1 / zoom),
/// truncated, at least 1, so the coarsest level is about 16 px on its diagonal scale
/// (640x480, zoom 0.5: 6 levels). The pyramid builder may still stop earlier when a level's
/// smaller side would drop below 4 px.
inline int effective_n_scales(const Tvl1Params& p, int width, int height) {
  if (p.n_scales > 0) return p.n_scales;
  const double n =
      1.0 + std::log(std::hypot(double(width), double(height)) / 16.0) / std::log(1.0 / p.zoom);
  return n < 1.0 ? 1 : static_cast<int>(n);
}

}  // namespace flowtune
