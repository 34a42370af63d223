// Energy of a measurement window: NVML, Jetson INA3221 (iio / hwmon), Intel RAPL.
#pragma once

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "boards/board.hpp"

namespace flowtune {

/// Measures the energy of one window [start(), stop_mj()]. Windows shorter than
/// min_window_ms() are too coarse for the sensors (INA3221 and NVML power update every few
/// ms to tens of ms); the harness repeats short kernels to fill one (ARCHITECTURE.md, Measuring).
class EnergySensor {
 public:
  virtual ~EnergySensor();
  /// e.g. "ina3221_hwmon GPU", "nvml energy counter", "rapl package-0".
  virtual std::string name() const = 0;
  /// Begins a window (ends any window still open, discarding it).
  virtual void start() = 0;
  /// Ends the window: its energy in mJ, or nullopt when any reading in it failed
  /// (missing file, garbage content, NVML error): energy is then stored NULL, never 0.
  virtual std::optional<double> stop_mj() = 0;
  /// The shortest window worth measuring, in ms (200).
  virtual double min_window_ms() const { return 200.0; }
};

/// One power reading at t_s seconds (steady clock) of power_mw milliwatts.
struct PowerSample {
  double t_s = 0;
  double power_mw = 0;
};

/// Trapezoid-rule integral of power over time: sum (p_i + p_{i+1}) / 2 * (t_{i+1} - t_i),
/// in mJ (mW x s). 0 for fewer than two samples. Samples must be in time order.
double trapezoid_energy_mj(const std::vector<PowerSample>& samples);

/// Increase of an energy counter that wraps to 0 after max_range (RAPL energy_uj wraps at
/// max_energy_range_uj, Linux powercap ABI): end - start, or end + max_range - start when
/// end < start (one wrap). max_range <= 0 means the counter never wraps; then end < start
/// returns nullopt (counter reset).
std::optional<double> counter_delta(double start, double end, double max_range);

/// Power read by a background thread every period_ms and integrated with the trapezoid rule.
class SampledPowerSensor : public EnergySensor {
 public:
  /// read_mw returns the present power in mW, nullopt when unreadable.
  SampledPowerSensor(std::string name, std::function<std::optional<double>()> read_mw,
                     double period_ms = 10.0);
  ~SampledPowerSensor() override;
  std::string name() const override { return name_; }
  void start() override;
  std::optional<double> stop_mj() override;
  /// The samples of the last finished window (for tests and diagnostics).
  const std::vector<PowerSample>& samples() const { return samples_; }

 private:
  void take_sample();
  void halt();
  std::string name_;
  std::function<std::optional<double>()> read_mw_;
  double period_ms_;
  std::vector<PowerSample> samples_;
  bool failed_ = false;
  std::thread thread_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_requested_ = false;
};

/// Energy from a hardware counter read at start and stop (NVML total energy in mJ; RAPL
/// energy_uj with one wrap at max_range handled). Windows must be shorter than one wrap
/// period (RAPL: max_energy_range_uj / package power, minutes).
class CounterEnergySensor : public EnergySensor {
 public:
  /// read_counter returns the counter in its units (nullopt when unreadable);
  /// mj_per_unit converts (1 for NVML mJ, 1e-3 for RAPL uJ); max_range as counter_delta.
  CounterEnergySensor(std::string name, std::function<std::optional<double>()> read_counter,
                      double mj_per_unit, double max_range);
  std::string name() const override { return name_; }
  void start() override;
  std::optional<double> stop_mj() override;

 private:
  std::string name_;
  std::function<std::optional<double>()> read_counter_;
  double mj_per_unit_, max_range_;
  std::optional<double> start_value_;
};

/// A sensor for board.power with every /sys path prefixed by sysfs_root (see
/// sysfs::default_root(): $FLOWTUNE_SYSFS_ROOT, "" = the real /sys):
/// - nvml: total-energy counter where the GPU has one, else NVML power samples;
/// - ina3221_iio: per rail, the rail_name_<N> file of a device dir holding the rail name
///   selects in_power<N>_input (mW); rails are summed;
/// - ina3221_hwmon: per rail, the in<N>_label file holding the rail name selects
///   in<N>_input (mV) x curr<N>_input (mA) / 1000 (mW); rails are summed;
/// - rapl: energy_uj of each zone (summed), wrapping at its max_energy_range_uj.
/// Returns nullptr when the board has no sensor (kind none) or it is not present (no NVML
/// device, no sensor directory, unreadable counter). Throws std::runtime_error naming the
/// board file and rail when the directories exist but a rail of the profile is not found,
/// and naming the board file, the pattern and the resolved path when a glob match of
/// power.paths, with its symbolic links resolved, lies outside the sysfs root
/// (sysfs::expand_checked; e.g. "/sys/.*/x" reaching "<root>/x", or a link out of the
/// tree). The sensor reads the canonical (resolved) directories.
/// period_ms is the sampling period of sampled sensors.
std::unique_ptr<EnergySensor> make_energy_sensor(const Board& board, const std::string& sysfs_root,
                                                 double period_ms = 10.0);
/// make_energy_sensor(board, sysfs::default_root()), or the maker a test binary installed
/// with set_energy_sensor_maker.
std::unique_ptr<EnergySensor> make_energy_sensor(const Board& board);

/// A replacement of make_energy_sensor(board), for test binaries only (a sensor double of
/// tests/doubles); nullptr restores the real one. The production `tune` never sets one.
using EnergySensorMaker = std::unique_ptr<EnergySensor> (*)(const Board& board);
void set_energy_sensor_maker(EnergySensorMaker maker);

}  // namespace flowtune
