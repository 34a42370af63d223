// The TV-L1 parameters of a config (Config::params by name -> the kernels' Tvl1Params).
#pragma once

#include "kernels/tvl1_params.hpp"
#include "variants/config.hpp"

namespace flowtune {

/// Reads tau, lambda, theta, zoom, n_scales, n_warpings, iterations, epsilon and
/// presmoothing_sigma from config.params (the TV-L1 workload's schema, workloads/tvl1), and
/// the later additions epsilon_check_every (absent: 1), median_window (absent: 0, off),
/// nl_median_window (absent: 0, off), nl_sigma_spatial and nl_sigma_color (absent: 7),
/// nl_occlusion (absent: 0, off; 0 or 1, else std::invalid_argument), nl_sigma_divergence
/// (absent: 0.3) and nl_sigma_residual (absent: 20),
/// texture_alpha (absent: 0, off), rof_theta (absent: 0.125), rof_iterations (absent: 100),
/// warping_interp (absent: 0, bicubic): each parameter's absent value in the schema
/// (ParamSpec::absent_value; the older computation), which is not always its default
/// (median_window: default 5).
/// Throws std::invalid_argument naming the config and the first missing parameter, or an
/// integer parameter that is not a whole number.
Tvl1Params tvl1_params_of(const Config& config);

/// The inverse: every Tvl1Params field as a parameter value.
ParamValues param_values_of(const Tvl1Params& params);

}  // namespace flowtune
