// Clock control on fake devfreq trees: set, restore (normal, exception, failure, SIGTERM),
// refused paths. Never touches the real /sys.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "boards/gpu_clocks.hpp"
#include "boards/sysfs.hpp"
#include "fake_sysfs.hpp"

using namespace flowtune;
using flowtune_test::FakeSysfs;

namespace {

const std::string kDev = "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b";
const std::string kAvail =
    "114750000 216750000 318750000 420750000 522750000 624750000 675750000 828750000 905250000 "
    "1032750000 "
    "1198500000 1236750000 1338750000 1377000000";

Board devfreq_board(const std::string& path = kDev) {
  Board b;
  b.name = "fakeagx";
  b.target = "cuda";
  b.source_file = "fakeagx.toml";
  b.cc_major = 7;
  b.cc_minor = 2;
  b.gpu_clocks_mhz = {1377, 115};
  b.clock_control.kind = "devfreq";
  b.clock_control.devfreq_path = path;
  return b;
}

struct Devfreq {
  FakeSysfs fs;
  explicit Devfreq(const std::string& min = "114750000", const std::string& max = "1377000000") {
    fs.write(kDev + "/available_frequencies", kAvail + "\n");
    fs.write(kDev + "/min_freq", min + "\n");
    fs.write(kDev + "/max_freq", max + "\n");
    fs.write(kDev + "/cur_freq", max + "\n");
  }
  std::string get(const std::string& f) const { return fs.read(kDev + "/" + f); }
};

/// Plays the kernel's devfreq governor: keeps cur_freq inside [min_freq, max_freq].
class Governor {
 public:
  explicit Governor(const FakeSysfs& fs) : fs_(fs), thread_([this] { run(); }) {}
  ~Governor() {
    stop_ = true;
    thread_.join();
  }

