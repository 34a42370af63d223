// The model's prediction of one config of a workload's space, as `tune predict`, the board
// refit and the model_guided strategy's prior use it: the model inputs loaded once, the
// calibration board's resource reports reused when it has the predicted board's arch.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "db/repository.hpp"
#include "model/board_refit.hpp"
#include "model/calibration.hpp"
#include "model/predict.hpp"
#include "tuner/constraints.hpp"
#include "tuner/model_estimate.hpp"
#include "workloads/workload.hpp"

namespace flowtune::model {

/// What a prediction needs besides the config.
struct ModelInputs {
  Board board;              ///< the predicted board
  Board calibration_board;  ///< the board the calibration was measured on
  std::vector<CalibrationEntry> calibration;
  std::string calibration_path;
  double occupancy_to_hide = kOccupancyToHide;
  const Workload* workload = nullptr;
  std::optional<BoardRefit> refit;  ///< set by --calibrate-from: factors per scheme
  /// Where the calibration board's resource reports come from (tuner/constraints.hpp):
  /// `tune predict` reads the committed table first (ResourceSource::table_or_build).
  ResourceSource resources = ResourceSource::build;
};

/// Loads the calibration (calibration_path, "" = default_calibration_path()) and its board.
/// Throws std::invalid_argument when `board` is not a GPU board or has no [model] facts
/// (naming its file), what load_calibration throws, and std::runtime_error for an empty
/// calibration.
ModelInputs load_model_inputs(const Board& board, const Workload& workload,
                              const std::string& calibration_path, double occupancy_to_hide);

/// The iteration prediction of config c (with the refit's factor when inputs.refit is set),
/// kernels_board: c's resource report on inputs.board (the constraint check's). The
/// calibration board's report is kernels_board when both boards have the same arch, else
/// Variant::resources(c, calibration arch) (one NVRTC build, cached by hash; with
/// inputs.resources table_or_build, Variant::table_resources first). nullopt when
/// the calibration has no entry for c's variant x precision (other workloads, CPU variants).
/// Throws what predict_iterations throws (a kernel that cannot launch on the board).
std::optional<IterationPrediction> predict_config(
    const ModelInputs& inputs, const Config& c, const std::vector<KernelResources>& kernels_board);

/// The model_guided strategy's prior from the model (tuner/model_estimate.hpp, PriorModel):
/// the predicted time of a width x height frame in ms, nullopt where predict_config has none
/// or throws (that point is ranked after every predicted one).
PriorModel predicted_time_prior(std::shared_ptr<const ModelInputs> inputs, int width, int height);

/// The board's measurements of inputs.workload (every dataset of inputs.board in repo) next to
/// the model's uncalibrated prediction, for refit_board: the frame is a square of the
/// measurement's mean pixels per frame (time_ms_median / ns_per_unit), the board's kernels
/// the measurement's stored resource report (else the constraint check's). Measurements
/// without ns_per_unit or without a calibration entry are skipped.
std::vector<BoardSample> board_samples(const db::Repository& repo, const ModelInputs& inputs);

}  // namespace flowtune::model
