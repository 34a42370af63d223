// Adaptor of scheme `global` (kernels/cuda/tvl1_global.cuh): two kernels per iteration,
// global memory only; tunables block_x, block_y (2D block).
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/iteration_schedules.hpp"

namespace flowtune::cuda {
namespace {

class GlobalVariant final : public CudaVariant {
 public:
  std::string name() const override { return "global"; }
  std::vector<TunableDomain> tunables() const override {
    std::vector<TunableDomain> d = {{"block_x", {16, 32, 64, 128}},
                                    {"block_y", {1, 2, 4, 8, 16}},
                                    resident_px_domain(),
                                    tiled_px_domain(),
                                    persistent_px_domain()};
    for (TunableDomain& t : tiled_shape_domains()) d.push_back(std::move(t));
    return d;
  }
  LaunchShape launch_shape(const Config& c) const override {
    return {c.tunable("block_x") * c.tunable("block_y"), 0};
  }
  std::unique_ptr<IterationSchedule> make_schedule(const Config& c) const override {
    return make_two_kernel_schedule(*this, c);
  }

 protected:
  std::optional<std::string> scheme_invalid_reason(const Config& c) const override {
    const int threads = c.tunable("block_x") * c.tunable("block_y");
    if (threads > 1024) return "global: block of " + std::to_string(threads) + " threads > 1024";
    if (threads < 32)
      return "global: block of " + std::to_string(threads) + " threads < one warp (32)";
    return std::nullopt;
  }
};

}  // namespace

const CudaVariant& global_variant() {
  static const GlobalVariant v;
  return v;
}

}  // namespace flowtune::cuda
