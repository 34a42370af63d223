#include "variants/tvl1_params_of.hpp"

#include <cmath>
#include <stdexcept>

namespace flowtune {
namespace {

double need(const Config& c, const char* name) {
  const auto it = c.params.find(name);
  if (it == c.params.end())
    throw std::invalid_argument("config '" + c.label() + "': TV-L1 parameter '" + name +
                                "' missing");
  return it->second;
}

int need_int(const Config& c, const char* name) {
  const double v = need(c, name);
  if (v != std::floor(v) || std::fabs(v) > 2.0e9)
    throw std::invalid_argument("config '" + c.label() + "': TV-L1 parameter '" + name +
                                "' must be a whole number, got " + shortest_decimal(v));
  return static_cast<int>(v);
}

/// A parameter added after the schema's first version: absent = its absent value (the
/// schema's ParamSpec::absent_value, the older computation; not always its default:
/// median_window is absent 0, default 5), so older DB rows and tuned headers keep their
/// meaning. tests/tuner/test_absent_values.cpp checks these values against the schema.
int optional_int(const Config& c, const char* name, int absent) {
  return c.params.count(name) ? need_int(c, name) : absent;
}

}  // namespace

Tvl1Params tvl1_params_of(const Config& c) {
  Tvl1Params p;
  p.tau = need(c, "tau");
  p.lambda = need(c, "lambda");
  p.theta = need(c, "theta");
  p.zoom = need(c, "zoom");
  p.n_scales = need_int(c, "n_scales");
  p.n_warpings = need_int(c, "n_warpings");
  p.iterations = need_int(c, "iterations");
  p.epsilon = need(c, "epsilon");
  p.presmoothing_sigma = need(c, "presmoothing_sigma");
  p.epsilon_check_every = optional_int(c, "epsilon_check_every", 1);
  p.median_window = optional_int(c, "median_window", 0);
  p.nl_median_window = optional_int(c, "nl_median_window", 0);
  p.nl_sigma_spatial = c.params.count("nl_sigma_spatial") ? need(c, "nl_sigma_spatial") : 7.0;
  p.nl_sigma_color = c.params.count("nl_sigma_color") ? need(c, "nl_sigma_color") : 7.0;
  const int occl = optional_int(c, "nl_occlusion", 0);
  if (occl != 0 && occl != 1)
    throw std::invalid_argument("config '" + c.label() + "': nl_occlusion=" + std::to_string(occl) +
                                " is not 0 (off) or 1 (on)");
  p.nl_occlusion = occl == 1;
  p.nl_sigma_divergence =
      c.params.count("nl_sigma_divergence") ? need(c, "nl_sigma_divergence") : 0.3;
  p.nl_sigma_residual = c.params.count("nl_sigma_residual") ? need(c, "nl_sigma_residual") : 20.0;
  p.texture_alpha = c.params.count("texture_alpha") ? need(c, "texture_alpha") : 0.0;
  p.rof_theta = c.params.count("rof_theta") ? need(c, "rof_theta") : 0.125;
  p.rof_iterations = optional_int(c, "rof_iterations", 100);
  const int interp = optional_int(c, "warping_interp", 0);
  if (interp != 0 && interp != 1)
    throw std::invalid_argument("config '" + c.label() + "': warping_interp=" +
                                std::to_string(interp) + " is not 0 (bicubic) or 1 (bilinear)");
  p.warping_interp = static_cast<WarpingInterp>(interp);
  const int warm = optional_int(c, "warm_start", 0);
  if (warm != 0 && warm != 1)
    throw std::invalid_argument("config '" + c.label() + "': warm_start=" + std::to_string(warm) +
                                " is not 0 (off) or 1 (on)");
  p.warm_start = warm == 1;
  return p;
}

ParamValues param_values_of(const Tvl1Params& p) {
  return {{"tau", p.tau},
          {"lambda", p.lambda},
          {"theta", p.theta},
          {"zoom", p.zoom},
          {"n_scales", p.n_scales},
          {"n_warpings", p.n_warpings},
          {"iterations", p.iterations},
          {"epsilon", p.epsilon},
          {"presmoothing_sigma", p.presmoothing_sigma},
          {"epsilon_check_every", p.epsilon_check_every},
          {"median_window", p.median_window},
          {"nl_median_window", p.nl_median_window},
          {"nl_sigma_spatial", p.nl_sigma_spatial},
          {"nl_sigma_color", p.nl_sigma_color},
          {"nl_occlusion", p.nl_occlusion ? 1 : 0},
          {"nl_sigma_divergence", p.nl_sigma_divergence},
          {"nl_sigma_residual", p.nl_sigma_residual},
          {"texture_alpha", p.texture_alpha},
          {"rof_theta", p.rof_theta},
          {"rof_iterations", p.rof_iterations},
          {"warping_interp", static_cast<int>(p.warping_interp)},
          {"warm_start", p.warm_start ? 1 : 0}};
}

}  // namespace flowtune
