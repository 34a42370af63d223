// Energy sensors on fake sysfs trees: INA3221 iio / hwmon, RAPL; trapezoid and wrap-around.
#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "boards/energy_sensor.hpp"
#include "boards/sysfs.hpp"
#include "fake_sysfs.hpp"

using namespace flowtune;
using flowtune_test::FakeSysfs;

namespace {

Board board_with(const std::string& kind, std::vector<std::string> paths,
                 std::vector<std::string> rails = {}) {
  Board b;
  b.name = "fake";
  b.target = "cuda";
  b.source_file = "fake.toml";
  b.power.kind = kind;
  b.power.paths = std::move(paths);
  b.power.rails = std::move(rails);
  return b;
}

void sleep_ms(int ms) {
  std::this_thread::sleep_for(std::chrono::milliseconds(ms));
}

const char* kIio = "/sys/bus/i2c/drivers/ina3221x/6-0040/iio:device0";
const char* kHwmon = "/sys/bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon3";
const char* kRapl = "/sys/class/powercap/intel-rapl:0";

void write_iio(const FakeSysfs& fs) {
  std::string d = kIio;
  fs.write(d + "/rail_name_0", "POM_5V_IN\n");
  fs.write(d + "/rail_name_1", "POM_5V_GPU\n");
  fs.write(d + "/rail_name_2", "POM_5V_CPU\n");
  fs.write(d + "/in_power0_input", "9000\n");
  fs.write(d + "/in_power1_input", "2500\n");
  fs.write(d + "/in_power2_input", "1500\n");
}

}  // namespace

TEST(Energy, TrapezoidHandComputed) {
  // (1000 + 3000) / 2 * 1 s + (3000 + 3000) / 2 * 2 s = 2000 + 6000 mJ.
  EXPECT_DOUBLE_EQ(trapezoid_energy_mj({{10.0, 1000}, {11.0, 3000}, {13.0, 3000}}), 8000.0);
  EXPECT_DOUBLE_EQ(trapezoid_energy_mj({{1.0, 5}}), 0.0);
}

TEST(Energy, CounterWrapAround) {
  EXPECT_DOUBLE_EQ(*counter_delta(1000, 501000, 1e6), 500000);
  EXPECT_DOUBLE_EQ(*counter_delta(999000, 1000, 1e6), 2000);  // wrapped once at max_range
  EXPECT_EQ(counter_delta(5, 4, 0), std::nullopt);            // a non-wrapping counter went back
}

TEST(Energy, Ina3221IioConstantPower) {
  FakeSysfs fs;
  write_iio(fs);
  auto sensor = make_energy_sensor(board_with("ina3221_iio", {kIio}, {"POM_5V_GPU", "POM_5V_CPU"}),
                                   fs.root(), 2.0);
  ASSERT_NE(sensor, nullptr);
  EXPECT_EQ(sensor->min_window_ms(), 200.0);
  auto t0 = std::chrono::steady_clock::now();
  sensor->start();
  sleep_ms(60);
  auto mj = sensor->stop_mj();
  double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ASSERT_TRUE(mj.has_value());
  auto* sampled = dynamic_cast<SampledPowerSensor*>(sensor.get());
  ASSERT_NE(sampled, nullptr);
  const auto& s = sampled->samples();
  ASSERT_GE(s.size(), 5u);  // background thread sampled every ~2 ms
  double span_s = s.back().t_s - s.front().t_s;
  EXPECT_NEAR(*mj, 4000.0 * span_s, 1e-9);  // 2500 + 1500 mW held constant
  EXPECT_GE(span_s, 0.060);
  EXPECT_LE(span_s, wall_s);
}

TEST(Energy, Ina3221IioGarbageAndMissingGiveNull) {
  FakeSysfs fs;
  write_iio(fs);
  auto sensor =
      make_energy_sensor(board_with("ina3221_iio", {kIio}, {"POM_5V_GPU"}), fs.root(), 2.0);
  ASSERT_NE(sensor, nullptr);
  sensor->start();
  fs.write(std::string(kIio) + "/in_power1_input", "12a4\n");
  sleep_ms(20);
  EXPECT_EQ(sensor->stop_mj(), std::nullopt);
  fs.write(std::string(kIio) + "/in_power1_input", "2500\n");
  sensor->start();
  sleep_ms(10);
  ASSERT_TRUE(sensor->stop_mj().has_value());  // recovers on the next window
  sensor->start();
  fs.remove(std::string(kIio) + "/in_power1_input");
  sleep_ms(20);
  EXPECT_EQ(sensor->stop_mj(), std::nullopt);
  EXPECT_EQ(sensor->stop_mj(), std::nullopt);  // no open window
}

