// The model estimate behind the model_guided strategy: a roofline-style prediction of a
// config's time from its work, its element size and the occupancy of its kernels, known
// before anything is measured.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "tuner/space.hpp"
#include "variants/config.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// Bytes of one stored element of a precision: f64 8, f32 and i32 4, f16 and mixed 2 (mixed
/// stores f16 and computes in f32), anything else 4.
double element_bytes(const std::string& precision);

/// Predicted time of config, in arbitrary units comparable across configs of one workload
/// and board (lower = faster): relative_cost(config) (the workload's work per unit, e.g. inner
/// iterations per pixel) x element_bytes / 4 (memory-bound kernels move bytes; a roofline
/// under the bandwidth roof) / efficiency, where efficiency = min(1, occupancy / 0.5) over the
/// config's least occupied kernel (latency hiding needs warps: below half occupancy the
/// achieved bandwidth falls in proportion; floor 0.05). kernels may be empty (CPU configs,
/// or no resource report): efficiency 1. A config whose workload gives no cost model (<= 0)
/// gets relative cost 1.
double model_estimate(const Workload& workload, const Config& config,
                      const std::vector<KernelResources>& kernels, const Board& board);

/// Another model's prior of a config (lower = predicted faster), e.g. the predicted frame
/// time of `tune predict`'s model (model/config_prediction.hpp, predicted_time_prior), from
/// the config and its kernels' resource report on the board (the constraint check's).
/// nullopt = the model cannot predict this config.
using PriorModel =
    std::function<std::optional<double>(const Config&, const std::vector<KernelResources>&)>;

/// The prior of every point of `space` (StrategyOptions::prior): model_estimate without
/// `model`; with it, the model's value where it has one, and every point it cannot predict
/// after all that it can, in model_estimate order among themselves (2 x the largest
/// predicted value + the estimate scaled to that value). kernels[i]: point i's resource
/// report (may be empty). Throws std::invalid_argument when the sizes differ.
std::vector<double> strategy_prior(const Workload& workload, const Board& board,
                                   const std::vector<Config>& space,
                                   const std::vector<std::vector<KernelResources>>& kernels,
                                   const PriorModel& model = {});
/// The same over a generated space (tuner/space.hpp), visited without holding its configs.
std::vector<double> strategy_prior(const Workload& workload, const Board& board,
                                   const ConfigSpace& space,
                                   const std::vector<std::vector<KernelResources>>& kernels,
                                   const PriorModel& model = {});

}  // namespace flowtune
