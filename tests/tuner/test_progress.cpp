// Progress lines (tuner/progress.hpp): elapsed time and ETA in the same units as the run's
// estimate (duration_text), never seconds beside minutes.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <regex>
#include <sstream>
#include <thread>

#include "tuner/progress.hpp"

namespace flowtune {
namespace {

TEST(Progress, DurationTextPicksOneReadableUnit) {
  EXPECT_EQ(duration_text(45), "45 s");
  EXPECT_EQ(duration_text(119), "119 s");
  EXPECT_EQ(duration_text(17 * 60), "17 min");
  EXPECT_EQ(duration_text(66 * 60), "66 min");
  EXPECT_EQ(duration_text(2.5 * 3600), "2.5 h");
}

// After 1 of 1000 equal points in ~20 ms the ETA is ~20 s; with a point 4000 times as
// costly left it is minutes, written in minutes like the estimate ("ETA 1.0e+03 s" before).
TEST(Progress, EtaIsWrittenWithDurationText) {
  std::ostringstream out;
  Progress p(3, 1 + 1 + 8000, out);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  p.step("first", true, 1);
  const std::string line = out.str();
  EXPECT_EQ(line.rfind("[1/3] 33% first | 0 s elapsed, budget left: 2 evaluations; ETA ", 0), 0u)
      << line;
  const std::size_t eta = line.find("ETA ");
  ASSERT_NE(eta, std::string::npos) << line;
  // 8001 x >= 20 ms: minutes (hours on a very slow machine), never seconds.
  EXPECT_TRUE(line.find(" min\n", eta) != std::string::npos ||
              line.find(" h\n", eta) != std::string::npos)
      << line;
  EXPECT_EQ(line.find(".0 s"), std::string::npos) << line;
}

// A run bounded by its time budget alone (total 0): the count has no total, the budget left
// no evaluations, the fraction and the ETA are the time budget's; the activity ends the line.
TEST(Progress, WithoutALimitOnEvaluationsTheTimeBudgetAloneCounts) {
  std::ostringstream out;
  double now = 30;
  Progress p(0, 100, out, ProgressStyle::lines, 100, [&now] { return now; });
  p.set_time_budget(120);
  p.set_activity("measuring 83%, waiting for builds 9%");
  p.step("first", true, 1);
  EXPECT_EQ(out.str(),
            "[1] 25% first | 30 s elapsed, budget left: 90 s; ETA 90 s; measuring 83%, waiting "
            "for builds 9%\n");
  ProgressState st;
  st.done = 12;
  st.elapsed_s = 60;
  st.time_budget_s = 120;
  st.budget = budget_progress(12, 0, 60, 120, 5, 1e12);
  EXPECT_DOUBLE_EQ(st.budget.fraction, 0.5);
  ASSERT_TRUE(st.budget.eta_s);
  EXPECT_DOUBLE_EQ(*st.budget.eta_s, 60);
  EXPECT_EQ(progress_bar_line(st, 200),
            "[##########..........] 12 points 50% | 0.2 points/s | 60 s of 2 min budget | ETA "
            "60 s");
}

// The bar line, against hand-written expectations.
TEST(Progress, BarLineShowsCountBestFailuresBudgetAndEta) {
  ProgressState st;
  st.done = 12;
  st.total = 40;
  st.failed = 2;
  st.elapsed_s = 72;
  st.time_budget_s = 300;
  st.best = "time_ms 4.21, aepe 0.312";
  // 72 s for 12 points of cost 1 (6 s each), 28 left: 168 s (3 min), within the 228 s left.
  st.budget = budget_progress(12, 40, 72, 300, 6, 28);
  EXPECT_EQ(progress_bar_line(st, 200),
            "[######..............] 12/40 30% | 0.17 points/s | best time_ms 4.21, aepe 0.312 | "
            "2 failed | 72 s of 5 min budget | ETA 3 min");
  const std::string cut = progress_bar_line(st, 40);
  EXPECT_EQ(cut.size(), 39u);
  EXPECT_EQ(cut, progress_bar_line(st, 200).substr(0, 39));
  ProgressState first;  // nothing measured, no failure, no budget: no best, no ETA
  first.total = 3;
  first.elapsed_s = 5;
  first.budget = budget_progress(0, 3, 5, 0, 0, 3);
  EXPECT_EQ(progress_bar_line(first, 100), "[....................] 0/3 0% | 5 s elapsed");
  first.done = 3;
  first.budget = budget_progress(3, 3, 5, 0, 1, 0);
  EXPECT_EQ(progress_bar_line(first, 100),
            "[####################] 3/3 100% | 0.6 points/s | 5 s elapsed");
}

// bar: the line is redrawn in place (carriage return, erase to its end); a failure is also a
// line of its own above it; finish() ends the bar's line. quiet: nothing.
TEST(Progress, BarRedrawsOneLineAndQuietWritesNothing) {
  std::ostringstream out;
  Progress p(2, 2, out, ProgressStyle::bar, 160);
  p.set_time_budget(600);
  p.set_best("aepe 0.5");
  p.step("one", true);
  EXPECT_EQ(out.str().find('\n'), std::string::npos) << out.str();
  EXPECT_EQ(out.str().rfind("\r[##########..........] 1/2 50% | ", 0), 0u) << out.str();
  EXPECT_NE(out.str().find(" points/s | best aepe 0.5 | "), std::string::npos) << out.str();
  EXPECT_NE(out.str().find(" of 10 min budget | ETA "), std::string::npos) << out.str();
  EXPECT_EQ(out.str().substr(out.str().size() - 3), "\x1b[K");
  p.step("two failed (runtime): boom", true, 1, true);
  EXPECT_NE(out.str().find("\r\x1b[Ktwo failed (runtime): boom\n\r[####################] 2/2 "
                           "100% | "),
            std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find(" points/s | best aepe 0.5 | 1 failed | "), std::string::npos)
      << out.str();
  p.finish();
  p.finish();
  const std::string text = out.str();
  EXPECT_EQ(text.back(), '\n');
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);

  std::ostringstream none;
  Progress q(1, 1, none, ProgressStyle::quiet);
  q.step("x", true, 1, true);
  q.finish();
  EXPECT_EQ(none.str(), "");
  EXPECT_EQ(q.done(), 1u);
}

// lines (not a terminal): one line per point with the budget left, failures included.
TEST(Progress, LinesSayTheBudgetLeft) {
  std::ostringstream out;
  Progress p(2, 2, out);
  p.step("a failed (compile): x", true, 1, true);
  p.step("b (already in the DB)", false);
  p.finish();
  const std::string text = out.str();
  const std::regex expected(
      "\\[1/2\\] 50% a failed \\(compile\\): x \\| [0-9]+ s elapsed, budget left: 1 evaluations; "
      "ETA [0-9]+ s\n"
      "\\[2/2\\] 100% b \\(already in the DB\\) \\(no measuring\\) \\| [0-9]+ s elapsed, "
      "budget left: 0 evaluations\n");
  EXPECT_TRUE(std::regex_match(text, expected)) << text;
}

}  // namespace
}  // namespace flowtune
