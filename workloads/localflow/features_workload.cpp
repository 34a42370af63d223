// The "features" workload: dense flow from features tracked in advance (Kim, Hwangbo and
// Kanade, sec. 4-5), method 1 (direct interpolation) or 2 (multiple hypotheses and testing).
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {

class FeaturesWorkload final : public LocalFlowWorkload {
 public:
  std::string name() const override { return "features"; }
  std::string description() const override {
    return "Dense flow from tracked features: direct interpolation or multiple hypotheses "
           "(Kim, Hwangbo, Kanade, sec. 4)";
  }
  const std::vector<ParamSpec>& params() const override { return feat_param_specs(); }
  const std::vector<MetricSpec>& metrics() const override {
    static const std::vector<MetricSpec> m = [] {
      std::vector<MetricSpec> v = localflow_common::metrics();
      v.push_back({"unclassified", "", true,
                   "fraction of pixels whose flow failed the change test (Kim et al., sec. 4.1)"});
      return v;
    }();
    return m;
  }
  ParamDimensions default_dimensions(const std::string& target) const override {
    (void)target;
    return {{"method", {1, 2}}};
  }
  double relative_cost(const Config& config) const override {
    // Per pixel: one likelihood per feature (method 1), times the hypotheses' grid (method
    // 2; about 100 labels on Middlebury at step 1, few features vote after the cutoff).
    const double features = config.param("features");
    return config.param("method") == 1 ? 2 * features : 2 * features + 100 * 20;
  }
  std::optional<std::string> invalid_reason(const Config& config) const override {
    return localflow::feat_params_invalid_reason(feat_params_of(config));
  }
};

}  // namespace

const std::vector<ParamSpec>& feat_param_specs() {
  using T = ParamSpec::Type;
  static const std::vector<ParamSpec> specs = {
      {"method", T::integer, "", 1, 1, 2, false, false,
       "1 = direct interpolation, 2 = multiple hypotheses and testing",
       "Kim et al., sec. 4.1 and 4.2"},
      {"features", T::integer, "", 400, 1, 4096, false, false,
       "Shi-Tomasi corners tracked by the pyramidal KLT (strongest first)",
       "Kim et al., sec. 4 (200 in sec. 6)"},
      {"sigma_space", T::real, "px", 16, 0, 1000, true, false,
       "spatial standard deviation of the likelihood (1 / beta)", "Kim et al., sec. 4.1, eq. 3"},
      {"sigma_color", T::real, "", 8, 0, 1000, true, false,
       "intensity standard deviation of the likelihood (1 / alpha)", "Kim et al., sec. 4.1, eq. 3"},
      {"sigma_flow", T::real, "px", 1, 0, 100, true, false,
       "flow standard deviation of the 7-D likelihood (method 2)", "Kim et al., sec. 4.2"},
      {"grid_step", T::real, "px", 1, 0, 16, true, false,
       "step of the discretised flow space (method 2; grows to keep <= 48 labels per axis)",
       "Kim et al., sec. 4.2, fig. 1"},
      {"hypotheses", T::integer, "", 8, 1, 256, false, false,
       "most likely hypotheses tested per pixel (method 2)", "Kim et al., sec. 4.2, alg. 2"},
      {"change_threshold", T::real, "", 16, 0, 255, false, false,
       "largest |I1(p + flow) - I0(p)| of an accepted flow, intensity levels",
       "Kim et al., sec. 4.1 (change detection)"},
  };
  return specs;
}

const Workload& features_workload() {
  static const FeaturesWorkload workload;
  return workload;
}

FLOWTUNE_REGISTER_WORKLOAD(320, features_workload());

}  // namespace flowtune
