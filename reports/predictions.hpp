// Predictions next to measurements: the JSON file `tune predict --out` writes (marked
// "kind": "predicted", never stored in the DB) read back, and matched by config key to the
// board's measurements for `tune report --predicted FILE`.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "db/rows.hpp"

namespace flowtune::reports {

/// One predicted config of a prediction file.
struct PredictedConfig {
  std::string key, label;  ///< db::config_key of the config, its label
  std::string variant, precision;
  double time_ms = 0;               ///< predicted frame time at the file's frame size
  double ns_per_px = 0;             ///< time_ms per pixel of that frame, ns
  std::optional<double> nj_per_px;  ///< predicted energy per pixel, nJ
};

/// A prediction file (cli/predict_command.cpp writes it).
struct Predictions {
  std::string path, board, workload, calibration;
  int width = 0, height = 0;  ///< the frame the times are for
  /// The board refit (`--calibrate-from DB`): its leave-one-out median |ln(pred/meas)|, or
  /// nullopt when the file was not calibrated from the board.
  std::optional<double> refit_loo_median_abs_log;
  std::string refit_db;  ///< the DB it was refit on, as given to --calibrate-from
  std::vector<PredictedConfig> configs;
};

/// Reads a prediction file. Throws std::runtime_error naming `path` when it cannot be read,
/// is not JSON, is not marked "kind": "predicted", or lacks a field (board, frame, configs
/// with key, label, time_ms, ns_per_px: a file of an older `tune predict` has no key).
Predictions load_predictions(const std::string& path);

/// One measured config that has a prediction.
struct PredictionRow {
  std::string dataset, label, variant, precision;
  double predicted_ns_per_px = 0, measured_ns_per_px = 0;
  double log_ratio = 0;  ///< ln(predicted / measured); > 0 = the model is pessimistic
  std::optional<double> predicted_nj_per_px, measured_nj_per_px;
};

/// The predictions of one file against the board's measurements.
struct PredictionComparison {
  Predictions predictions;
  std::size_t n_measured = 0;        ///< measurements of the board considered
  std::vector<PredictionRow> rows;   ///< measured configs with a prediction, measurement order
  double median_abs_log = 0;         ///< over rows (NaN when empty), select/prediction_error
  double spearman = 0;               ///< of predicted vs measured ns/px over rows (NaN < 2)
  double energy_median_abs_log = 0;  ///< over rows with both energies (NaN when none)
  std::size_t n_energy = 0;
};

/// Matches `measured` (the board's measurements, every dataset) to `p` by config key, in per
/// pixel terms: the prediction's time per pixel of its frame against the measurement's
/// ns_per_unit (time per pixel of the dataset's frames; measurements without it, e.g.
/// imported ones, are skipped), energy likewise against nj_per_unit.
PredictionComparison compare_predictions(const Predictions& p,
                                         const std::vector<db::MeasuredConfig>& measured);

}  // namespace flowtune::reports