 private:
  void run() {
    while (!stop_) {
      auto lo = sysfs::read_int(fs_.root() + kDev + "/min_freq");
      auto hi = sysfs::read_int(fs_.root() + kDev + "/max_freq");
      auto cur = sysfs::read_int(fs_.root() + kDev + "/cur_freq");
      if (lo && hi && cur && *lo <= *hi) {
        long long want = std::min(std::max(*cur, *lo), *hi);
        if (want != *cur) fs_.write(kDev + "/cur_freq", std::to_string(want) + "\n");
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  }
  const FakeSysfs& fs_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

}  // namespace

TEST(Clocks, ObservedAndSupportedFromDevfreq) {
  Devfreq d;
  Board b = devfreq_board();
  EXPECT_EQ(observed_gpu_clock_mhz(b, d.fs.root()), 1377);
  auto clocks = supported_gpu_clocks_mhz(b, d.fs.root());
  ASSERT_EQ(clocks.size(), 14u);
  EXPECT_EQ(clocks.front(), 1377);
  EXPECT_EQ(clocks[3], 1199);  // 1198.5 MHz rounds half up
  EXPECT_EQ(clocks.back(), 115);
  d.fs.remove(kDev + "/available_frequencies");
  EXPECT_EQ(supported_gpu_clocks_mhz(b, d.fs.root()),
            (std::vector<int>{1377, 115}));  // profile fallback
  Board host;
  host.target = "cpu";
  EXPECT_EQ(observed_gpu_clock_mhz(host, d.fs.root()), std::nullopt);
}

TEST(Clocks, LockThenRestore) {
  Devfreq d;
  Governor g(d.fs);
  {
    ClockGuard guard(devfreq_board(), 905, true, d.fs.root());
    EXPECT_TRUE(guard.active());
    EXPECT_EQ(d.get("min_freq"), "905250000");
    EXPECT_EQ(d.get("max_freq"), "905250000");
    EXPECT_EQ(d.get("cur_freq"), "905250000");
  }
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, RaisingAboveACappedMaxWorks) {
  Devfreq d("114750000", "522750000");  // e.g. a low-power nvpmodel cap
  Governor g(d.fs);
  {
    ClockGuard guard(devfreq_board(), 1377, true, d.fs.root());
    EXPECT_EQ(d.get("min_freq"), "1377000000");
    EXPECT_EQ(d.get("max_freq"), "1377000000");
  }
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "522750000");
}

TEST(Clocks, NotAllowedOrNoClockIsANoOp) {
  Devfreq d;
  ClockGuard off(devfreq_board(), 905, false, d.fs.root());
  ClockGuard zero(devfreq_board(), 0, true, d.fs.root());
  EXPECT_FALSE(off.active());
  EXPECT_FALSE(zero.active());
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, RestoredWhenTheScopeThrows) {
  Devfreq d;
  Governor g(d.fs);
  try {
    ClockGuard guard(devfreq_board(), 624, true, d.fs.root());  // 624.75 MHz
    EXPECT_EQ(d.get("max_freq"), "624750000");
    throw std::runtime_error("measurement failed");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, RestoredWhenTheClockIsNeverReached) {
  Devfreq d;  // no governor: cur_freq stays at 1377 MHz
  try {
    ClockGuard guard(devfreq_board(), 905, true, d.fs.root(), 50);
    FAIL() << "expected a throw";
  } catch (const std::runtime_error& e) {
    std::string m = e.what();
    EXPECT_NE(
        m.find("board fakeagx: locking the GPU clock at 905 MHz failed (previous clocks restored)"),
        std::string::npos)
        << m;
    EXPECT_NE(m.find("cur_freq did not reach 905250000 Hz within 50 ms"), std::string::npos) << m;
  }
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, UnsupportedClockRefusedUntouched) {
  Devfreq d;
  try {
    ClockGuard guard(devfreq_board(), 1000, true, d.fs.root());
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("1000 MHz is not in"), std::string::npos) << e.what();
  }
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, PathsOutsideSysRefused) {
  Devfreq d;
  d.fs.write("/etc/gpu/min_freq", "1\n");
  d.fs.write("/etc/gpu/max_freq", "2\n");
  d.fs.write("/etc/gpu/available_frequencies", "905250000\n");
  for (const std::string& bad : {std::string("/etc/gpu"), std::string("/sys/../etc/gpu")}) {
    try {
      ClockGuard guard(devfreq_board(bad), 905, true, d.fs.root());
      FAIL() << bad;
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find("refusing path '" + bad + "'"), std::string::npos)
          << e.what();
    }
  }
  EXPECT_EQ(d.fs.read("/etc/gpu/min_freq"), "1");
  EXPECT_EQ(d.fs.read("/etc/gpu/max_freq"), "2");
  Board none = devfreq_board();
  none.clock_control.kind = "none";
  EXPECT_THROW(ClockGuard(none, 905, true, d.fs.root()), std::runtime_error);
}

TEST(Clocks, RestoredOnSigterm) {
  Devfreq d;
  d.fs.write(kDev + "/cur_freq", "905250000\n");  // the child has no governor thread
  pid_t pid = ::fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    ClockGuard guard(devfreq_board(), 905, true, d.fs.root(), 1000);
    ::raise(SIGTERM);
    ::_exit(3);  // not reached: the handler restores, then re-raises with the default action
  }
  int status = 0;
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFSIGNALED(status)) << "child exited with " << WEXITSTATUS(status);
  EXPECT_EQ(WTERMSIG(status), SIGTERM);
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, SymlinkedAttributeOutsideTheRootNeverWritten) {
  Devfreq d;
  d.fs.write(kDev + "/cur_freq", "905250000\n");  // the lock would settle at once
  d.fs.write("/outside/min_freq", "114750000\n");
  d.fs.remove(kDev + "/min_freq");
  std::filesystem::create_symlink(d.fs.root() + "/outside/min_freq",
                                  d.fs.root() + kDev + "/min_freq");
  bool refused = false;
  try {
    ClockGuard guard(devfreq_board(), 905, true, d.fs.root(), 50);
    EXPECT_EQ(d.fs.read("/outside/min_freq"), "114750000") << "written through the link";
  } catch (const std::runtime_error& e) {
    refused = true;
    std::string m = e.what();
    EXPECT_NE(m.find("/min_freq: it is a symbolic link"), std::string::npos) << m;
  }
  EXPECT_TRUE(refused);
  EXPECT_EQ(d.fs.read("/outside/min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");  // nothing written before the refusal
}

TEST(Clocks, SymlinkedDevfreqDirOutsideTheRootNeverWritten) {
  FakeSysfs fs;
  fs.write("/outside/dev/available_frequencies", kAvail + "\n");
  fs.write("/outside/dev/min_freq", "114750000\n");
  fs.write("/outside/dev/max_freq", "1377000000\n");
  fs.write("/outside/dev/cur_freq", "905250000\n");
  std::filesystem::create_directories(fs.root() + "/sys/class/devfreq");
  std::filesystem::create_directory_symlink(fs.root() + "/outside/dev",
                                            fs.root() + "/sys/class/devfreq/gpu");
  Board b = devfreq_board("/sys/class/devfreq/gpu");
  bool refused = false;
  try {
    ClockGuard guard(b, 905, true, fs.root(), 50);
    EXPECT_EQ(fs.read("/outside/dev/min_freq"), "114750000") << "written through the link";
  } catch (const std::runtime_error& e) {
    refused = true;
    std::string m = e.what();
    EXPECT_NE(
        m.find("fakeagx.toml: key 'clock_control.devfreq_path': refusing path "
               "'/sys/class/devfreq/gpu': resolves to '" +
               std::filesystem::canonical(fs.root() + "/outside/dev").string() + "', outside"),
        std::string::npos)
        << m;
  }
  EXPECT_TRUE(refused);
  EXPECT_EQ(fs.read("/outside/dev/min_freq"), "114750000");
  EXPECT_EQ(fs.read("/outside/dev/max_freq"), "1377000000");
  // Reading through the link is refused as well.
  EXPECT_THROW(supported_gpu_clocks_mhz(b, fs.root()), std::runtime_error);
}

TEST(Clocks, SymlinkedDevfreqDirInsideTheRootWorks) {
  Devfreq d;  // the real layout: /sys/class/devfreq/<name> links into /sys/devices
  d.fs.write(kDev + "/cur_freq", "905250000\n");
  std::filesystem::create_directories(d.fs.root() + "/sys/class/devfreq");
  std::filesystem::create_directory_symlink("../../devices/17000000.gv11b/devfreq/17000000.gv11b",
                                            d.fs.root() + "/sys/class/devfreq/gpu");
  {
    ClockGuard guard(devfreq_board("/sys/class/devfreq/gpu"), 905, true, d.fs.root(), 1000);
    EXPECT_TRUE(guard.active());
    EXPECT_EQ(d.get("min_freq"), "905250000");
  }
  EXPECT_EQ(d.get("min_freq"), "114750000");
  EXPECT_EQ(d.get("max_freq"), "1377000000");
}

TEST(Clocks, WriteTextRefusesALink) {
  FakeSysfs fs;
  fs.write("/outside/x", "old\n");
  fs.write("/sys/a/keep", "\n");
  std::filesystem::create_symlink(fs.root() + "/outside/x", fs.root() + "/sys/a/x");
  try {
    sysfs::write_text(fs.root() + "/sys/a/x", "new");
    FAIL();
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("refusing to write " + fs.root() +
                                              "/sys/a/x: it is a "
                                              "symbolic link",
                                          0),
              0u)
        << e.what();
  }
  EXPECT_EQ(fs.read("/outside/x"), "old");
}