TEST(Energy, Ina3221HwmonVoltageTimesCurrent) {
  FakeSysfs fs;
  std::string d = kHwmon;
  fs.write(d + "/in1_label", "VDD_IN\n");
  fs.write(d + "/in2_label", "VDD_CPU_GPU_CV\n");
  fs.write(d + "/in3_label", "VDD_SOC\n");
  fs.write(d + "/in2_input", "5000\n");    // mV
  fs.write(d + "/curr2_input", "1200\n");  // mA -> 6000 mW
  auto b = board_with("ina3221_hwmon", {"/sys/bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon*"},
                      {"VDD_CPU_GPU_CV"});
  auto sensor = make_energy_sensor(b, fs.root(), 2.0);
  ASSERT_NE(sensor, nullptr);
  sensor->start();
  sleep_ms(30);
  auto mj = sensor->stop_mj();
  ASSERT_TRUE(mj.has_value());
  const auto& s = dynamic_cast<SampledPowerSensor&>(*sensor).samples();
  EXPECT_DOUBLE_EQ(s.front().power_mw, 6000.0);
  EXPECT_NEAR(*mj, 6000.0 * (s.back().t_s - s.front().t_s), 1e-9);
  // A missing current file makes the window NULL.
  sensor->start();
  fs.remove(d + "/curr2_input");
  sleep_ms(10);
  EXPECT_EQ(sensor->stop_mj(), std::nullopt);
}

TEST(Energy, MissingRailIsAProfileError) {
  FakeSysfs fs;
  write_iio(fs);
  try {
    make_energy_sensor(board_with("ina3221_iio", {kIio}, {"VDD_SYS_GPU"}), fs.root());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(
        std::string(e.what()).find("fake.toml: key 'power.rails': rail 'VDD_SYS_GPU' not found"),
        std::string::npos)
        << e.what();
  }
}

TEST(Energy, AbsentSensorOrNoneGivesNullptr) {
  FakeSysfs fs;  // empty tree
  EXPECT_EQ(make_energy_sensor(board_with("ina3221_iio", {kIio}, {"POM_5V_GPU"}), fs.root()),
            nullptr);
  EXPECT_EQ(make_energy_sensor(board_with("rapl", {kRapl}), fs.root()), nullptr);
  EXPECT_EQ(make_energy_sensor(board_with("none", {}), fs.root()), nullptr);
}

TEST(Energy, RaplCounterWithWrap) {
  FakeSysfs fs;
  std::string d = kRapl;
  fs.write(d + "/max_energy_range_uj", "262143328850\n");
  fs.write(d + "/energy_uj", "1000\n");
  auto sensor = make_energy_sensor(board_with("rapl", {kRapl}), fs.root());
  ASSERT_NE(sensor, nullptr);
  sensor->start();
  fs.write(d + "/energy_uj", "2501000\n");
  EXPECT_DOUBLE_EQ(*sensor->stop_mj(), 2500.0);  // 2.5e6 uJ
  fs.write(d + "/energy_uj", "262143000000\n");
  sensor->start();
  fs.write(d + "/energy_uj", "171150\n");  // wrapped: 328850 + 171150 uJ = 500 mJ
  EXPECT_DOUBLE_EQ(*sensor->stop_mj(), 500.0);
  sensor->start();
  fs.write(d + "/energy_uj", "garbage\n");
  EXPECT_EQ(sensor->stop_mj(), std::nullopt);
}

TEST(Energy, PathsOutsideSysRefused) {
  FakeSysfs fs;
  EXPECT_THROW(make_energy_sensor(board_with("rapl", {"/etc/powercap"}), fs.root()),
               std::runtime_error);
  EXPECT_THROW(sysfs::checked_path("/sys/../etc/passwd", ""), std::runtime_error);
  EXPECT_EQ(sysfs::checked_path("/sys/class/x", "/tmp/r"), "/tmp/r/sys/class/x");
}

