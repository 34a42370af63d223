// The performance model over a whole space (`tune predict`): one constraint check and one
// iteration prediction per kernel config (variant, precision, tunables), then the frame of each
// at every parameter point the model costs, folded into the predicted (time, energy) front
// without holding the configs (the default CUDA space has ~10^8 such pairs).
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "model/config_prediction.hpp"
#include "model/predict.hpp"
#include "tuner/constraint_checks.hpp"
#include "tuner/constraints.hpp"
#include "tuner/space.hpp"

namespace flowtune::model {

/// Kernel configs with one iteration prediction: the model tells them apart at no parameter
/// point (e.g. configs that differ only in resident_px).
struct CostClass {
  IterationPrediction it;
  std::vector<Config> members;  ///< each at the space's first parameter point
};

/// One row of the predicted front: the configs of `ties` (class, point) pairs, all predicted
/// the same time and energy.
struct FrontRow {
  FramePrediction frame;
  std::vector<std::pair<std::size_t, std::size_t>> ties;  ///< (class, parameter point)
};

/// The prediction of a space.
struct SpacePrediction {
  std::vector<CostClass> classes;
  std::vector<ParamValues> points;  ///< the space's parameter points
  std::size_t representative = 0;   ///< the point nearest the workload's defaults (see below)
  std::size_t kernel_configs = 0;   ///< in the space (after the filter)
  std::size_t predicted_kernel_configs = 0;
  /// Kernel configs pruned by the constraint checks: (label, reason), for group_prune_reasons.
  std::vector<std::pair<std::string, std::string>> pruned;
  std::map<std::string, std::size_t> not_predicted;  ///< other reasons -> kernel configs
  ResourceTally resources;
  std::vector<FrontRow> front;      ///< by time, ascending
  double sum_time_ms = 0;           ///< over every predicted config (kernel config x point)
  std::size_t distinct_builds = 0;  ///< of the predicted kernel configs (level thresholds aside)

  /// Predicted configs: predicted kernel configs x parameter points (computed, not listed).
  std::size_t predicted_configs() const { return predicted_kernel_configs * points.size(); }
  /// Config `member` of class u at parameter point j.
  Config config(std::size_t u, std::size_t member, std::size_t j) const;
  /// The names of the tunables and parameters whose values differ among the configs of row
  /// (empty for a row of one config), e.g. {"resident_px", "tiled_px"}.
  std::vector<std::string> differing(const FrontRow& row) const;
  /// The configs of row: the sum of its ties' class sizes.
  std::size_t configs_of(const FrontRow& row) const;
};

/// Predicts every config of `space` (a generated space whose parameter dimensions hold only
/// what the model should cost; the caller collapses the others) on inputs.board for a width x
/// height frame. Kernel configs for which keep(config) is false are skipped; each other is
/// checked (checks, the space's ConstraintChecks) and, when kept and calibrated, predicted
/// once (predict_config); its frames at the parameter points come from frame_work, so the
/// cost is per kernel config plus a few operations per (cost class, point). representative:
/// the point whose values of the costed parameters are the workload's defaults where the
/// space holds them, else the value nearest to the default. progress: a count line every 2 s (""
/// what = none). Throws std::invalid_argument for a listed space.
SpacePrediction predict_space(const ModelInputs& inputs, const ConfigSpace& space,
                              ConstraintChecks& checks,
                              const std::function<bool(const Config&)>& keep, int width, int height,
                              std::ostream* progress);

}  // namespace flowtune::model
