#include "tests/doubles/fake_measure.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

#include "db/host_name.hpp"
#include "kernels/cancellation.hpp"
#include "tests/doubles/constant_power_sensor.hpp"

namespace flowtune {
namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return h;
}

void log_line(const std::string& line) {
  const char* path = std::getenv("FLOWTUNE_TEST_FAKE_MEASURE_LOG");
  if (!path || !*path) return;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) throw std::runtime_error(std::string(path) + ": cannot open the fake-measure log");
  const std::string text = line + "\n";
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) throw std::runtime_error(std::string(path) + ": cannot write the fake-measure log");
}

// FLOWTUNE_TEST_FAKE_MEASURE_HANG=PATH: the first measurement (of any process) that creates
// PATH writes its key there and hangs for good, deaf to cancellation (a measurement that
// never returns while its worker lives).
void hang_if_first(const std::string& key) {
  const char* path = std::getenv("FLOWTUNE_TEST_FAKE_MEASURE_HANG");
  if (!path || !*path) return;
  const int fd = ::open(path, O_WRONLY | O_CREAT | O_EXCL, 0644);
  if (fd < 0) return;  // another measurement hangs already
  const bool ok = ::write(fd, key.data(), key.size()) == static_cast<ssize_t>(key.size());
  ::close(fd);
  if (!ok) throw std::runtime_error(std::string(path) + ": cannot write the hanging key");
  for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
}

}  // namespace

std::optional<double> fake_measure_sleep_ms() {
  const char* env = std::getenv("FLOWTUNE_TEST_FAKE_MEASURE");
  if (!env || !*env) return std::nullopt;
  char* end = nullptr;
  const double ms = std::strtod(env, &end);
  if (*end != '\0' || !(ms >= 0) || !std::isfinite(ms))
    throw std::invalid_argument(std::string("FLOWTUNE_TEST_FAKE_MEASURE='") + env +
                                "': expected a sleep in ms (a number >= 0)");
  return ms;
}

db::MeasurementRow fake_measurement(const Workload& workload, const db::ConfigRow& config,
                                    const InputSet& inputs, double sleep_ms) {
  const std::string key = db::config_key(config);
  log_line("begin " + key);
  hang_if_first(key);
  const auto until =
      std::chrono::steady_clock::now() + std::chrono::duration<double, std::milli>(sleep_ms);
  while (std::chrono::steady_clock::now() < until) {
    throw_if_cancelled();
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  const std::uint64_t h = fnv1a(key);
  db::MeasurementRow m;
  m.dataset = inputs.key();
  m.time_ms_median = m.time_ms_min = m.time_ms_max = 1 + double(h % 1000) / 100;
  m.n_repeats = 1;
  double work = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) work += inputs.item_work(i);
  m.ns_per_unit = work > 0 ? m.time_ms_median * 1e6 * double(inputs.size()) / work : 0;
  for (const MetricSpec& spec : workload.metrics())
    m.metrics[spec.name] = double((h >> 20) % 1000) / 1000;
  for (std::size_t i = 0; i < inputs.size(); ++i)
    m.items.push_back({inputs.item_name(i), m.time_ms_median, m.metrics});
  log_line("end " + key);
  return m;
}

void add_fake_energy(db::MeasurementRow& m, const InputSet& inputs, EnergySensor& sensor,
                     double window_ms) {
  double energy_mj = 0, elapsed_ms = 0, runs = 0, work = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const auto begin = std::chrono::steady_clock::now();
    sensor.start();
    const auto until = begin + std::chrono::duration<double, std::milli>(window_ms);
    while (std::chrono::steady_clock::now() < until) {
      throw_if_cancelled();
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    const std::optional<double> mj = sensor.stop_mj();
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - begin).count();
    if (!mj) return;  // energy stays NULL
    energy_mj += *mj;
    elapsed_ms += ms;
    const double item_runs = ms / m.time_ms_median;
    runs += item_runs;
    work += item_runs * inputs.item_work(i);
  }
  if (runs <= 0) return;
  m.energy_mj = energy_mj / runs;
  m.nj_per_unit = work > 0 ? energy_mj * 1e6 / work : 0;
  m.power_w = energy_mj / elapsed_ms;
}

namespace {

// FLOWTUNE_TEST_FAKE_ENERGY_W=W: a sensor whose counter grows by W mJ per ms of the steady
// clock (a board drawing W watts), with a 50 ms window; "none": no sensor.
std::unique_ptr<EnergySensor> fake_energy_sensor(const Board&) {
  const char* env = std::getenv("FLOWTUNE_TEST_FAKE_ENERGY_W");
  if (std::string(env) == "none") return nullptr;
  const double watts = std::strtod(env, nullptr);
  return std::make_unique<ConstantPowerSensor>(watts, 50.0);
}

MeasureResult fake_measure_config(const Workload& workload, const db::ConfigRow& config,
                                  const InputSet& inputs, EnergySensor* sensor,
                                  const MeasureOptions& options) {
  MeasureResult r;
  try {
    r.measurement = fake_measurement(workload, config, inputs, *fake_measure_sleep_ms());
    if (options.energy && sensor && options.max_rounds > 0)
      add_fake_energy(r.measurement, inputs, *sensor, options.min_window_ms);
    r.ok = true;
  } catch (const Cancelled&) {
    r.cancelled = true;
  }
  return r;
}

// The test binary's measurer: the fake one when FLOWTUNE_TEST_FAKE_MEASURE is set (in the
// coordinator and, inherited, in every worker process it starts). FLOWTUNE_TEST_HOSTNAME=NAME
// makes the process play host NAME of a fleet (db::set_host_name).
const bool kInstalled = [] {
  if (fake_measure_sleep_ms()) set_config_measurer(&fake_measure_config);
  if (const char* w = std::getenv("FLOWTUNE_TEST_FAKE_ENERGY_W"); w && *w)
    set_energy_sensor_maker(&fake_energy_sensor);
  if (const char* host = std::getenv("FLOWTUNE_TEST_HOSTNAME")) db::set_host_name(host);
  return true;
}();

}  // namespace
}  // namespace flowtune
