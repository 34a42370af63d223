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
  int warmup_rounds = 1;        ///< untimed rounds over all sequences (build, caches, clocks)
  int min_rounds = 3;           ///< timed rounds over all sequences, at least
  int max_rounds = 200;         ///< and at most
  double min_window_ms = 200;   ///< keep repeating until the timed window lasts this long
};

/// Measures solver on every sequence. A round computes each sequence's frame pair once; the
/// first warm-up round's flows give the accuracy (AEPE/AAE vs ground truth, Baker et al.
/// 2011, via flow_error). Per round r, frame time t_r = (wall time of the round) / n_seq; the
/// row holds median/min/max of t_r in ms, ns_per_px = median over rounds of round time /
/// round pixels. Energy: sensor (may be nullptr) spans all timed rounds; energy_mj is per
/// frame, nj_per_px per pixel, power_w the mean power; they stay NULL (nullopt) when there
/// is no sensor or it cannot be read, never 0. Throws whatever the solver throws.
db::MeasurementRow measure_frames(FlowSolver& solver, const std::vector<Sequence>& sequences,
                                  EnergySensor* sensor, const MeasureOptions& options);

}  // namespace flowtune
