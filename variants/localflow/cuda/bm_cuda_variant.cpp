#include "variants/localflow/cuda/bm_cuda_variant.hpp"

#include <stdexcept>

#include "variants/cuda/nvrtc_build.hpp"
#include "variants/kernel_defines.hpp"

namespace flowtune::localflow_cuda {
namespace {

class BmCudaVariant : public LocalFlowVariant {
 public:
  std::string name() const override { return "bm_cuda"; }
  std::string workload() const override { return "bm"; }
  std::string target() const override { return "cuda"; }
  std::vector<TunableDomain> tunables() const override {
    return {{"threads", kBmThreadsValues},
            {"blocks_per_tb", kBmBlocksPerTbValues},
            {"tile_search", kBmTileSearchValues}};
  }
  /// The NVRTC build of config for arch (no GPU needed; fallback as nvrtc_build): the ptxas
  /// report of bm_match_level (threads * blocks_per_tb threads, bm_shared_bytes dynamic
  /// shared memory: the search window depends on the parameters block and radius), and of
  /// bm_densify and flow_downsample (256 threads, none).
  std::vector<KernelResources> resources(const Config& config,
                                         const std::string& arch) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const localflow::BmParams p = bm_params_of(config);
    const auto build = cuda::nvrtc_build(kBmSource, bm_defines(config), arch);
    std::vector<KernelResources> out = build->resources;
    for (auto& r : out) {
      if (r.kernel == "bm_match_level") {
        r.threads_per_block = config.tunable("threads") * config.tunable("blocks_per_tb");
        r.dynamic_shared_bytes = bm_shared_bytes(p.block, p.radius, config.tunable("blocks_per_tb"),
                                                 config.tunable("tile_search"));
      } else {
        r.threads_per_block = 256;
        r.dynamic_shared_bytes = 0;
      }
    }
    return out;
  }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    if (auto why = localflow::bm_params_invalid_reason(bm_params_of(config)))
      throw std::invalid_argument(name() + ": " + *why);
    return make_bm_cuda_solver(config);
  }

 protected:
  std::optional<std::string> rule_invalid_reason(const Config& config) const override {
    if (auto why =
            bm_shape_invalid_reason(config.tunable("threads"), config.tunable("blocks_per_tb"),
                                    config.tunable("tile_search")))
      return name() + ": " + *why;
    return std::nullopt;
  }
};

}  // namespace

int bm_shared_bytes(int block, int radius, int blocks_per_tb, int tile_search) {
  const int side = 2 * radius + 1, window = block + 2 * radius;
  return 4 * blocks_per_tb * (side * side + (tile_search ? block * block + window * window : 0));
}

std::optional<std::string> bm_shape_invalid_reason(int threads, int blocks_per_tb,
                                                   int tile_search) {
  const std::string shape =
      "threads=" + std::to_string(threads) + " blocks_per_tb=" + std::to_string(blocks_per_tb);
  if (threads <= 0 || threads % 32 != 0) return shape + ": threads must be a multiple of 32";
  if (blocks_per_tb <= 0) return shape + ": blocks_per_tb must be positive";
  if (threads * blocks_per_tb > 1024)
    return shape + ": " + std::to_string(threads * blocks_per_tb) + " threads > 1024 per block";
  if (tile_search != 0 && tile_search != 1)
    return "tile_search=" + std::to_string(tile_search) + " is neither 0 nor 1";
  return std::nullopt;
}

std::vector<std::string> bm_defines(const Config& config) {
  std::vector<std::string> d;
  for (const char* tunable : {"threads", "blocks_per_tb", "tile_search"})
    d.push_back(kernel_define(tunable, config.tunable(tunable)));
  return d;
}

const LocalFlowVariant& bm_cuda_variant() {
  static const BmCudaVariant v;
  return v;
}

// After the host local flow variants (rank 300).
FLOWTUNE_REGISTER_VARIANTS(310, &bm_cuda_variant());

}  // namespace flowtune::localflow_cuda
