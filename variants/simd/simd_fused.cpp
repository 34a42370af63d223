#include "variants/simd/simd_fused.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "variants/simd/simd_target_tunable.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

constexpr const char* kSimdFused = "simd_fused";
/// Largest band or tile accepted: one larger than any frame flowtune handles only hides a
/// typo.
constexpr int kMaxBandRows = 4096;
constexpr int kMaxTileCols = 4096;
constexpr int kMaxTemporalDepth = 64;
/// The halo recomputation rule: a tile whose halo more than doubles the pixels computed per
/// iteration, (rows + 2 depth)(cols + 2 depth) > 2 rows cols, is pruned.
constexpr int kMaxHaloFactor = 2;

/// A tunable of config, or its value in configs made before it existed (their key lacks it).
int tunable_or(const Config& config, const char* name, int absent) {
  const auto it = config.tunables.find(name);
  return it == config.tunables.end() ? absent : it->second;
}

/// Runs one frame: the float pyramid/warping driver with the fused SIMD iterations.
class SimdFusedSolver final : public FlowSolver {
 public:
  SimdFusedSolver(const Tvl1Params& params, SimdSchedule schedule, SimdStorage storage)
      : params_(params), schedule_(schedule), storage_(storage) {}

  FlowField compute(const Image& i0, const Image& i1) override {
    return tvl1_multiscale<float>(
        i0, i1, params_, [this](const WarpingData<float>& w, Tvl1State<float>& s) {
          tvl1_iterate_simd(w, s, params_, params_.iterations, schedule_, storage_);
        });
  }

 private:
  Tvl1Params params_;
  SimdSchedule schedule_;
  SimdStorage storage_;
};

class SimdFusedVariant final : public FlowVariant {
 public:
  std::string name() const override { return kSimdFused; }
  std::string target() const override { return "cpu"; }
  std::vector<std::string> precisions() const override { return {"f32", "mixed", "f16"}; }
  /// f16 where the CPU computes in binary16 (Armv8.2-A FP16); elsewhere its exact emulation
  /// runs when asked for (--precision f16), but a search leaves it out.
  std::vector<std::string> default_precisions() const override {
    if (host_cpu().native_binary16) return precisions();
    return {"f32", "mixed"};
  }
  std::vector<TunableDomain> tunables() const override {
    // threads: searched at all the CPUs unless --tunable threads=... asks for fewer (fewer
    // threads only trade speed for a free core). band_rows: 4 balances the bands best over
    // many threads, 64 keeps the second phase (one row per band) and the re-read of each
    // band's border rows smallest; with temporal_depth > 1 it is the tile height.
    // temporal_depth 1 is the band sweep (tile_cols 0); > 1 runs that many iterations per
    // tile of band_rows x tile_cols, pruned by the L2 (cache_reason).
    const std::vector<int> threads = host_thread_counts();
    return {{"threads", threads, {threads.back()}},
            {"band_rows", {4, 16, 64}},
            {"temporal_depth", {1, 2, 4, 8}},
            {"tile_cols", {0, 128, 256, 512, 1024}},
            simd_target_domain()};
  }

