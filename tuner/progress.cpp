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

std::string progress_bar_line(const ProgressState& st, int columns) {
  columns = std::max(columns, 20);
  const double fraction = st.total ? std::min(1.0, double(st.done) / double(st.total)) : 1.0;
  constexpr int kWidth = 20;
  const int filled = int(fraction * kWidth);
  std::string line = "[" + std::string(std::size_t(filled), '#') +
                     std::string(std::size_t(kWidth - filled), '.') + "] " +
                     std::to_string(st.done) + "/" + std::to_string(st.total) + " " +
                     std::to_string(int(100 * fraction)) + "%";
  if (!st.best.empty()) line += " | best " + st.best;
  if (st.failed > 0) line += " | " + std::to_string(st.failed) + " failed";
  if (st.time_budget_s > 0) {
    line +=
        " | " + duration_text(st.elapsed_s) + " of " + duration_text(st.time_budget_s) + " budget";
  } else {
    line += " | " + duration_text(st.elapsed_s) + " elapsed";
  }
  if (st.eta_s) line += " | ETA " + duration_text(*st.eta_s);
  const std::size_t max = std::size_t(columns - 1);
  if (line.size() > max) line = line.substr(0, max);
  return line;
}

Progress::Progress(std::size_t total, double total_cost, std::ostream& out, ProgressStyle style,
                   int columns)
    : total_(total),
      total_cost_(total_cost),
      out_(out),
      style_(style),
      columns_(columns),
      start_(std::chrono::steady_clock::now()) {}

void Progress::step(const std::string& label, bool measured, double cost, bool failed) {
  if (!(cost > 0)) cost = 1;
  ++done_;
  done_cost_ += cost;
  if (measured) {
    ++measured_;
    measured_cost_ += cost;
  }
  if (failed) ++failed_;
  if (style_ == ProgressStyle::quiet) return;
  const double elapsed_s =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::optional<double> eta_s;
  if (measured_ > 0 && done_ < total_)
    eta_s = elapsed_s / measured_cost_ * std::max(0.0, total_cost_ - done_cost_);
  if (style_ == ProgressStyle::bar) {
    // \r: back to the line's start; ESC [ K: erase to its end (ECMA-48 EL).
    if (failed) out_ << "\r\x1b[K" << label << '\n';
    out_ << "\r"
         << progress_bar_line({done_, total_, failed_, elapsed_s, eta_s, time_budget_s_, best_},
                              columns_)
         << "\x1b[K";
    bar_open_ = true;
    out_.flush();
    return;
  }
  const double pct = total_ ? 100.0 * double(done_) / double(total_) : 100.0;
  std::string times = duration_text(elapsed_s) + " elapsed";
  if (eta_s) times += ", ETA " + duration_text(*eta_s);
  out_ << '[' << done_ << '/' << total_ << "] " << int(pct) << "% " << label
       << (measured ? "  " : "  (no measuring)  ") << times << '\n';
  out_.flush();
}

void Progress::finish() {
  if (!bar_open_) return;
  out_ << '\n';
  out_.flush();
  bar_open_ = false;
}

}  // namespace flowtune
