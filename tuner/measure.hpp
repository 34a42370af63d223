// The measurement harness (an observer: it only measures): time per frame, energy and
// accuracy of one config on a set of sequences.
#pragma once

#include <optional>
#include <vector>

#include "boards/energy_sensor.hpp"
#include "db/repository.hpp"
#include "tuner/dataset.hpp"
#include "variants/variant.hpp"

namespace flowtune {

/// Repetition policy (DESIGN.md "Measuring": warm-up first, repeat to a minimum window,
/// median and spread; energy windows of at least 200 ms).
struct MeasureOptions {
  int warmup_rounds = 1;        ///< untimed frames per sequence (build, caches, graph capture)
  int min_rounds = 3;           ///< timed frames per sequence, at least
  int max_rounds = 1000000;     ///< and at most (the window normally ends the loop first)
  double min_window_ms = 200;   ///< per sequence, keep repeating until the timed window lasts this long
};

/// Measures solver on every sequence, one sequence after the other (a GPU solver keeps one
/// frame size's buffers and CUDA graph, so alternating sizes would time re-allocation).
/// Per sequence: warm-up frames (the first one's flow gives the accuracy: AEPE/AAE vs
/// ground truth, Baker et al. 2011, via flow_error), then timed frames until both
/// min_rounds and min_window_ms are reached. The row holds, averaged over sequences, the
/// median/min/max frame time in ms; ns_per_px = sum of the medians / sum of the pixels.
/// Energy: one sensor window (>= min_window_ms) per sequence's timed frames; energy_mj is
/// per frame, nj_per_px per pixel, power_w the mean power over the windows. sensor may be
/// nullptr; energy stays NULL (nullopt) when there is no sensor or any window cannot be
/// read, never 0. Throws whatever the solver throws.
db::MeasurementRow measure_frames(FlowSolver& solver, const std::vector<Sequence>& sequences,
                                  EnergySensor* sensor, const MeasureOptions& options);

}  // namespace flowtune
