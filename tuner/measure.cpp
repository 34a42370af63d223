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
  if (sequences.empty()) throw std::invalid_argument("measure_frames: no sequence to measure");
  db::MeasurementRow row;
  row.dataset = dataset_key(sequences);

  // Warm-up rounds; the first one's flows are the accuracy figures.
  double aepe_sum = 0, aae_sum = 0;
  for (int r = 0; r < std::max(1, options.warmup_rounds); ++r) {
    for (const Sequence& s : sequences) {
      const auto t0 = clock::now();
      const FlowField flow = solver.compute(s.i0, s.i1);
      const double ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
      if (r == 0) {
        const FlowError e = flow_error(flow, s.ground_truth);
        row.sequences.push_back({s.name, ms, e.aepe, e.aae_deg});
        aepe_sum += e.aepe;
        aae_sum += e.aae_deg;
      }
    }
  }
  const double n_seq = double(sequences.size());
  row.aepe = aepe_sum / n_seq;
  row.aae_deg = aae_sum / n_seq;

  std::size_t round_pixels = 0;
  for (const Sequence& s : sequences) round_pixels += s.pixels();

  std::vector<double> frame_ms, ns_per_px;
  std::vector<std::vector<double>> per_sequence_ms(sequences.size());
  if (sensor) sensor->start();
  const auto window_start = clock::now();
  for (int r = 0; r < options.max_rounds; ++r) {
    const auto t0 = clock::now();
    for (std::size_t i = 0; i < sequences.size(); ++i) {
      const auto ts = clock::now();
      (void)solver.compute(sequences[i].i0, sequences[i].i1);
      per_sequence_ms[i].push_back(std::chrono::duration<double, std::milli>(clock::now() - ts).count());
    }
    const double round_ms = std::chrono::duration<double, std::milli>(clock::now() - t0).count();
    frame_ms.push_back(round_ms / n_seq);
    ns_per_px.push_back(round_ms * 1e6 / double(round_pixels));
    const double window_ms =
        std::chrono::duration<double, std::milli>(clock::now() - window_start).count();
    if (r + 1 >= options.min_rounds && window_ms >= options.min_window_ms) break;
  }
  const double window_ms = std::chrono::duration<double, std::milli>(clock::now() - window_start).count();
  if (sensor) {
    if (const std::optional<double> mj = sensor->stop_mj(); mj && *mj > 0) {
      const double frames = double(frame_ms.size()) * n_seq;
      row.energy_mj = *mj / frames;
      row.nj_per_px = *mj * 1e6 / (double(frame_ms.size()) * double(round_pixels));
      row.power_w = *mj / window_ms;  // mJ / ms = W
    }
  }
  row.n_repeats = int(frame_ms.size());
  row.time_ms_min = *std::min_element(frame_ms.begin(), frame_ms.end());
  row.time_ms_max = *std::max_element(frame_ms.begin(), frame_ms.end());
  row.time_ms_median = boost::math::statistics::median(frame_ms);
  row.ns_per_px = boost::math::statistics::median(ns_per_px);
  for (std::size_t i = 0; i < sequences.size(); ++i)
    row.sequences[i].time_ms = boost::math::statistics::median(per_sequence_ms[i]);
  return row;
}

}  // namespace flowtune
