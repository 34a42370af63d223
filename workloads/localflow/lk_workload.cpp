// The "lk" workload: pyramidal dense Lucas-Kanade (Marras et al. sec. 3.3; Bouguet 2000).
#include <cmath>

#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {

class LkWorkload final : public LocalFlowWorkload {
 public:
  std::string name() const override { return "lk"; }
  std::string description() const override {
    return "Pyramidal dense Lucas-Kanade optical flow with iterative warping (Marras et al., "
           "sec. 3.3; Bouguet 2000)";
  }
  const std::vector<ParamSpec>& params() const override { return lk_param_specs(); }
  ParamDimensions default_dimensions(const std::string& target) const override {
    if (target == "cuda")
      return {{"levels", {3, 5}},
              {"window", {5, 9, 13}},
              {"iterations", {1, 3, 5}},
              {"weighting", {0, 1}}};
    return {{"window", {5, 9}}};
  }
  double relative_cost(const Config& config) const override {
    // Window reads per pixel: the tensor once, then one per iteration, over a pyramid of
    // factor 4 per level.
    const double window = config.param("window");
    const double pyramid = (1 - std::pow(0.25, config.param("levels"))) / 0.75;
    return window * window * (1 + config.param("iterations")) * pyramid;
  }
  std::optional<std::string> invalid_reason(const Config& config) const override {
    return localflow::lk_params_invalid_reason(lk_params_of(config));
  }
};

}  // namespace

const std::vector<ParamSpec>& lk_param_specs() {
  using T = ParamSpec::Type;
  static const std::vector<ParamSpec> specs = {
      {"levels", T::integer, "", 3, 1, 8, false, false,
       "pyramid levels (each halves the size; box filter)", "Marras et al., sec. 3.3"},
      {"window", T::integer, "px", 9, 3, 15, false, false,
       "side of the odd square window of the least-squares solve", "Bouguet 2000, sec. 2.2"},
      {"iterations", T::integer, "", 3, 1, 50, false, false,
       "refinements per level (warp I1 by the flow, solve again)",
       "Marras et al., sec. 3.3; Bouguet 2000, sec. 2.2"},
      {"weighting", T::integer, "", 0, 0, 1, false, false,
       "window weights: 0 = box, 1 = Gaussian (sigma 0.3 (r - 1) + 0.8)",
       "Lucas and Kanade 1981 (weighted least squares)"},
  };
  return specs;
}

const Workload& lk_workload() {
  static const LkWorkload workload;
  return workload;
}

FLOWTUNE_REGISTER_WORKLOAD(310, lk_workload());

}  // namespace flowtune
