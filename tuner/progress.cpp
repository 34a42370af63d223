#include "tuner/progress.hpp"

#include <cstdio>

namespace flowtune {

Progress::Progress(std::size_t total, std::ostream& out)
    : total_(total), out_(out), start_(std::chrono::steady_clock::now()) {}

void Progress::step(const std::string& label, bool measured) {
  ++done_;
  if (measured) ++measured_;
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  char buf[160];
  const double pct = total_ ? 100.0 * double(done_) / double(total_) : 100.0;
  if (measured_ > 0 && done_ < total_) {
    const double eta_s = elapsed_s / double(measured_) * double(total_ - done_);
    std::snprintf(buf, sizeof buf, "%5.1f s elapsed, ETA %6.1f s", elapsed_s, eta_s);
  } else {
    std::snprintf(buf, sizeof buf, "%5.1f s elapsed", elapsed_s);
  }
  out_ << '[' << done_ << '/' << total_ << "] " << int(pct) << "% " << label
       << (measured ? "  " : "  (already in DB)  ") << buf << '\n';
  out_.flush();
}

}  // namespace flowtune
