#include "variants/kokkos_global.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/kokkos/kokkos_runtime.hpp"
#include "kernels/kokkos/tvl1_kokkos.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

constexpr const char* kName = "kokkos_global";
/// Largest tile side and tile area accepted: beyond these a tile is larger than any frame
/// flowtune handles and only hides a typo.
constexpr int kMaxTileSide = 1024;
constexpr int kMaxTilePixels = 1 << 16;

/// Runs one frame: the float pyramid/warping driver with the Kokkos inner iterations.
class KokkosGlobalSolver final : public FlowSolver {
 public:
  KokkosGlobalSolver(const Tvl1Params& params, KokkosTiles tiles)
      : params_(params), tiles_(tiles) {}

  FlowField compute(const Image& i0, const Image& i1) override { return run(i0, i1, nullptr); }
  FlowField compute_from(const Image& i0, const Image& i1, const FlowField& init) override {
    return run(i0, i1, &init);
  }

 private:
  FlowField run(const Image& i0, const Image& i1, const FlowField* init) {
    ensure_kokkos_initialized();
    return tvl1_multiscale<float>(
        i0, i1, params_,
        [this](const WarpingData<float>& w, Tvl1State<float>& s) {
          tvl1_iterate_kokkos(w, s, params_, params_.iterations, tiles_);
        },
        init);
  }

 private:
  Tvl1Params params_;
  KokkosTiles tiles_;
};

class KokkosGlobalVariant final : public FlowVariant {
 public:
  std::string name() const override { return kName; }
  std::string target() const override { return "cpu"; }
  std::vector<std::string> precisions() const override { return {"f32"}; }
  std::vector<TunableDomain> tunables() const override {
    return {{"tile_x", {8, 16, 32, 64, 128}}, {"tile_y", {1, 2, 4, 8, 16}}};
  }

  std::optional<std::string> invalid_reason(const Config& config) const override {
    const std::string who = std::string(kName) + ": ";
    if (config.variant != kName) return who + "config is for variant '" + config.variant + "'";
    if (config.precision != "f32")
      return who + "precision '" + config.precision + "' not supported (only f32)";
    for (const auto& [tunable, value] : config.tunables) {
      (void)value;
      if (tunable != "tile_x" && tunable != "tile_y")
        return who + "unknown tunable '" + tunable + "'";
    }
    for (const char* tunable : {"tile_x", "tile_y"}) {
      const auto it = config.tunables.find(tunable);
      if (it == config.tunables.end()) return who + "tunable " + tunable + " missing";
      if (it->second < 1 || it->second > kMaxTileSide)
        return who + tunable + "=" + std::to_string(it->second) + " outside [1, " +
               std::to_string(kMaxTileSide) + "]";
    }
    const long long area =
        static_cast<long long>(config.tunables.at("tile_x")) * config.tunables.at("tile_y");
    if (area > kMaxTilePixels)
      return who + "tile_x*tile_y=" + std::to_string(area) + " exceeds " +
             std::to_string(kMaxTilePixels) + " pixels";
    try {
      detail::check_tvl1_params(tvl1_params_of(config));
    } catch (const std::invalid_argument& e) {
      return who + e.what();
    }
    return std::nullopt;
  }

  bool takes_initial_flow() const override { return true; }
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (const auto reason = invalid_reason(config))
      throw std::invalid_argument("make_solver (variants/kokkos_global.cpp): " + *reason);
    ensure_kokkos_initialized();
    return std::make_unique<KokkosGlobalSolver>(
        tvl1_params_of(config), KokkosTiles{config.tunable("tile_x"), config.tunable("tile_y")});
  }
};

}  // namespace

const FlowVariant& kokkos_global_variant() {
  static const KokkosGlobalVariant variant;
  return variant;
}

// First of the TV-L1 variants (ranks 100-199; the CUDA schemes follow at 110).
FLOWTUNE_REGISTER_VARIANTS(100, &kokkos_global_variant());

}  // namespace flowtune