namespace {

/// A RAPL zone at fs.root() + dir holding the given counter (uJ).
void write_rapl(const FakeSysfs& fs, const std::string& dir, const std::string& uj) {
  fs.write(dir + "/max_energy_range_uj", "262143328850\n");
  fs.write(dir + "/energy_uj", uj + "\n");
}

std::string canonical(const std::string& p) {
  return std::filesystem::canonical(p).string();
}

/// The message of the std::runtime_error make_energy_sensor throws ("" if none).
std::string sensor_error(const Board& b, const std::string& root) {
  try {
    make_energy_sensor(b, root);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(Energy, GlobClimbingOutOfTheSysfsRootRefused) {
  FakeSysfs fs;
  write_rapl(fs, "/outside", "1000");  // root/outside: not under root/sys
  fs.write("/sys/class/powercap/README", "\n");
  // Textually under /sys; glob expands ".*" to "." and "..", reaching root/outside.
  std::string m = sensor_error(board_with("rapl", {"/sys/.*/outside"}), fs.root());
  EXPECT_NE(m.find("fake.toml: key 'power.paths': refusing path '/sys/.*/outside'"),
            std::string::npos)
      << m;
}

TEST(Energy, SymlinkOutOfTheSysfsRootRefused) {
  FakeSysfs fs;
  write_rapl(fs, "/outside/zone", "1000");
  std::filesystem::create_directories(fs.root() + "/sys/class/powercap");
  std::filesystem::create_directory_symlink(fs.root() + "/outside/zone", fs.root() + kRapl);
  std::string sys = canonical(fs.root() + "/sys");
  for (const std::string& pattern :
       {std::string(kRapl), std::string("/sys/class/powercap/intel-rapl:*")}) {
    std::string m = sensor_error(board_with("rapl", {pattern}), fs.root());
    EXPECT_NE(m.find("fake.toml: key 'power.paths': refusing path '" + pattern + "': match '" +
                     fs.root() + kRapl + "' resolves to '" +
                     canonical(fs.root() + "/outside/zone") + "', outside " + sys),
              std::string::npos)
        << m;
  }
}

TEST(Energy, SymlinkInsideTheSysfsRootFollowed) {
  // Real sysfs class and bus directories are links into /sys/devices: those are fine.
  FakeSysfs fs;
  const std::string zone = "/sys/devices/virtual/powercap/intel-rapl/intel-rapl:0";
  write_rapl(fs, zone, "1000");
  std::filesystem::create_directories(fs.root() + "/sys/class/powercap");
  std::filesystem::create_directory_symlink(
      "../../devices/virtual/powercap/intel-rapl/intel-rapl:0", fs.root() + kRapl);
  auto sensor =
      make_energy_sensor(board_with("rapl", {"/sys/class/powercap/intel-rapl:*"}), fs.root());
  ASSERT_NE(sensor, nullptr);
  EXPECT_EQ(sensor->name(), "rapl " + canonical(fs.root() + zone));
  sensor->start();
  fs.write(zone + "/energy_uj", "3000\n");
  EXPECT_DOUBLE_EQ(*sensor->stop_mj(), 2.0);
}

TEST(Energy, ResolvedPathChecksLinks) {
  FakeSysfs fs;
  fs.write("/sys/devices/gpu/devfreq/gpu/min_freq", "1\n");
  fs.write("/outside/min_freq", "1\n");
  std::filesystem::create_directories(fs.root() + "/sys/class/devfreq");
  std::filesystem::create_directory_symlink("../../devices/gpu/devfreq/gpu",
                                            fs.root() + "/sys/class/devfreq/gpu");
  std::filesystem::create_directory_symlink(fs.root() + "/outside",
                                            fs.root() + "/sys/class/devfreq/evil");
  std::filesystem::create_directory_symlink(fs.root() + "/nowhere",
                                            fs.root() + "/sys/class/devfreq/dangling");
  std::string sys = canonical(fs.root() + "/sys");
  EXPECT_EQ(sysfs::canonical_sys(fs.root()), sys);
  EXPECT_EQ(sysfs::resolved_path("/sys/class/devfreq/gpu", fs.root()),
            sys + "/devices/gpu/devfreq/gpu");
  // A missing tail (the profile of another board) is kept as written.
  EXPECT_EQ(sysfs::resolved_path("/sys/devices/17000000.gv11b/devfreq", fs.root()),
            sys + "/devices/17000000.gv11b/devfreq");
  try {
    sysfs::resolved_path("/sys/class/devfreq/evil/min_freq", fs.root());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("refusing path '/sys/class/devfreq/evil/min_freq': "
                                          "resolves to '" +
                                              canonical(fs.root() + "/outside/min_freq") +
                                              "', outside " + sys,
                                          0),
              0u)
        << e.what();
  }
  EXPECT_THROW(sysfs::resolved_path("/sys/class/devfreq/dangling/min_freq", fs.root()),
               std::runtime_error);
  EXPECT_THROW(sysfs::resolved_path("/sys/.*/outside", fs.root()), std::runtime_error);
}
