#include "variants/apsp/cuda/fw_tiled_variant.hpp"

#include <stdexcept>

#include "variants/cuda/nvrtc_build.hpp"
#include "variants/kernel_defines.hpp"

namespace flowtune::apsp_cuda {
namespace {

class FwTiledVariant : public ApspVariant {
 public:
  explicit FwTiledVariant(bool lower_triangle) : lower_triangle_(lower_triangle) {}
  std::string name() const override { return lower_triangle_ ? "fw_tiled_sym" : "fw_tiled"; }
  std::string target() const override { return "cuda"; }
  std::vector<TunableDomain> tunables() const override {
    return {{"tile", kTileValues}, {"block_x", kBlockXValues}, {"block_y", kBlockYValues}};
  }
  /// The NVRTC build of config for arch (no GPU needed; below sm_75 the sm_75 build stands
  /// in, `estimated` set): the ptxas report of the three stage kernels, threads_per_block =
  /// block_x * block_y, no dynamic shared memory (the tiles are static __shared__ arrays).
  std::vector<KernelResources> resources(const Config& config,
                                         const std::string& arch) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    const auto build =
        cuda::nvrtc_build(fw_tiled_source(lower_triangle_), fw_tiled_defines(config), arch);
    std::vector<KernelResources> out = build->resources;
    for (auto& r : out) {
      r.threads_per_block = config.tunable("block_x") * config.tunable("block_y");
      r.dynamic_shared_bytes = 0;
    }
    return out;
  }
  std::unique_ptr<ApspSolver> make_solver(const Config& config) const override {
    if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
    return make_fw_tiled_solver(config, lower_triangle_);
  }

 protected:
  std::optional<std::string> rule_invalid_reason(const Config& config) const override {
    if (auto why = fw_tiled_shape_invalid_reason(config.tunable("tile"), config.tunable("block_x"),
                                                 config.tunable("block_y")))
      return name() + ": " + *why;
    return std::nullopt;
  }

 private:
  bool lower_triangle_;
};

}  // namespace

int fw_tiled_shared_bytes(int tile) {
  return 2 * tile * (tile + 1) * 4;
}

std::optional<std::string> fw_tiled_shape_invalid_reason(int tile, int block_x, int block_y) {
  const std::string shape = "tile=" + std::to_string(tile) + " block_x=" + std::to_string(block_x) +
                            " block_y=" + std::to_string(block_y);
  if (tile <= 0 || block_x <= 0 || block_y <= 0) return shape + ": sizes must be positive";
  if (tile % block_x != 0) return shape + ": tile must be a multiple of block_x";
  if (tile % block_y != 0) return shape + ": tile must be a multiple of block_y";
  if (block_x * block_y > 1024)
    return shape + ": " + std::to_string(block_x * block_y) + " threads > 1024 per block";
  if (fw_tiled_shared_bytes(tile) > 48 * 1024)
    return shape + ": " + std::to_string(fw_tiled_shared_bytes(tile)) +
           " bytes of static shared memory > 48 KiB";
  return std::nullopt;
}

std::vector<std::string> fw_tiled_defines(const Config& config) {
  std::vector<std::string> d;
  for (const char* tunable : {"tile", "block_x", "block_y"})
    d.push_back(kernel_define(tunable, config.tunable(tunable)));
  return d;
}

std::string fw_tiled_source(bool lower_triangle) {
  return lower_triangle ? "apsp_fw_tiled_sym.cuh" : "apsp_fw_tiled.cuh";
}

std::vector<std::string> fw_tiled_kernels(bool lower_triangle) {
  if (lower_triangle) return {"apsp_fw_sym_stage1", "apsp_fw_sym_stage2", "apsp_fw_sym_stage3"};
  return {"apsp_fw_stage1", "apsp_fw_stage2", "apsp_fw_stage3"};
}

const ApspVariant& fw_tiled_variant() {
  static const FwTiledVariant v(false);
  return v;
}

const ApspVariant& fw_tiled_sym_variant() {
  static const FwTiledVariant v(true);
  return v;
}

// After the host APSP variants (rank 200).
FLOWTUNE_REGISTER_VARIANTS(210, &fw_tiled_variant(), &fw_tiled_sym_variant());

}  // namespace flowtune::apsp_cuda
