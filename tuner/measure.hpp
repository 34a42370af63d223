// The measurement harness (an observer: it only measures): time per execution, energy and
// the workload's metrics of one config on an input set.
#pragma once

#include <cstddef>
#include <exception>
#include <optional>
#include <string>
#include <vector>

#include "boards/energy_sensor.hpp"
#include "db/repository.hpp"
#include "variants/buffer_retention.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// Repetition policy (ARCHITECTURE.md "Measuring": warm-up first, repeat to a minimum window,
/// median and spread; energy windows of at least 200 ms, which the tuner asks for only when
/// energy is an objective). The default values: docs/decisions.md, "Measuring window".
struct MeasureOptions {
  int warmup_rounds = 1;     ///< untimed executions per item (build, caches, graph capture)
  int min_rounds = 3;        ///< timed executions per item, at least
  int max_rounds = 1000000;  ///< and at most
  double min_window_ms = 0;  ///< per item, keep repeating until the timed window lasts this long
  /// Adaptive repetition: after min_rounds and min_window_ms, go on until the 95% confidence
  /// interval of the median (median_ci_halfwidth) is within this fraction of the median;
  /// 0 = no such rule.
  double ci_fraction = 0.02;
  double max_window_ms = 1000;  ///< the adaptive rule stops repeating after this window
  bool energy =
      true;  ///< read the energy sensor (the tuner sets it only when energy is an objective)
  /// Pictures of the first item's output (Runner::pictures, stored as PNG with the
  /// measurement, table item_images) at most this many pixels on a side; 0 = none.
  int picture_max_side = 128;
};

/// The cap on freed GPU buffers kept for the next point (set_buffer_retention, variants/
/// buffer_retention.hpp) that measure_config sets when the process has none: 1 GiB, ten times
/// the frame buffers of the 8 Middlebury sequences at their three sizes (about 35 MB a 640 x
/// 480 size in f32), and at most 1/32 of a 32 GB Jetson's shared memory.
constexpr std::size_t kMeasureBufferRetentionBytes = std::size_t(1) << 30;

/// Half-width of a 95% confidence interval of the median of samples, relative to the median.
/// n >= 6: distribution-free, from the order statistics of ranks n/2 -+ 0.98 sqrt(n) (the
/// normal approximation of the binomial; Conover, "Practical nonparametric statistics", 3rd
/// ed., sec. 3.2); 3 <= n < 6: the asymptotic 1.96 * 1.2533 * s / sqrt(n) (s the sample
/// standard deviation; the median's standard error under normality). Infinity for n < 3 or a
/// median <= 0.
double median_ci_halfwidth(std::vector<double> samples);

/// Where one measurement's wall time went, in seconds: the phases of measure_config, for the
/// tuner's account of its wall clock (the run's last line; never stored). A runner's run()
/// returns when its output is ready (a GPU runner synchronises), so each phase is the host's
/// wall time of that phase.
struct MeasurePhases {
  double build_s = 0;      ///< Workload::make_runner: the kernels' build or load, set-up
  double first_run_s = 0;  ///< each item's first, scored execution (allocation, capture)
  double score_s = 0;      ///< Runner::score (the metrics against the ground truth)
  double pictures_s = 0;   ///< Runner::pictures (the report's images of the first item)
  double warmup_s = 0;     ///< further untimed executions
  double timed_s = 0;      ///< the timed windows
  double teardown_s = 0;   ///< the runner's destruction (graphs destroyed, buffers kept or freed)
  double protocol_s = 0;   ///< a worker's request decoding and answer encoding around the rest
  MeasurePhases& operator+=(const MeasurePhases& o);
  double total_s() const;
};

/// The outcome of measuring one config. ok: measurement holds the row (run_id 0). Otherwise
/// failure_class is "compile", "runtime", "accuracy", "timeout" or "environment" and message
/// says what happened (e.g. "worker died: signal 11 (Segmentation fault)"); cancelled: a
/// SIGINT/SIGTERM stopped it (not a failure).
struct MeasureResult {
  bool ok = false, cancelled = false;
  db::MeasurementRow measurement;
  std::string failure_class, message;
  MeasurePhases phases;  ///< where its time went (as far as it got)
};

/// Class of a failure for the failures table (db::FailureRow): "accuracy" for CheckFailed,
/// "environment" for allocation, file-system and database errors, else "runtime".
std::string classify_failure(const std::exception& e);

/// Builds config's runner (Workload::make_runner: the kernel build) and measures it with
/// measure_runner: the one measuring path of every evaluator (tuner/evaluator.hpp) and of
/// the worker process. Never throws for a failure of the config: a throw while building is
/// a "compile" failure (allocation failures excepted), while running classify_failure's
/// class; Cancelled gives cancelled. A test binary may replace the measuring with
/// set_config_measurer (measure_config then calls it instead). Turns the process's buffer
/// retention on (kMeasureBufferRetentionBytes) when it is off.
MeasureResult measure_config(const Workload& workload, const db::ConfigRow& config,
                             const InputSet& inputs, EnergySensor* sensor,
                             const MeasureOptions& options);

/// A replacement of measure_config's building and timing, for test binaries only (a
/// deterministic measurer, fault injection); nullptr restores the real one. The production
/// `tune` never sets one.
using ConfigMeasurer = MeasureResult (*)(const Workload& workload, const db::ConfigRow& config,
                                         const InputSet& inputs, EnergySensor* sensor,
                                         const MeasureOptions& options);
void set_config_measurer(ConfigMeasurer measurer);

/// Measures runner on every item of inputs, one item after the other (a GPU solver keeps one
/// size's buffers and CUDA graph, so alternating sizes would time re-allocation). Per item:
/// warm-up executions (the first one's output is scored: Runner::score gives the workload's
/// metrics), then timed executions until min_rounds and min_window_ms are reached and the
/// confidence interval of the median is within ci_fraction (or the window passed
/// max_window_ms), at most max_rounds. The
/// row holds, averaged over items, the median/min/max time per execution in ms and each
/// metric; ns_per_unit = sum of the medians / sum of the items' work. Energy: one sensor
/// window (>= min_window_ms) per item's timed executions; energy_mj is per execution,
/// nj_per_unit per work unit, power_w the mean power over the windows. sensor may be nullptr;
/// energy stays NULL (nullopt) when there is no sensor or any window cannot be read, never
/// 0. Pictures: Runner::pictures of the first item after its scored run (once per config,
/// untimed) into row.images, when options.picture_max_side > 0.
/// phases, when given, gets each phase's seconds added (MeasurePhases; build_s untouched).
/// Throws whatever the runner throws (CheckFailed for a failed correctness check).
db::MeasurementRow measure_runner(Runner& runner, const InputSet& inputs, EnergySensor* sensor,
                                  const MeasureOptions& options, MeasurePhases* phases = nullptr);

}  // namespace flowtune
