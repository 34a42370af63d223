// The "bm" workload: pyramidal block matching (Marras et al. sec. 3.2).
#include <cmath>

#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {

class BmWorkload final : public LocalFlowWorkload {
 public:
  std::string name() const override { return "bm"; }
  std::string description() const override {
    return "Pyramidal block matching optical flow (NCC/SAD/SSD; Marras et al., sec. 3.2)";
  }
  const std::vector<ParamSpec>& params() const override { return bm_param_specs(); }
  ParamDimensions default_dimensions(const std::string& target) const override {
    if (target == "cuda")
      return {{"levels", {3, 5}}, {"block", {8, 16}}, {"radius", {2, 4}}, {"similarity", {0, 1}}};
    return {{"block", {8, 16}}, {"similarity", {0, 1}}};
  }
  double relative_cost(const Config& config) const override {
    // Candidates per pixel (2R + 1)^2 over a pyramid of factor 4 per level (sum < 4/3);
    // NCC reads each pair twice (means, then products).
    const double side = 2 * config.param("radius") + 1;
    const double pyramid = (1 - std::pow(0.25, config.param("levels"))) / 0.75;
    return side * side * pyramid * (config.param("similarity") == 0 ? 2 : 1);
  }
  std::optional<std::string> invalid_reason(const Config& config) const override {
    return localflow::bm_params_invalid_reason(bm_params_of(config));
  }
};

}  // namespace

const std::vector<ParamSpec>& bm_param_specs() {
  using T = ParamSpec::Type;
  static const std::vector<ParamSpec> specs = {
      {"levels", T::integer, "", 4, 1, 8, false, false,
       "pyramid levels (each halves the size; box filter)", "Marras et al., sec. 3.2"},
      {"block", T::integer, "px", 8, 2, 64, false, false,
       "side of the non-overlapping blocks of I0 at every level", "Marras et al., sec. 3.2"},
      {"radius", T::integer, "px", 4, 1, 16, false, false,
       "search radius around the prediction from the coarser level, per level",
       "Marras et al., sec. 3.2"},
      {"similarity", T::integer, "", 0, 0, 2, false, false,
       "0 = NCC (maximised), 1 = SAD, 2 = SSD (minimised)", "Marras et al., sec. 3.2"},
      {"subpixel", T::integer, "", 1, 0, 1, false, false,
       "1 = parabola fit of the costs around the best candidate, 0 = integer flow",
       "kernels/cuda/bm_core.cuh"},
  };
  return specs;
}

const Workload& bm_workload() {
  static const BmWorkload workload;
  return workload;
}

FLOWTUNE_REGISTER_WORKLOAD(300, bm_workload());

}  // namespace flowtune
