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

std::string count_progress_line(const std::string& what, std::size_t done, std::size_t total,
                                double elapsed_s) {
  // Whole percent, rounded down: 100% only when done.
  const unsigned long long pct =
      total ? static_cast<unsigned long long>(100.0L * done / total) : 100ULL;
  std::string line = what + ": " + std::to_string(done) + "/" + std::to_string(total) + " (" +
                     std::to_string(pct) + "%), " + duration_text(elapsed_s) + " elapsed";
  if (done > 0 && done < total)
    line += ", ETA " + duration_text(elapsed_s / double(done) * double(total - done)) +
            " (estimated from the rate so far)";
  return line;
}

void CountProgress::tick(std::size_t done) {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_ < std::chrono::seconds(2)) return;
  last_ = now;
  out_ << count_progress_line(what_, done, total_,
                              std::chrono::duration<double>(now - start_).count())
       << std::endl;
}

void CountProgress::finish(std::size_t done) {
  const auto now = std::chrono::steady_clock::now();
  out_ << count_progress_line(what_, done, total_,
                              std::chrono::duration<double>(now - start_).count())
       << std::endl;
}

BudgetProgress budget_progress(std::size_t done, std::size_t total, double elapsed_s,
                               double time_budget_s, double s_per_cost, double cost_left) {
  BudgetProgress b;
  b.fraction = total ? double(done) / double(total) : (time_budget_s > 0 ? 0.0 : 1.0);
  if (time_budget_s > 0) b.fraction = std::max(b.fraction, elapsed_s / time_budget_s);
  b.fraction = std::min(1.0, b.fraction);
  if (elapsed_s > 0) b.points_per_s = double(done) / elapsed_s;
  const bool time_spent = time_budget_s > 0 && elapsed_s >= time_budget_s;
  if ((total && done >= total) || time_spent) return b;
  if (s_per_cost > 0) b.eta_s = s_per_cost * std::max(0.0, cost_left);
  if (time_budget_s > 0) {
    const double time_left = time_budget_s - elapsed_s;
    b.eta_s = b.eta_s ? std::min(*b.eta_s, time_left) : time_left;
  }
  return b;
}

std::string progress_bar_line(const ProgressState& st, int columns) {
  columns = std::max(columns, 20);
  constexpr int kWidth = 20;
  const int filled = int(st.budget.fraction * kWidth);
  std::ostringstream rate;  // "0.17", "2.5", "42": two significant digits, no exponent
  if (st.budget.points_per_s < 10)
    rate << std::setprecision(2) << st.budget.points_per_s;
  else
    rate << std::fixed << std::setprecision(0) << st.budget.points_per_s;
  std::string line = "[" + std::string(std::size_t(filled), '#') +
                     std::string(std::size_t(kWidth - filled), '.') + "] " +
                     std::to_string(st.done) +
                     (st.total ? "/" + std::to_string(st.total) : std::string(" points")) + " " +
                     std::to_string(int(100 * st.budget.fraction)) + "%";
  if (st.done > 0) line += " | " + rate.str() + " points/s";
  if (!st.best.empty()) line += " | best " + st.best;
  if (!st.activity.empty()) line += " | " + st.activity;
  if (st.failed > 0) line += " | " + std::to_string(st.failed) + " failed";
  if (st.time_budget_s > 0) {
    line +=
        " | " + duration_text(st.elapsed_s) + " of " + duration_text(st.time_budget_s) + " budget";
  } else {
    line += " | " + duration_text(st.elapsed_s) + " elapsed";
  }
  if (st.budget.eta_s) line += " | ETA " + duration_text(*st.budget.eta_s);
  const std::size_t max = std::size_t(columns - 1);
  if (line.size() > max) line = line.substr(0, max);
  return line;
}

std::string budget_left_text(const ProgressState& st) {
  std::string text = "budget left: ";
  if (st.time_budget_s > 0) text += duration_text(std::max(0.0, st.time_budget_s - st.elapsed_s));
  if (st.total > 0)
    text += std::string(st.time_budget_s > 0 ? ", " : "") +
            std::to_string(st.total > st.done ? st.total - st.done : 0) + " evaluations";
  if (st.budget.eta_s) text += "; ETA " + duration_text(*st.budget.eta_s);
  if (!st.activity.empty()) text += "; " + st.activity;
  return text;
}

Progress::Progress(std::size_t total, double total_cost, std::ostream& out, ProgressStyle style,
                   int columns, Clock clock)
    : total_(total),
      total_cost_(total_cost),
      out_(out),
      style_(style),
      columns_(columns),
      clock_(std::move(clock)) {
  if (!clock_) {
    const auto start = std::chrono::steady_clock::now();
    clock_ = [start] {
      return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    };
  }
}

ProgressState Progress::state() const {
  ProgressState st;
  st.done = done_;
  st.total = total_;
  st.failed = failed_;
  st.elapsed_s = clock_();
  st.time_budget_s = time_budget_s_;
  st.best = best_;
  st.activity = activity_;
  const double s_per_cost = measured_ > 0 ? st.elapsed_s / measured_cost_ : 0;
  st.budget = budget_progress(done_, total_, st.elapsed_s, time_budget_s_, s_per_cost,
                              total_cost_ - done_cost_);
  return st;
}

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
  const ProgressState st = state();
  if (style_ == ProgressStyle::bar) {
    // \r: back to the line's start; ESC [ K: erase to its end (ECMA-48 EL).
    if (failed) out_ << "\r\x1b[K" << label << '\n';
    out_ << "\r" << progress_bar_line(st, columns_) << "\x1b[K";
    bar_open_ = true;
    out_.flush();
    return;
  }
  out_ << '[' << done_ << (total_ ? "/" + std::to_string(total_) : std::string()) << "] "
       << int(100 * st.budget.fraction) << "% " << label << (measured ? "" : " (no measuring)")
       << " | " << duration_text(st.elapsed_s) << " elapsed, " << budget_left_text(st) << '\n';
  out_.flush();
}

void Progress::note(const std::string& text, bool on_bar) {
  if (style_ == ProgressStyle::quiet || (style_ == ProgressStyle::bar && !on_bar)) return;
  if (style_ == ProgressStyle::bar) {
    out_ << "\r\x1b[K" << text << '\n';
    if (bar_open_) out_ << "\r" << progress_bar_line(state(), columns_) << "\x1b[K";
  } else {
    out_ << text << '\n';
  }
  out_.flush();
}

void Progress::finish() {
  if (!bar_open_) return;
  out_ << '\n';
  out_.flush();
  bar_open_ = false;
}

}  // namespace flowtune
