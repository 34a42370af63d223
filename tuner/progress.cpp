#include "tuner/progress.hpp"

#include <algorithm>
#include <cstdio>

namespace flowtune {

Progress::Progress(std::size_t total, double total_cost, std::ostream& out)
    : total_(total), total_cost_(total_cost), out_(out), start_(std::chrono::steady_clock::now()) {}

void Progress::step(const std::string& label, bool measured, double cost) {
  if (!(cost > 0)) cost = 1;
  ++done_;
  done_cost_ += cost;
  if (measured) {
    ++measured_;
    measured_cost_ += cost;
  }
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char buf[160];
  const double pct = total_ ? 100.0 * double(done_) / double(total_) : 100.0;
  if (measured_ > 0 && done_ < total_) {
    const double left = std::max(0.0, total_cost_ - done_cost_);
    const double eta_s = elapsed_s / measured_cost_ * left;
    std::snprintf(buf, sizeof buf, "%5.1f s elapsed, ETA %6.1f s", elapsed_s, eta_s);
  } else {
    std::snprintf(buf, sizeof buf, "%5.1f s elapsed", elapsed_s);
  }
  out_ << '[' << done_ << '/' << total_ << "] " << int(pct) << "% " << label
       << (measured ? "  " : "  (no measuring)  ") << buf << '\n';
  out_.flush();
}

}  // namespace flowtune