  std::optional<std::string> invalid_reason(const Config& config) const override {
    const std::string who = std::string(kSimdFused) + ": ";
    if (config.variant != kSimdFused) return who + "config is for variant '" + config.variant + "'";
    if (config.precision != "f32" && config.precision != "mixed" && config.precision != "f16")
      return who + "precision '" + config.precision + "' not supported (f32, mixed, f16)";
    for (const auto& [tunable, value] : config.tunables) {
      (void)value;
      if (tunable != "threads" && tunable != "band_rows" && tunable != "temporal_depth" &&
          tunable != "tile_cols" && tunable != "simd_target")
        return who + "unknown tunable '" + tunable + "'";
    }
    for (const char* tunable : {"threads", "band_rows"})
      if (config.tunables.find(tunable) == config.tunables.end())
        return who + "tunable " + tunable + " missing";
    const int threads = config.tunables.at("threads");
    const int cpus = host_cpu().cpus;
    if (threads < 1) return who + "threads=" + std::to_string(threads) + " < 1";
    // Oversubscribed threads only time-share the CPUs and wait at every barrier.
    if (threads > cpus)
      return who + "threads=" + std::to_string(threads) + " exceeds the " + std::to_string(cpus) +
             " CPUs this process may run on (sched_getaffinity)";
    const int band_rows = config.tunables.at("band_rows");
    if (band_rows < 1 || band_rows > kMaxBandRows)
      return who + "band_rows=" + std::to_string(band_rows) + " outside [1, " +
             std::to_string(kMaxBandRows) + "]";
    const int depth = tunable_or(config, "temporal_depth", 1);
    const int tile_cols = tunable_or(config, "tile_cols", 0);
    if (depth < 1 || depth > kMaxTemporalDepth)
      return who + "temporal_depth=" + std::to_string(depth) + " outside [1, " +
             std::to_string(kMaxTemporalDepth) + "]";
    if (tile_cols < 0 || tile_cols > kMaxTileCols)
      return who + "tile_cols=" + std::to_string(tile_cols) + " outside [0, " +
             std::to_string(kMaxTileCols) + "]";
    if (const auto why =
            simd_fused_tile_reason(band_rows, tile_cols, depth, config.precision == "f32" ? 4 : 2,
                                   l2_bytes_per_cpu(host_cpu())))
      return who + *why;
    if (const auto why = simd_target_tunable_reason(kSimdFused, config)) return why;
    try {
      detail::check_tvl1_params(tvl1_params_of(config));
    } catch (const std::invalid_argument& e) {
      return who + e.what();
    }
    return std::nullopt;
  }

  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override {
    if (const auto reason = invalid_reason(config))
      throw std::invalid_argument("make_solver (variants/simd/simd_fused.cpp): " + *reason);
    return std::make_unique<SimdFusedSolver>(
        tvl1_params_of(config),
        SimdSchedule{config.tunable("threads"), config.tunable("band_rows"),
                     tunable_or(config, "temporal_depth", 1), tunable_or(config, "tile_cols", 0),
                     simd_target_bit(simd_target_code_of(config))},
        config.precision == "f32"     ? SimdStorage::f32
        : config.precision == "mixed" ? SimdStorage::binary16
                                      : SimdStorage::f16);
  }
};

}  // namespace

std::optional<std::string> simd_fused_tile_reason(int band_rows, int tile_cols, int temporal_depth,
                                                  int bytes_per_value, std::int64_t l2_bytes) {
  if (temporal_depth == 1) {
    if (tile_cols != 0)
      return "tile_cols=" + std::to_string(tile_cols) +
             " with temporal_depth=1: the band sweep runs whole rows (tile_cols 0)";
    return std::nullopt;
  }
  const std::string tile = std::to_string(band_rows) + "x" + std::to_string(tile_cols) +
                           " at temporal_depth=" + std::to_string(temporal_depth);
  if (tile_cols == 0)
    return "tile_cols=0 (whole rows) with temporal_depth=" + std::to_string(temporal_depth) +
           ": the tile's working set would depend on the frame width (give tile_cols > 0)";
  const std::int64_t computed =
      std::int64_t(band_rows + 2 * temporal_depth) * std::int64_t(tile_cols + 2 * temporal_depth);
  if (computed > kMaxHaloFactor * std::int64_t(band_rows) * std::int64_t(tile_cols))
    return "tile " + tile + ": the halo more than doubles the pixels computed per iteration (" +
           std::to_string(computed) + " > 2 x " + std::to_string(band_rows * tile_cols) + ")";
  const std::int64_t bytes =
      tile_working_set_bytes(band_rows, tile_cols, temporal_depth, bytes_per_value);
  if (l2_bytes > 0 && bytes > l2_bytes)
    return "tile " + tile + ": working set " + std::to_string(bytes) + " B (" +
           std::to_string(band_rows + 2 * temporal_depth) + " x " +
           std::to_string(tile_cols + 2 * temporal_depth) + " px x 9 fields x " +
           std::to_string(bytes_per_value) + " B) exceeds the L2 per CPU, " +
           std::to_string(l2_bytes) + " B (/sys/devices/system/cpu/cpu0/cache)";
  return std::nullopt;
}

const FlowVariant& simd_fused_variant() {
  static const SimdFusedVariant variant;
  return variant;
}

// After kokkos_global (100), before the CUDA schemes (110).
FLOWTUNE_REGISTER_VARIANTS(105, &simd_fused_variant());

}  // namespace flowtune
