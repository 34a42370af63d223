// Algorithm parameters of TV-L1 (Zach et al. 2007; Sanchez Perez et al., IPOL 2013).
#pragma once

namespace flowtune {

/// TV-L1 parameters. Defaults are IPOL 2013's (tau 0.25, lambda 0.15, theta 0.3,
/// zoom 0.5, epsilon 0.01) with the paper's monoscale-free defaults for the schedule.
struct Tvl1Params {
  double tau = 0.25;      ///< time step of the dual (p) update; tau <= 0.25 converges
  double lambda = 0.15;   ///< data-term weight (the threshold is lambda * theta)
  double theta = 0.3;     ///< coupling between u and v
  double zoom = 0.5;      ///< pyramid down-sampling factor per scale, in (0, 1)
  int n_scales = 3;       ///< pyramid levels (1 = monoscale)
  int n_warpings = 1;     ///< outer warpings per scale
  int iterations = 10;    ///< inner iterations per warping (an upper bound when epsilon > 0)
  double epsilon = 0.0;   ///< stopping threshold on mean squared |u - u_prev|; 0 = run all iterations
  double presmoothing_sigma = 0.8;  ///< Gaussian sigma applied to both frames before the pyramid (IPOL)
};

}  // namespace flowtune
