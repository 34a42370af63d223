#include "boards/energy_sensor.hpp"

#include <algorithm>
#include <chrono>
#include <stdexcept>

#include "boards/nvml.hpp"
#include "boards/sysfs.hpp"

namespace flowtune {

EnergySensor::~EnergySensor() = default;

double trapezoid_energy_mj(const std::vector<PowerSample>& samples) {
  double mj = 0;
  for (std::size_t i = 1; i < samples.size(); ++i)
    mj += 0.5 * (samples[i - 1].power_mw + samples[i].power_mw) *
          (samples[i].t_s - samples[i - 1].t_s);
  return mj;
}

std::optional<double> counter_delta(double start, double end, double max_range) {
  if (end >= start) return end - start;
  if (max_range <= 0) return std::nullopt;
  return end + max_range - start;
}

namespace {
double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

// ---- SampledPowerSensor ----

SampledPowerSensor::SampledPowerSensor(std::string name,
                                       std::function<std::optional<double>()> read_mw,
                                       double period_ms)
    : name_(std::move(name)), read_mw_(std::move(read_mw)), period_ms_(period_ms) {}

SampledPowerSensor::~SampledPowerSensor() {
  halt();
}

void SampledPowerSensor::take_sample() {
  double t = now_s();
  auto p = read_mw_();
  if (!p) {
    failed_ = true;
    return;
  }
  samples_.push_back({t, *p});
}

void SampledPowerSensor::halt() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_requested_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void SampledPowerSensor::start() {
  halt();
  samples_.clear();
  failed_ = false;
  stop_requested_ = false;
  take_sample();
  thread_ = std::thread([this] {
    std::unique_lock<std::mutex> lock(mutex_);
    while (!wake_.wait_for(lock, std::chrono::duration<double, std::milli>(period_ms_),
                           [this] { return stop_requested_; })) {
      lock.unlock();
      take_sample();  // only this thread touches samples_ while the window is open
      lock.lock();
    }
  });
}

std::optional<double> SampledPowerSensor::stop_mj() {
  if (!thread_.joinable()) return std::nullopt;  // no open window
  halt();
  take_sample();
  if (failed_ || samples_.size() < 2) return std::nullopt;
  return trapezoid_energy_mj(samples_);
}

// ---- CounterEnergySensor ----

CounterEnergySensor::CounterEnergySensor(std::string name,
                                         std::function<std::optional<double>()> read_counter,
                                         double mj_per_unit, double max_range)
    : name_(std::move(name)),
      read_counter_(std::move(read_counter)),
      mj_per_unit_(mj_per_unit),
      max_range_(max_range) {}

void CounterEnergySensor::start() {
  start_value_ = read_counter_();
}

std::optional<double> CounterEnergySensor::stop_mj() {
  auto end = read_counter_();
  auto begin = start_value_;
  start_value_.reset();
  if (!begin || !end) return std::nullopt;
  auto d = counter_delta(*begin, *end, max_range_);
  if (!d) return std::nullopt;
  return *d * mj_per_unit_;
}

// ---- factories ----

namespace {

struct Channel {
  std::vector<std::string> files;  // iio: {in_power}; hwmon: {in (mV), curr (mA)}
};

/// Directories named by the profile: each pattern's glob matches under root, canonicalised
/// (sysfs::expand_checked). Throws std::runtime_error("<board file>: key 'power.paths':
/// refusing path '<pattern>': match '...' resolves to '...', outside <root>/sys") for a
/// match that leaves the sysfs root, e.g. through ".*" or a symbolic link.
std::vector<std::string> sensor_dirs(const Board& board, const std::string& root) {
  std::vector<std::string> dirs;
  for (const auto& p : board.power.paths) {
    std::vector<std::string> matches;
    try {
      matches = sysfs::expand_checked(p, root);
    } catch (const std::runtime_error& e) {
      throw std::runtime_error(board.source_file + ": key 'power.paths': " + e.what());
    }
    for (auto& d : matches)
      if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(std::move(d));
  }
  return dirs;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r\n") - b + 1);
}

/// Finds each rail of the profile among the INA3221 channels of dirs.
std::vector<Channel> find_rails(const Board& board, const std::vector<std::string>& dirs,
                                bool hwmon) {
  std::vector<Channel> out;
  for (const auto& rail : board.power.rails) {
    bool found = false;
    for (const auto& dir : dirs) {
      // iio: rail_name_0..2 -> in_power0..2_input; hwmon: in1..3_label -> in/curr1..3_input.
      for (int n = hwmon ? 1 : 0; n <= (hwmon ? 3 : 2) && !found; ++n) {
        std::string label_file = dir + (hwmon ? "/in" + std::to_string(n) + "_label"
                                              : "/rail_name_" + std::to_string(n));
        auto label = sysfs::read_text(label_file);
        if (!label || trim(*label) != rail) continue;
        if (hwmon)
          out.push_back({{dir + "/in" + std::to_string(n) + "_input",
                          dir + "/curr" + std::to_string(n) + "_input"}});
        else
          out.push_back({{dir + "/in_power" + std::to_string(n) + "_input"}});
        found = true;
      }
      if (found) break;
    }
    if (!found) {
      std::string where;
      for (const auto& d : dirs) where += " " + d;
      throw std::runtime_error(board.source_file + ": key 'power.rails': rail '" + rail +
                               "' not found in" + where);
    }
  }
  return out;
}

std::string joined_rails(const Board& board) {
  std::string s;
  for (const auto& r : board.power.rails) s += " " + r;
  return s;
}

}  // namespace

std::unique_ptr<EnergySensor> make_energy_sensor(const Board& board, const std::string& sysfs_root,
                                                 double period_ms) {
  const std::string& kind = board.power.kind;
  if (kind == "none") return nullptr;
  if (kind == "nvml") {
    Nvml* nvml = Nvml::get();
    if (!nvml) return nullptr;
    if (nvml->total_energy_mj())
      return std::make_unique<CounterEnergySensor>(
          "nvml total energy counter",
          [nvml]() -> std::optional<double> {
            auto v = nvml->total_energy_mj();
            return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
          },
          1.0, 0.0);
    if (!nvml->power_mw()) return nullptr;
    return std::make_unique<SampledPowerSensor>(
        "nvml power samples",
        [nvml]() -> std::optional<double> {
          auto v = nvml->power_mw();
          return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
        },
        period_ms);
  }
  std::vector<std::string> dirs = sensor_dirs(board, sysfs_root);
  if (dirs.empty()) return nullptr;  // sensor not present on this machine
  if (kind == "ina3221_iio" || kind == "ina3221_hwmon") {
    bool hwmon = kind == "ina3221_hwmon";
    std::vector<Channel> channels = find_rails(board, dirs, hwmon);
    auto read = [channels, hwmon]() -> std::optional<double> {
      double total_mw = 0;
      for (const auto& c : channels) {
        auto a = sysfs::read_int(c.files[0]);
        if (!a) return std::nullopt;
        if (hwmon) {
          auto ma = sysfs::read_int(c.files[1]);
          if (!ma) return std::nullopt;
          total_mw += static_cast<double>(*a) * static_cast<double>(*ma) / 1000.0;  // mV x mA = uW
        } else {
          total_mw += static_cast<double>(*a);  // in_power<N>_input is mW
        }
      }
      return total_mw;
    };
    return std::make_unique<SampledPowerSensor>(kind + joined_rails(board), read, period_ms);
  }
  if (kind == "rapl") {
    // One powercap zone (e.g. intel-rapl:0, package 0): each zone wraps on its own, so a
    // sum of zones would need one counter each; the host profile names one.
    if (dirs.size() != 1)
      throw std::runtime_error(board.source_file +
                               ": key 'power.paths': rapl takes exactly one powercap zone, found " +
                               std::to_string(dirs.size()));
    std::string dir = dirs.front();
    auto max_range = sysfs::read_int(dir + "/max_energy_range_uj");
    if (!max_range || !sysfs::read_int(dir + "/energy_uj"))
      return nullptr;  // e.g. root-only energy_uj
    std::string file = dir + "/energy_uj";
    return std::make_unique<CounterEnergySensor>(
        "rapl " + dir,
        [file]() -> std::optional<double> {
          auto v = sysfs::read_int(file);
          return v ? std::optional<double>(static_cast<double>(*v)) : std::nullopt;
        },
        1e-3, static_cast<double>(*max_range));
  }
  throw std::runtime_error(board.source_file + ": key 'power.kind': unknown sensor kind '" + kind +
                           "'");
}

namespace {
std::atomic<EnergySensorMaker> g_sensor_maker{nullptr};
}  // namespace

void set_energy_sensor_maker(EnergySensorMaker maker) {
  g_sensor_maker.store(maker);
}

std::unique_ptr<EnergySensor> make_energy_sensor(const Board& board) {
  if (const EnergySensorMaker maker = g_sensor_maker.load()) return maker(board);
  return make_energy_sensor(board, sysfs::default_root());
}

}  // namespace flowtune
