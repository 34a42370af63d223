#include "tuner/measure.hpp"

#include <algorithm>
#include <boost/math/statistics/univariate_statistics.hpp>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <limits>
#include <new>
#include <stdexcept>

#include "kernels/cancellation.hpp"
#include "select/config_rows.hpp"

namespace flowtune {

double median_ci_halfwidth(std::vector<double> samples) {
  const std::size_t n = samples.size();
  if (n < 3) return std::numeric_limits<double>::infinity();
  std::sort(samples.begin(), samples.end());
  const double median =
      n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;  // sorted stays sorted
  if (!(median > 0)) return std::numeric_limits<double>::infinity();
  if (n >= 6) {
    const double half = 0.98 * std::sqrt(double(n));
    const long lo = std::max(1L, long(std::floor(double(n) / 2 - half)));
    const long hi = std::min(long(n), long(std::ceil(double(n) / 2 + half)) + 1);
    return (samples[std::size_t(hi - 1)] - samples[std::size_t(lo - 1)]) / 2 / median;
  }
  double mean = 0, var = 0;
  for (double x : samples) mean += x / double(n);
  for (double x : samples) var += (x - mean) * (x - mean) / double(n - 1);
  return 1.96 * 1.2533 * std::sqrt(var / double(n)) / median;
}

MeasurePhases& MeasurePhases::operator+=(const MeasurePhases& o) {
  build_s += o.build_s;
  first_run_s += o.first_run_s;
  score_s += o.score_s;
  pictures_s += o.pictures_s;
  warmup_s += o.warmup_s;
  timed_s += o.timed_s;
  teardown_s += o.teardown_s;
  protocol_s += o.protocol_s;
  return *this;
}

double MeasurePhases::total_s() const {
  return build_s + first_run_s + score_s + pictures_s + warmup_s + timed_s + teardown_s +
         protocol_s;
}

db::MeasurementRow measure_runner(Runner& runner, const InputSet& inputs, EnergySensor* sensor_in,
                                  const MeasureOptions& options, MeasurePhases* phases_out) {
  MeasurePhases unused;
  MeasurePhases& phases = phases_out ? *phases_out : unused;
  if (options.max_rounds < 0 || options.min_rounds < 0 || options.warmup_rounds < 1)
    throw std::invalid_argument("measure_runner: need warmup_rounds >= 1, min/max_rounds >= 0");
  // Without a timed loop there is no energy window worth reading.
  EnergySensor* sensor = options.max_rounds > 0 && options.energy ? sensor_in : nullptr;
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  if (inputs.size() == 0) throw std::invalid_argument("measure_runner: no input to measure");
  db::MeasurementRow row;
  row.dataset = inputs.key();

  std::map<std::string, double> metric_sums;
  double median_sum = 0, min_sum = 0, max_sum = 0, work_sum = 0;
  double energy_mj = 0, energy_window_ms = 0, timed_work = 0;
  std::size_t timed_runs = 0;
  bool energy_ok = sensor != nullptr;
  for (std::size_t item = 0; item < inputs.size(); ++item) {
    // Warm-up: the first execution's output is scored; it also lets a GPU solver allocate
    // and capture its graph for this size outside the timed window.
    const auto first = clock::now();
    runner.run(item);
    const double first_ms = ms_since(first);
    phases.first_run_s += first_ms / 1000;
    auto phase_start = clock::now();
    const std::map<std::string, double> metrics = runner.score(item);
    phases.score_s += ms_since(phase_start) / 1000;
    phase_start = clock::now();
    if (item == 0 && options.picture_max_side > 0)
      for (OutputPicture& p : runner.pictures(item, options.picture_max_side))
        row.images.push_back(
            {inputs.item_name(item), p.kind, p.width, p.height, p.scale, std::move(p.png)});
    phases.pictures_s += ms_since(phase_start) / 1000;
    phase_start = clock::now();
    for (int r = 1; r < options.warmup_rounds; ++r) runner.run(item);
    phases.warmup_s += ms_since(phase_start) / 1000;
    for (const auto& [name, value] : metrics) metric_sums[name] += value;

    std::vector<double> run_ms;
    if (sensor) sensor->start();
    const auto window_start = clock::now();
    for (int r = 0; r < options.max_rounds; ++r) {
      throw_if_cancelled();
      const auto t0 = clock::now();
      runner.run(item);
      run_ms.push_back(ms_since(t0));
      if (r + 1 < options.min_rounds) continue;
      const double window = ms_since(window_start);
      if (window < options.min_window_ms) continue;
      if (options.ci_fraction <= 0 || window >= options.max_window_ms ||
          median_ci_halfwidth(run_ms) <= options.ci_fraction)
        break;
    }
    if (run_ms.empty()) run_ms.push_back(first_ms);  // max_rounds 0: the scored run's time
    const double window_ms = ms_since(window_start);
    phases.timed_s += window_ms / 1000;
    if (sensor) {
      const std::optional<double> mj = sensor->stop_mj();
      if (mj && *mj > 0) {
        energy_mj += *mj;
        energy_window_ms += window_ms;
      } else {
        energy_ok = false;
      }
    }
    const double median = boost::math::statistics::median(run_ms);
    row.items.push_back({inputs.item_name(item), median, metrics});
    median_sum += median;
    min_sum += *std::min_element(run_ms.begin(), run_ms.end());
    max_sum += *std::max_element(run_ms.begin(), run_ms.end());
    work_sum += inputs.item_work(item);
    timed_runs += run_ms.size();
    timed_work += double(run_ms.size()) * inputs.item_work(item);
  }
  const double n = double(inputs.size());
  for (const auto& [name, sum] : metric_sums) row.metrics[name] = sum / n;
  row.time_ms_median = median_sum / n;
  row.time_ms_min = min_sum / n;
  row.time_ms_max = max_sum / n;
  row.ns_per_unit = median_sum * 1e6 / work_sum;
  row.n_repeats = int(double(timed_runs) / n + 0.5);
  if (energy_ok && timed_runs > 0) {
    row.energy_mj = energy_mj / double(timed_runs);
    row.nj_per_unit = energy_mj * 1e6 / timed_work;
    row.power_w = energy_mj / energy_window_ms;  // mJ / ms = W
  }
  return row;
}

namespace {
ConfigMeasurer g_measurer = nullptr;
}  // namespace

void set_config_measurer(ConfigMeasurer measurer) {
  g_measurer = measurer;
}

std::string classify_failure(const std::exception& e) {
  if (dynamic_cast<const CheckFailed*>(&e)) return "accuracy";
  if (dynamic_cast<const std::bad_alloc*>(&e) ||
      dynamic_cast<const std::filesystem::filesystem_error*>(&e) ||
      dynamic_cast<const db::DbError*>(&e))
    return "environment";
  return "runtime";
}

MeasureResult measure_config(const Workload& workload, const db::ConfigRow& config,
                             const InputSet& inputs, EnergySensor* sensor,
                             const MeasureOptions& options) {
  if (g_measurer) return g_measurer(workload, config, inputs, sensor, options);
  // One solver per point: the next point's frame buffers come from the ones this point frees
  // (variants/buffer_retention.hpp) instead of the driver's allocation and release.
  if (buffer_retention() == 0) set_buffer_retention(kMeasureBufferRetentionBytes);
  MeasureResult r;
  std::string stage = "compile";
  try {
    const auto build_start = std::chrono::steady_clock::now();
    std::unique_ptr<Runner> runner = workload.make_runner(to_config(config), inputs);
    r.phases.build_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - build_start).count();
    stage = "run";
    r.measurement = measure_runner(*runner, inputs, sensor, options, &r.phases);
    const auto teardown_start = std::chrono::steady_clock::now();
    runner.reset();
    r.phases.teardown_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - teardown_start).count();
    r.ok = true;
  } catch (const Cancelled&) {
    r.cancelled = true;  // a signal, not a failure of the config
  } catch (const std::exception& e) {
    r.failure_class = stage == "compile" && !dynamic_cast<const std::bad_alloc*>(&e)
                          ? "compile"
                          : classify_failure(e);
    r.message = e.what();
  }
  return r;
}

}  // namespace flowtune
