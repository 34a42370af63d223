// Adaptor of scheme `shared_fusion` (kernels/cuda/tvl1_shared_fusion.cuh, paper fig. 5): one
// kernel per iteration, p and u_new in shared memory with a one-pixel halo; tunables block_x,
// block_y (the output tile is (block_x - 2) x (block_y - 2)).
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/iteration_schedules.hpp"

namespace flowtune::cuda {
namespace {

class SharedFusionVariant final : public CudaVariant {
 public:
  std::string name() const override { return "shared_fusion"; }
  std::vector<TunableDomain> tunables() const override {
    std::vector<TunableDomain> d = {{"block_x", {16, 32, 64, 128}},
                                    {"block_y", {4, 8, 16, 32}},
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
    return make_fused_schedule(*this, c);
  }

 protected:
  std::optional<std::string> scheme_invalid_reason(const Config& c) const override {
    const int bx = c.tunable("block_x"), by = c.tunable("block_y");
    if (bx < 3 || by < 3)
      return "shared_fusion: block " + std::to_string(bx) + "x" + std::to_string(by) +
             " has no interior (needs >= 3x3: a one-pixel halo on each side)";
    if (bx * by > 1024)
      return "shared_fusion: block of " + std::to_string(bx * by) + " threads > 1024";
    return std::nullopt;
  }
};

}  // namespace

const CudaVariant& shared_fusion_variant() {
  static const SharedFusionVariant v;
  return v;
}

}  // namespace flowtune::cuda
