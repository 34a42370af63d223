// GPU clocks: observe, enumerate, and (only with --allow-clock-control) lock them.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "boards/board.hpp"

namespace flowtune {

/// The present graphics clock in MHz: NVML (cuda boards with an NVML device) or the devfreq
/// cur_freq (Hz, rounded to MHz) of board.clock_control.devfreq_path under sysfs_root;
/// nullopt for a cpu board or when unreadable. Throws std::runtime_error naming the board
/// file and the path when the devfreq path resolves outside the sysfs root
/// (sysfs::resolved_path: symbolic links followed, then checked).
std::optional<int> observed_gpu_clock_mhz(const Board& board, const std::string& sysfs_root);
/// observed_gpu_clock_mhz(board, sysfs::default_root()).
std::optional<int> observed_gpu_clock_mhz(const Board& board);

/// Supported graphics clocks in MHz, descending: NVML's list at the highest memory clock, or
/// devfreq available_frequencies (Hz rounded to MHz), else the profile's gpu_clocks_mhz.
/// Throws like observed_gpu_clock_mhz for a devfreq path that resolves outside the root.
std::vector<int> supported_gpu_clocks_mhz(const Board& board, const std::string& sysfs_root);
/// supported_gpu_clocks_mhz(board, sysfs::default_root()).
std::vector<int> supported_gpu_clocks_mhz(const Board& board);

/// RAII lock of the GPU graphics clock for one measurement scope.
///
/// Does nothing (active() false) when clock_mhz <= 0 or allow_clock_control is false: the
/// caller then records the observed clock and reports the clock dimension as not explored.
/// Otherwise:
/// - nvml: nvmlDeviceSetGpuLockedClocks(clock, clock); restored with
///   nvmlDeviceResetGpuLockedClocks (NVML cannot read back a previous lock);
/// - devfreq: the available_frequencies entry within 1 MHz of clock_mhz is written to
///   min_freq and max_freq in the safe order (max first when raising above the present
///   max, else min first, so that min <= max always holds), then cur_freq is polled until
///   it equals the target (settle_timeout_ms, default 2000); the previous min/max are
///   restored in the safe order.
/// The previous state is restored by the destructor (normal exit and exceptions), when the
/// constructor fails half-way, and on SIGINT/SIGTERM (a handler restores, then re-raises
/// with the previous disposition). Writes go only to min_freq/max_freq of the profile's
/// devfreq_path, which must lie under /sys (sysfs::checked_path), prefixed by sysfs_root
/// ($FLOWTUNE_SYSFS_ROOT for the short constructor; tests use a fake tree), and, with its
/// symbolic links resolved, under the canonical sysfs root (sysfs::resolved_path). The
/// attributes themselves must not be symbolic links: they are checked before the first
/// write and opened with O_NOFOLLOW (sysfs::write_text and the signal handler), so a link
/// planted in the tree never redirects a write. Throws std::runtime_error naming the
/// board, the path and the problem (unsupported clock, refused path or link, write
/// failure, clock not reached, no clock control on the board); nothing is written before
/// a refusal.
class ClockGuard {
 public:
  ClockGuard(const Board& board, int clock_mhz, bool allow_clock_control);
  ClockGuard(const Board& board, int clock_mhz, bool allow_clock_control,
             const std::string& sysfs_root, int settle_timeout_ms = 2000);
  ~ClockGuard();
  ClockGuard(const ClockGuard&) = delete;
  ClockGuard& operator=(const ClockGuard&) = delete;

  /// True while a clock is locked by this guard.
  bool active() const { return active_; }
  /// Restores the previous state now (idempotent; never throws).
  void restore() noexcept;

 private:
  void lock_devfreq(int clock_mhz, int settle_timeout_ms);
  bool active_ = false;
  std::string kind_;
  std::string dir_;  // devfreq directory (root-prefixed, canonical)
  long long old_min_hz_ = 0, old_max_hz_ = 0;
  int slot_ = -1;  // signal-restore registry slot
};

}  // namespace flowtune
