#include "variants/localflow/cuda/feat_cuda_variant.hpp"

#include <stdexcept>

#include "variants/cuda/nvrtc_build.hpp"
#include "variants/kernel_defines.hpp"

namespace flowtune::localflow_cuda {
namespace {

class FeatCudaVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "feat_cuda"; }
  std::string workload() const override { return "features"; }
  std::string target() const override { return "cuda"; }
  std::vector<TunableDomain> tunables() const override {
    return {{"block_x", kFeatBlockXValues},
            {"block_y", kFeatBlockYValues},
            {"shared_features", kFeatSharedValues},
            {"features_per_tb", kFeatPerTbValues}};
  }
  /// The NVRTC build for arch (no GPU needed): feat_dense with block_x * block_y threads and
  /// feat_shared_bytes of dynamic shared memory.
  std::vector<KernelResources> resources(const Config& config,
                                         const std::string& arch) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const auto build = cuda::nvrtc_build(kFeatSource, feat_defines(config), arch);
    std::vector<KernelResources> out = build->resources;
    for (auto& r : out) {
      r.threads_per_block = config.tunable("block_x") * config.tunable("block_y");
      r.dynamic_shared_bytes =
          feat_shared_bytes(config.tunable("shared_features"), config.tunable("features_per_tb"));
    }
    return out;
  }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    if (auto why = localflow::feat_params_invalid_reason(feat_params_of(config)))
      throw std::invalid_argument(name() + ": " + *why);
    return make_feat_cuda_solver(config);
  }

 protected:
  std::optional<std::string> rule_invalid_reason(const Config& config) const override {
    if (auto why = feat_shape_invalid_reason(config.tunable("block_x"), config.tunable("block_y"),
                                             config.tunable("shared_features"),
                                             config.tunable("features_per_tb")))
      return name() + ": " + *why;
    return std::nullopt;
  }
};

}  // namespace

int feat_shared_bytes(int shared_features, int features_per_tb) {
  return shared_features ? features_per_tb * 20 : 0;
}

std::optional<std::string> feat_shape_invalid_reason(int block_x, int block_y, int shared,
                                                     int per_tb) {
  const std::string shape =
      "block_x=" + std::to_string(block_x) + " block_y=" + std::to_string(block_y);
  if (block_x <= 0 || block_y <= 0) return shape + ": sizes must be positive";
  if ((block_x * block_y) % 32 != 0) return shape + ": threads per block not a multiple of 32";
  if (block_x * block_y > 1024)
    return shape + ": " + std::to_string(block_x * block_y) + " threads > 1024 per block";
  if (shared != 0 && shared != 1)
    return "shared_features=" + std::to_string(shared) + " is neither 0 nor 1";
  if (per_tb <= 0) return "features_per_tb=" + std::to_string(per_tb) + " must be positive";
  return std::nullopt;
}

std::vector<std::string> feat_defines(const Config& config) {
  std::vector<std::string> d;
  for (const char* tunable : {"block_x", "block_y", "shared_features", "features_per_tb"})
    d.push_back(kernel_define(tunable, config.tunable(tunable)));
  return d;
}

const LocalFlowVariant& feat_cuda_variant() {
  static const FeatCudaVariant v;
  return v;
}

// After the host local flow variants (rank 300).
FLOWTUNE_REGISTER_VARIANTS(312, &feat_cuda_variant());

}  // namespace flowtune::localflow_cuda
