#include "variants/simd/simd_fused.hpp"

#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

constexpr const char* kName = "simd_fused";
/// Largest band accepted: a band taller than any frame flowtune handles only hides a typo.
constexpr int kMaxBandRows = 4096;

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
  std::string name() const override { return kName; }
  std::string target() const override { return "cpu"; }
  std::vector<std::string> precisions() const override { return {"f32", "mixed"}; }
  std::vector<TunableDomain> tunables() const override {
    // band_rows: 4 balances the bands best over many threads, 64 keeps the second phase
    // (one row per band) and the re-read of each band's border rows smallest.
    return {{"threads", host_thread_counts()}, {"band_rows", {4, 16, 64}}};
  }

  std::optional<std::string> invalid_reason(const Config& config) const override {
    const std::string who = std::string(kName) + ": ";
    if (config.variant != kName) return who + "config is for variant '" + config.variant + "'";
    if (config.precision != "f32" && config.precision != "mixed")
      return who + "precision '" + config.precision + "' not supported (f32, mixed)";
    for (const auto& [tunable, value] : config.tunables) {
      (void)value;
      if (tunable != "threads" && tunable != "band_rows")
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
        SimdSchedule{config.tunable("threads"), config.tunable("band_rows")},
        config.precision == "f32" ? SimdStorage::f32 : SimdStorage::binary16);
  }
};

}  // namespace

const FlowVariant& simd_fused_variant() {
  static const SimdFusedVariant variant;
  return variant;
}

// After kokkos_global (100), before the CUDA schemes (110).
FLOWTUNE_REGISTER_VARIANTS(105, &simd_fused_variant());

}  // namespace flowtune
