#include "boards/gpu_clocks.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "boards/nvml.hpp"
#include "boards/sysfs.hpp"

namespace flowtune {

namespace {

int hz_to_mhz(long long hz) {
  return static_cast<int>(std::llround(static_cast<double>(hz) / 1e6));
}

/// The canonical devfreq directory of the profile under root (sysfs::resolved_path);
/// throws std::runtime_error("<board file>: key 'clock_control.devfreq_path': refusing
/// path ...") when it is not under /sys or resolves outside the sysfs root.
std::string devfreq_dir(const Board& b, const std::string& root) {
  try {
    return sysfs::resolved_path(b.clock_control.devfreq_path, root);
  } catch (const std::runtime_error& e) {
    throw std::runtime_error(b.source_file + ": key 'clock_control.devfreq_path': " + e.what());
  }
}

}  // namespace

std::optional<int> observed_gpu_clock_mhz(const Board& b, const std::string& root) {
  if (b.target != "cuda") return std::nullopt;
  if (b.clock_control.kind == "devfreq") {
    auto hz = sysfs::read_int(devfreq_dir(b, root) + "/cur_freq");
    if (!hz) return std::nullopt;
    return hz_to_mhz(*hz);
  }
  if (Nvml* nvml = Nvml::get()) return nvml->graphics_clock_mhz();
  return std::nullopt;
}

std::optional<int> observed_gpu_clock_mhz(const Board& b) {
  return observed_gpu_clock_mhz(b, sysfs::default_root());
}

std::vector<int> supported_gpu_clocks_mhz(const Board& b, const std::string& root) {
  if (b.target != "cuda") return {};
  std::vector<int> out;
  if (b.clock_control.kind == "devfreq") {
    if (auto hz = sysfs::read_int_list(devfreq_dir(b, root) + "/available_frequencies"))
      for (auto f : *hz) out.push_back(hz_to_mhz(f));
  } else if (b.clock_control.kind == "nvml") {
    if (Nvml* nvml = Nvml::get()) out = nvml->supported_graphics_clocks_mhz();
  }
  if (out.empty()) return b.gpu_clocks_mhz;
  std::sort(out.rbegin(), out.rend());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<int> supported_gpu_clocks_mhz(const Board& b) {
  return supported_gpu_clocks_mhz(b, sysfs::default_root());
}

// ---- restore on SIGINT / SIGTERM ----

namespace {

constexpr int kSlots = 8;
constexpr std::size_t kPathMax = 1024;

/// What a signal handler must do to restore one guard, prepared in advance so that the
/// handler only calls async-signal-safe functions (open, write, close) for devfreq.
struct RestoreSlot {
  std::atomic<int> state{0};  // 0 free, 1 reserved, 2 devfreq armed, 3 nvml armed
  char first_path[kPathMax];
  char first_value[32];
  char second_path[kPathMax];
  char second_value[32];
};

RestoreSlot g_slots[kSlots];
std::atomic<Nvml*> g_nvml{nullptr};
struct sigaction g_old_int, g_old_term;
std::once_flag g_installed;

/// sysfs::write_text for the signal handler: open(2) (O_NOFOLLOW, as there), write, close.
void raw_write(const char* path, const char* value) {
  int fd = ::open(path, O_WRONLY | O_TRUNC | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0) return;
  ssize_t n = ::write(fd, value, std::strlen(value));
  (void)n;
  ::close(fd);
}

/// Runs the prepared restore of a slot if this caller claims it; returns true if it did.
bool run_slot(RestoreSlot& s) {
  int st = s.state.load();
  if (st < 2 || !s.state.compare_exchange_strong(st, 0)) return false;
  if (st == 2) {
    raw_write(s.first_path, s.first_value);
    raw_write(s.second_path, s.second_value);
  } else if (Nvml* nvml = g_nvml.load()) {
    nvml->reset_locked_clocks();
  }
  return true;
}

extern "C" void flowtune_clock_signal_handler(int sig) {
  for (auto& s : g_slots) run_slot(s);
  ::sigaction(sig, sig == SIGINT ? &g_old_int : &g_old_term, nullptr);
  ::raise(sig);
}

void install_handlers() {
  std::call_once(g_installed, [] {
    struct sigaction sa {};
    sa.sa_handler = flowtune_clock_signal_handler;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &g_old_int);
    ::sigaction(SIGTERM, &sa, &g_old_term);
  });
}

int reserve_slot() {
  for (int i = 0; i < kSlots; ++i) {
    int expected = 0;
    if (g_slots[i].state.compare_exchange_strong(expected, 1)) return i;
  }
  throw std::runtime_error("too many simultaneous clock guards");
}

void copy_to(char* dst, std::size_t cap, const std::string& s) {
  if (s.size() >= cap)
    throw std::runtime_error("path too long for the clock restore handler: " + s);
  std::memcpy(dst, s.c_str(), s.size() + 1);
}

/// Writes [min_hz, max_hz] to a devfreq dir in the order that keeps min <= max at each step.
void set_range(const std::string& dir, long long min_hz, long long max_hz) {
  auto cur_max = sysfs::read_int(dir + "/max_freq");
  if (!cur_max) throw std::runtime_error("cannot read " + dir + "/max_freq");
  if (min_hz > *cur_max) {
    sysfs::write_text(dir + "/max_freq", std::to_string(max_hz));
    sysfs::write_text(dir + "/min_freq", std::to_string(min_hz));
  } else {
    sysfs::write_text(dir + "/min_freq", std::to_string(min_hz));
    sysfs::write_text(dir + "/max_freq", std::to_string(max_hz));
  }
}

}  // namespace

ClockGuard::ClockGuard(const Board& board, int clock_mhz, bool allow_clock_control)
    : ClockGuard(board, clock_mhz, allow_clock_control, sysfs::default_root()) {}

ClockGuard::ClockGuard(const Board& board, int clock_mhz, bool allow_clock_control,
                       const std::string& sysfs_root, int settle_timeout_ms) {
  if (clock_mhz <= 0 || !allow_clock_control) return;
  kind_ = board.clock_control.kind;
  if (kind_ == "nvml") {
    Nvml* nvml = Nvml::get();
    if (!nvml)
      throw std::runtime_error("board " + board.name + ": cannot lock clocks, no NVML device");
    g_nvml.store(nvml);
    slot_ = reserve_slot();
    install_handlers();
    g_slots[slot_].state.store(3);
    active_ = true;
    try {
      nvml->set_locked_clocks(clock_mhz, clock_mhz);
    } catch (...) {
      restore();
      throw;
    }
    return;
  }
  if (kind_ == "devfreq") {
    dir_ = devfreq_dir(board, sysfs_root);  // canonical; throws "refusing path" outside
    try {
      lock_devfreq(clock_mhz, settle_timeout_ms);
    } catch (const std::exception& e) {
      restore();
      throw std::runtime_error("board " + board.name + ": locking the GPU clock at " +
                               std::to_string(clock_mhz) +
                               " MHz failed (previous clocks restored): " + e.what());
    }
    return;
  }
  throw std::runtime_error("board " + board.name + " (" + board.source_file +
                           ") has no GPU clock control (clock_control.kind = " + kind_ + ")");
}

void ClockGuard::lock_devfreq(int clock_mhz, int settle_timeout_ms) {
  // dir_ is canonical and under the sysfs root; the attributes themselves must not be
  // links either (sysfs::write_text refuses them too, but only after the first write).
  for (const char* f : {"available_frequencies", "min_freq", "max_freq", "cur_freq"}) {
    std::error_code ec;
    std::string path = dir_ + "/" + f;
    if (std::filesystem::is_symlink(std::filesystem::symlink_status(path, ec)))
      throw std::runtime_error("refusing to use " + path +
                               ": it is a symbolic link (flowtune writes only to attributes "
                               "under the sysfs root, never through links)");
  }
  auto available = sysfs::read_int_list(dir_ + "/available_frequencies");
  if (!available) throw std::runtime_error("cannot read " + dir_ + "/available_frequencies");
  long long target = -1;
  for (auto hz : *available)
    if (std::llabs(hz - static_cast<long long>(clock_mhz) * 1000000) <= 1000000) target = hz;
  if (target < 0) {
    std::string list;
    for (auto hz : *available) list += " " + std::to_string(hz_to_mhz(hz));
    throw std::runtime_error(std::to_string(clock_mhz) + " MHz is not in " + dir_ +
                             "/available_frequencies (MHz:" + list + ")");
  }
  auto old_min = sysfs::read_int(dir_ + "/min_freq");
  auto old_max = sysfs::read_int(dir_ + "/max_freq");
  if (!old_min || !old_max)
    throw std::runtime_error("cannot read " + dir_ + "/min_freq and max_freq");
  old_min_hz_ = *old_min;
  old_max_hz_ = *old_max;

  // Arm the signal restore before the first write: from [target, target] back to the old
  // range, max first when the old min lies above the target.
  slot_ = reserve_slot();
  RestoreSlot& s = g_slots[slot_];
  bool max_first = old_min_hz_ > target;
  copy_to(s.first_path, kPathMax, dir_ + (max_first ? "/max_freq" : "/min_freq"));
  copy_to(s.first_value, sizeof s.first_value,
          std::to_string(max_first ? old_max_hz_ : old_min_hz_));
  copy_to(s.second_path, kPathMax, dir_ + (max_first ? "/min_freq" : "/max_freq"));
  copy_to(s.second_value, sizeof s.second_value,
          std::to_string(max_first ? old_min_hz_ : old_max_hz_));
  install_handlers();
  s.state.store(2);
  active_ = true;

  set_range(dir_, target, target);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(settle_timeout_ms);
  for (;;) {
    auto cur = sysfs::read_int(dir_ + "/cur_freq");
    if (cur && std::llabs(*cur - target) <= 1000000) return;
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error(dir_ + "/cur_freq did not reach " + std::to_string(target) +
                               " Hz within " + std::to_string(settle_timeout_ms) +
                               " ms (it reads " +
                               (cur ? std::to_string(*cur) : std::string("nothing")) + ")");
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

void ClockGuard::restore() noexcept {
  if (slot_ < 0) return;
  RestoreSlot& s = g_slots[slot_];
  int st = s.state.load();
  // Claim the slot so that a signal arriving now does not restore a second time.
  if (active_ && st >= 2 && s.state.compare_exchange_strong(st, 1)) {
    try {
      if (st == 2)
        set_range(dir_, old_min_hz_, old_max_hz_);
      else if (Nvml* nvml = g_nvml.load(); nvml && !nvml->reset_locked_clocks())
        std::cerr
            << "flowtune: warning: nvmlDeviceResetGpuLockedClocks failed; reset the clocks with "
               "`nvidia-smi -rgc`\n";
    } catch (const std::exception& e) {
      std::cerr << "flowtune: warning: restoring GPU clocks failed: " << e.what() << "\n";
    }
  }
  active_ = false;
  s.state.store(0);
  slot_ = -1;
}

ClockGuard::~ClockGuard() {
  restore();
}

}  // namespace flowtune
