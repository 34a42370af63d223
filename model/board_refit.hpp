// Calibration from the board itself: when the DB holds measurements of the predicted board,
// the model's per-scheme efficiency is refit from them (`tune predict --calibrate-from DB`),
// and the remaining error is stated as a leave-one-out error.
//
// The model's frame time is kernel_ms + launch_ms (model/predict.hpp); the refit scales the
// whole frame per scheme x precision by a factor f (the scheme's efficiency on this board
// relative to the model's, as measured; its launches per iteration are the scheme's too):
// t = f x (kernel_ms + launch_ms). Each measurement i gives f_i = measured_ms / (kernel_ms +
// launch_ms); a scheme's factor is the geometric mean of its f_i (the least-squares fit in
// ln f), and a scheme with no measurement gets the geometric mean of all f_i (board-wide).
// The whole frame rather than the kernel part alone: the launch term is the least certain
// (CUDA Graph launches of a frame cost far less than launch_latency_us each), and a kernel-only
// factor goes to its floor wherever the model's launches exceed the measured time.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace flowtune::model {

/// One measurement of the board next to the model's uncalibrated prediction of it.
struct BoardSample {
  std::string variant, precision, label;
  double kernel_ms = 0, launch_ms = 0;  ///< the model's frame at the measured frame size
  double measured_ms = 0;               ///< the DB's time_ms_median of the config
};

/// The refit factors and the errors before and after.
struct BoardRefit {
  std::map<std::string, double> factors;        ///< "variant precision" -> f
  std::map<std::string, std::size_t> n_scheme;  ///< samples per "variant precision"
  double global_factor = 1;                     ///< geometric mean of every f_i
  std::size_t n = 0;                            ///< samples
  /// Per sample: uncalibrated prediction (f = 1) and the leave-one-out prediction (f fitted
  /// without the sample: its scheme's other samples, else all other samples, else 1).
  std::vector<double> predicted_ms, loo_predicted_ms;
  /// median |ln(pred/meas)| and Spearman's rho (select/prediction_error.hpp), before the refit
  /// and leave-one-out after it; NaN where undefined (no sample, fewer than 2).
  double before_median_abs_log = 0, before_spearman = 0;
  double loo_median_abs_log = 0, loo_spearman = 0;

  /// The factor of variant x precision: its own, else global_factor.
  double factor(const std::string& variant, const std::string& precision) const;
};

/// Fits BoardRefit from samples. Throws std::invalid_argument naming the sample's label when
/// its kernel_ms + launch_ms or measured_ms is not > 0 (or launch_ms < 0).
BoardRefit refit_board(const std::vector<BoardSample>& samples);

}  // namespace flowtune::model
