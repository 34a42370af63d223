#include "tuner/progress.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

namespace flowtune {

std::string duration_text(double s) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(0);
  if (s < 120) {
    os << s << " s";
  } else if (s < 7200) {
    os << s / 60 << " min";
  } else {
    os << std::setprecision(1) << s / 3600 << " h";
  }
  return os.str();
}

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
  const double pct = total_ ? 100.0 * double(done_) / double(total_) : 100.0;
  std::string times = duration_text(elapsed_s) + " elapsed";
  if (measured_ > 0 && done_ < total_) {
    const double left = std::max(0.0, total_cost_ - done_cost_);
    times += ", ETA " + duration_text(elapsed_s / measured_cost_ * left);
  }
  out_ << '[' << done_ << '/' << total_ << "] " << int(pct) << "% " << label
       << (measured ? "  " : "  (no measuring)  ") << times << '\n';
  out_.flush();
}

}  // namespace flowtune
