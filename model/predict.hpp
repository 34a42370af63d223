// The performance model of `tune predict`: time and energy per frame of a TV-L1
// CUDA config on a board nobody measured, from one calibration board's measurements.
//
// Per pixel of a level, 10 inner iterations cost (ns)
//   t10 = max(t_cal_work x (BW_cal / BW_b) x hide(occ_cal) / hide(occ_b),  flop_px / peak_b)
// where t_cal_work is the calibration's ns/px (model/calibration/*.csv) less its launches,
// BW the boards' data-sheet memory bandwidth (a roofline under the bandwidth roof: the
// kernels are memory-bound, Romera et al. 2023 table 1: 0.3-0.7 FLOP/B), occ the occupancy of
// the config's least occupied kernel (tuner/occupancy.hpp over the board's limits and the
// NVRTC resource report for the board's arch), hide(occ) = min(1, occ / occupancy_to_hide)
// (latency hiding: below that occupancy achieved bandwidth falls in proportion), and peak_b
// the board's FP32 (x fp16_rate for f16) FLOP/s. A frame adds, per pyramid level and warping,
// the launches (launch_latency_us each) and the pyramid/warping work (kAuxBytesPerPixel at
// kAuxBandwidthFraction of the bandwidth). Energy = load_power_w x kernel time + idle_power_w
// x launch time.
#pragma once

#include <string>
#include <vector>

#include "boards/board.hpp"
#include "model/calibration.hpp"
#include "variants/config.hpp"
#include "variants/variant.hpp"

namespace flowtune::model {

/// Occupancy (active warps / max warps per SM) above which a memory-bound kernel is assumed to
/// hide DRAM latency fully. Assumed, not fitted (validated at 0.125, 0.25 and 0.5:
/// docs/decisions.md, "Performance model constants").
inline constexpr double kOccupancyToHide = 0.25;
/// Bytes per level pixel of a frame's work outside the iterations (presmooth, pyramid,
/// gradient, bicubic warping, flow zoom), counted by hand from the frame stages
/// (variants/cuda/frame_stages.cpp): ~20 float fields read or written. Assumed.
inline constexpr double kAuxBytesPerPixel = 80;
/// Fraction of the data-sheet bandwidth those kernels reach. Assumed.
inline constexpr double kAuxBandwidthFraction = 0.5;
/// Kernel launches per level and warping outside the iterations (H200 timeline, ~20 for 3
/// levels: docs/decisions.md, "Performance model constants").
inline constexpr int kAuxLaunchesPerLevel = 7;

/// The model's view of one config on one board.
struct IterationPrediction {
  double ns_per_px_10it = 0;  ///< 10 iterations, per pixel, large level (launches excluded)
  double launches_per_iteration = 0;
  double occupancy = 0, occupancy_calibration = 0;
  int blocks_per_sm = 0;
  std::string limited_by;            ///< the binding occupancy limit on the board (tuner/occupancy)
  std::string bound;                 ///< "memory" or "compute": which term of the max won
  bool estimated_resources = false;  ///< the board's resources are a stand-in arch's
  std::string calibration;           ///< "h200 shared_pipeline f16 depth=5 ..."
  /// The board refit's factor of this scheme x precision (model/board_refit.hpp): multiplies
  /// the frame's time (kernels and launches, so its energy too); 1 = not refit.
  double board_factor = 1;
};

/// Kernel launches per inner iteration of a scheme: global 2 (u and p), shared_fusion 1,
/// the pipelines 1 / depth; resident/tiled levels are not modelled (counted as the scheme).
double launches_per_iteration(const Config& config);

/// The per-iteration prediction of config on board. kernels_board / kernels_cal: the config's
/// resource reports for board.arch() and for the calibration board's arch (with
/// threads_per_block and dynamic shared memory set, as Variant::resources gives them). Throws
/// std::invalid_argument when the calibration has no entry for the config's variant x
/// precision, or when board has no [model] facts (naming its file).
IterationPrediction predict_iterations(const Board& board, const Board& calibration_board,
                                       const std::vector<CalibrationEntry>& calibration,
                                       const Config& config,
                                       const std::vector<KernelResources>& kernels_board,
                                       const std::vector<KernelResources>& kernels_cal,
                                       double occupancy_to_hide = kOccupancyToHide);

/// Time and energy of one frame.
struct FramePrediction {
  double time_ms = 0, kernel_ms = 0, launch_ms = 0;
  double energy_mj = 0;
};

/// The parameters predict_frame reads (iterations, n_scales, n_warpings, zoom): the only
/// parameters whose values the model tells apart. Configs that differ only in other
/// parameters get the same prediction.
const std::vector<std::string>& costed_params();

/// The work of one frame that does not depend on the kernel config: sums over the pyramid
/// levels and warpings of predict_frame's terms, so that the frames of many kernel configs at
/// one parameter point cost a few multiplications each.
struct FrameWork {
  double iteration_px_10 = 0;  ///< sum of warpings x iterations / 10 x level pixels
  double aux_px = 0;           ///< sum of warpings x level pixels
  double iterations = 0;       ///< sum of warpings x iterations (launches per iteration apply)
  double aux_launches = 0;     ///< sum of warpings x kAuxLaunchesPerLevel
};

/// The FrameWork of a width x height frame with config's parameters (as predict_frame reads
/// them).
FrameWork frame_work(const Config& config, int width, int height);

/// predict_frame from a precomputed FrameWork: the same figures as
/// predict_frame(board, it, config, width, height) for work = frame_work(config, width, height).
FramePrediction predict_frame(const Board& board, const IterationPrediction& it,
                              const FrameWork& work);

/// A frame of width x height with config's n_scales (0 = automatic, kernels/tvl1_params.hpp
/// effective_n_scales), zoom (default 0.5; level sides by kernels/image_ops.hpp zoom_size),
/// n_warpings and iterations:
/// sum over levels and warpings of iterations/10 x pixels x ns_per_px_10it, the aux work, and
/// the launches; both x it.board_factor; energy as in the file comment.
FramePrediction predict_frame(const Board& board, const IterationPrediction& it,
                              const Config& config, int width, int height);

/// Largest square side (multiple of 2 px) whose frame fits budget_ms; 0 when none from 16 px.
int largest_square_side(const Board& board, const IterationPrediction& it, const Config& config,
                        double budget_ms);

}  // namespace flowtune::model
