// A progress line with ETA for long tuning runs (stderr, one line per measured point).
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace flowtune {

/// Prints "[k/n] 37% label  12.3 s elapsed, ETA 21.0 s" lines. The ETA is the mean time per
/// point so far times the points left (points skipped because already measured do not count).
class Progress {
 public:
  Progress(std::size_t total, std::ostream& out);
  /// Marks one point as done; `measured` false for a point skipped (resumed / pruned).
  void step(const std::string& label, bool measured);
  std::size_t done() const { return done_; }

 private:
  std::size_t total_, done_ = 0, measured_ = 0;
  std::ostream& out_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace flowtune
