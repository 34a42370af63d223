// Cooperative cancellation of long computations (a frame of 10^4 iterations per warping, an
// all-pairs solve): `tune` sets the flag from its SIGINT/SIGTERM handler, the numerical
// loops poll it between iterations and throw Cancelled, so a signal stops any config
// within about one iteration instead of at the end of the frame.
#pragma once

#include <atomic>
#include <stdexcept>

namespace flowtune {

/// Thrown by a computation that saw a cancellation request; not a failure of the config.
struct Cancelled : std::runtime_error {
  Cancelled() : std::runtime_error("cancelled (SIGINT/SIGTERM)") {}
};

/// The process-wide request; lock-free, so a signal handler may set it (touch it once,
/// e.g. store false, before installing the handler).
inline std::atomic<bool>& cancellation_requested() {
  static std::atomic<bool> flag{false};
  return flag;
}

/// Throws Cancelled when a cancellation was requested.
inline void throw_if_cancelled() {
  if (cancellation_requested().load(std::memory_order_relaxed)) throw Cancelled();
}

}  // namespace flowtune
