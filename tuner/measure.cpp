#include "tuner/measure.hpp"

#include <algorithm>
#include <boost/math/statistics/univariate_statistics.hpp>
#include <chrono>
#include <stdexcept>

#include "kernels/metrics.hpp"

namespace flowtune {

db::MeasurementRow measure_frames(FlowSolver& solver, const std::vector<Sequence>& sequences,
                                  EnergySensor* sensor, const MeasureOptions& options) {
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  if (sequences.empty()) throw std::invalid_argument("measure_frames: no sequence to measure");
  db::MeasurementRow row;
  row.dataset = dataset_key(sequences);

  double aepe_sum = 0, aae_sum = 0, median_sum = 0, min_sum = 0, max_sum = 0;
  double energy_mj = 0, energy_window_ms = 0, timed_pixels = 0;
  std::size_t timed_frames = 0, pixel_sum = 0;
  bool energy_ok = sensor != nullptr;
  for (const Sequence& s : sequences) {
    // Warm-up: the first frame's flow is the accuracy figure; it also lets a GPU solver
    // allocate and capture its graph for this frame size outside the timed window.
    FlowField flow = solver.compute(s.i0, s.i1);
    const FlowError e = flow_error(flow, s.ground_truth);
    for (int r = 1; r < options.warmup_rounds; ++r) (void)solver.compute(s.i0, s.i1);
    aepe_sum += e.aepe;
    aae_sum += e.aae_deg;

    std::vector<double> frame_ms;
    if (sensor) sensor->start();
    const auto window_start = clock::now();
    for (int r = 0; r < options.max_rounds; ++r) {
      const auto t0 = clock::now();
      (void)solver.compute(s.i0, s.i1);
      frame_ms.push_back(ms_since(t0));
      if (r + 1 >= options.min_rounds && ms_since(window_start) >= options.min_window_ms) break;
    }
    const double window_ms = ms_since(window_start);
    if (sensor) {
      const std::optional<double> mj = sensor->stop_mj();
      if (mj && *mj > 0) {
        energy_mj += *mj;
        energy_window_ms += window_ms;
      } else {
        energy_ok = false;
      }
    }
    const double median = boost::math::statistics::median(frame_ms);
    row.sequences.push_back({s.name, median, e.aepe, e.aae_deg});
    median_sum += median;
    min_sum += *std::min_element(frame_ms.begin(), frame_ms.end());
    max_sum += *std::max_element(frame_ms.begin(), frame_ms.end());
    pixel_sum += s.pixels();
    timed_frames += frame_ms.size();
    timed_pixels += double(frame_ms.size()) * double(s.pixels());
  }
  const double n_seq = double(sequences.size());
  row.aepe = aepe_sum / n_seq;
  row.aae_deg = aae_sum / n_seq;
  row.time_ms_median = median_sum / n_seq;
  row.time_ms_min = min_sum / n_seq;
  row.time_ms_max = max_sum / n_seq;
  row.ns_per_px = median_sum * 1e6 / double(pixel_sum);
  row.n_repeats = int(double(timed_frames) / n_seq + 0.5);
  if (energy_ok && timed_frames > 0) {
    row.energy_mj = energy_mj / double(timed_frames);
    row.nj_per_px = energy_mj * 1e6 / timed_pixels;
    row.power_w = energy_mj / energy_window_ms;  // mJ / ms = W
  }
  return row;
}

}  // namespace flowtune
