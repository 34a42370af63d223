#include "variants/localflow/cuda/lk_cuda_variant.hpp"

#include <stdexcept>

#include "variants/cuda/nvrtc_build.hpp"
#include "variants/kernel_defines.hpp"

namespace flowtune::localflow_cuda {
namespace {

class LkCudaVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "lk_cuda"; }
  std::string workload() const override { return "lk"; }
  std::string target() const override { return "cuda"; }
  std::vector<std::string> precisions() const override { return {"f32", "f16"}; }
  std::vector<TunableDomain> tunables() const override {
    return {{"block_x", kLkBlockXValues},
            {"block_y", kLkBlockYValues},
            {"fused", kLkFusedValues},
            {"tile", kLkTileValues}};
  }
  /// The NVRTC build of config for arch (no GPU needed; fallback as nvrtc_build): the ptxas
  /// report of lk_level (block_x * block_y threads, lk_shared_bytes dynamic shared memory,
  /// which depends on the window parameter and the precision), lk_gradients, lk_to_half and
  /// flow_downsample (256, none).
  std::vector<KernelResources> resources(const Config& config,
                                         const std::string& arch) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const auto build = cuda::nvrtc_build(kLkSource, lk_defines(config), arch);
    std::vector<KernelResources> out = build->resources;
    for (auto& r : out) {
      if (r.kernel == "lk_level") {
        r.threads_per_block = config.tunable("block_x") * config.tunable("block_y");
        r.dynamic_shared_bytes = lk_solver_settings(config).shared_bytes;
      } else {
        r.threads_per_block = 256;
        r.dynamic_shared_bytes = 0;
      }
    }
    return out;
  }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    if (auto why = localflow::lk_params_invalid_reason(lk_params_of(config)))
      throw std::invalid_argument(name() + ": " + *why);
    return make_lk_cuda_solver(config);
  }

 protected:
  std::optional<std::string> rule_invalid_reason(const Config& config) const override {
    if (auto why = lk_shape_invalid_reason(config.tunable("block_x"), config.tunable("block_y"),
                                           config.tunable("fused"), config.tunable("tile")))
      return name() + ": " + *why;
    return std::nullopt;
  }
};

}  // namespace

int lk_shared_bytes(int window, int block_x, int block_y, int fused, int tile, int element_bytes) {
  if (!tile) return 0;
  const int halo = window / 2 + (fused ? 1 : 0);
  return element_bytes * (fused ? 1 : 3) * (block_x + 2 * halo) * (block_y + 2 * halo);
}

std::optional<std::string> lk_shape_invalid_reason(int block_x, int block_y, int fused, int tile) {
  const std::string shape =
      "block_x=" + std::to_string(block_x) + " block_y=" + std::to_string(block_y);
  if (block_x <= 0 || block_y <= 0) return shape + ": sizes must be positive";
  if ((block_x * block_y) % 32 != 0) return shape + ": threads per block not a multiple of 32";
  if (block_x * block_y > 1024)
    return shape + ": " + std::to_string(block_x * block_y) + " threads > 1024 per block";
  if (fused != 0 && fused != 1) return "fused=" + std::to_string(fused) + " is neither 0 nor 1";
  if (tile != 0 && tile != 1) return "tile=" + std::to_string(tile) + " is neither 0 nor 1";
  return std::nullopt;
}

std::vector<std::string> lk_defines(const Config& config) {
  std::vector<std::string> d;
  for (const char* tunable : {"block_x", "block_y", "fused", "tile"})
    d.push_back(kernel_define(tunable, config.tunable(tunable)));
  if (config.precision == "f16") d.push_back(precision_macro(config.precision));
  return d;
}

LkSolverSettings lk_solver_settings(const Config& config) {
  LkSolverSettings s;
  s.block_x = config.tunable("block_x");
  s.block_y = config.tunable("block_y");
  s.fused = config.tunable("fused") != 0;
  s.f16 = config.precision == "f16";
  s.element_bytes = s.f16 ? 2 : 4;
  s.shared_bytes =
      lk_shared_bytes(lk_params_of(config).window, s.block_x, s.block_y, config.tunable("fused"),
                      config.tunable("tile"), s.element_bytes);
  return s;
}

std::size_t lk_plane_floats(std::size_t pixels, int element_bytes) {
  return (pixels * std::size_t(element_bytes) + sizeof(float) - 1) / sizeof(float);
}

const LocalFlowVariant& lk_cuda_variant() {
  static const LkCudaVariant v;
  return v;
}

// After the host local flow variants (rank 300).
FLOWTUNE_REGISTER_VARIANTS(311, &lk_cuda_variant());

}  // namespace flowtune::localflow_cuda
