// The progress display speaks of the run's budget (tuner/progress.hpp): its fraction, ETA
// and points/s against hand-computed values, and the lines of a run on a fake clock.
#include <gtest/gtest.h>

#include <sstream>

#include "tuner/progress.hpp"

namespace flowtune {
namespace {

TEST(CountProgress, CountPercentageAndEtaFromTheRateSoFar) {
  // 1200 of 4800 in 3 s: 25%, 3600 to go at 400 per second: 9 s.
  EXPECT_EQ(count_progress_line("checking kernel configs", 1200, 4800, 3),
            "checking kernel configs: 1200/4800 (25%), 3 s elapsed, ETA 9 s (estimated from the "
            "rate so far)");
  // 4799 of 4800 is 99%, never a rounded-up 100% before the end; no ETA once done or before
  // anything is done.
  EXPECT_EQ(count_progress_line("x", 4799, 4800, 10).substr(0, 17), "x: 4799/4800 (99%");
  EXPECT_EQ(count_progress_line("x", 4800, 4800, 12), "x: 4800/4800 (100%), 12 s elapsed");
  EXPECT_EQ(count_progress_line("x", 0, 4800, 2), "x: 0/4800 (0%), 2 s elapsed");
}

TEST(BudgetProgress, TheTimeBudgetBindsBeforeTheEvaluations) {
  // 2 of 40 points after 10 s of a 20 s budget, 2 cost units measured in 10 s (5 s per
  // unit), 38 units to go: the evaluations would take 190 s, the budget ends in 10 s.
  const BudgetProgress b = budget_progress(2, 40, 10, 20, 5, 38);
  EXPECT_DOUBLE_EQ(b.fraction, 0.5);  // max(2/40, 10/20)
  ASSERT_TRUE(b.eta_s);
  EXPECT_DOUBLE_EQ(*b.eta_s, 10);
  EXPECT_DOUBLE_EQ(b.points_per_s, 0.2);
}

TEST(BudgetProgress, TheEvaluationsBindBeforeTheTimeBudget) {
  // 30 of 40 points after 60 s of a 600 s budget, 2 s per unit, 10 units left: 20 s.
  const BudgetProgress b = budget_progress(30, 40, 60, 600, 2, 10);
  EXPECT_DOUBLE_EQ(b.fraction, 0.75);
  ASSERT_TRUE(b.eta_s);
  EXPECT_DOUBLE_EQ(*b.eta_s, 20);
  EXPECT_DOUBLE_EQ(b.points_per_s, 0.5);
}

TEST(BudgetProgress, NothingMeasuredYetAndTheEnds) {
  // With a time budget the ETA is the time left from the start (as the run's estimate says).
  BudgetProgress b = budget_progress(0, 40, 2, 20, 0, 40);
  EXPECT_DOUBLE_EQ(b.fraction, 0.1);
  ASSERT_TRUE(b.eta_s);
  EXPECT_DOUBLE_EQ(*b.eta_s, 18);
  EXPECT_DOUBLE_EQ(b.points_per_s, 0);
  // Without one, nothing to go on.
  EXPECT_FALSE(budget_progress(0, 40, 2, 0, 0, 40).eta_s);
  // Done: all evaluations, or the time budget spent (fraction capped at 1).
  b = budget_progress(40, 40, 8, 20, 1, 0);
  EXPECT_DOUBLE_EQ(b.fraction, 1);
  EXPECT_FALSE(b.eta_s);
  b = budget_progress(3, 40, 25, 20, 1, 37);
  EXPECT_DOUBLE_EQ(b.fraction, 1);
  EXPECT_FALSE(b.eta_s);
}

TEST(BudgetProgress, BarOfTheBudgetWithPointsPerSecond) {
  ProgressState st;
  st.done = 2;
  st.total = 40;
  st.failed = 1;
  st.elapsed_s = 10;
  st.time_budget_s = 20;
  st.best = "time_ms 4.21";
  st.budget = budget_progress(2, 40, 10, 20, 5, 38);
  EXPECT_EQ(progress_bar_line(st, 200),
            "[##########..........] 2/40 50% | 0.2 points/s | best time_ms 4.21 | 1 failed | "
            "10 s of 20 s budget | ETA 10 s");
  EXPECT_EQ(budget_left_text(st), "budget left: 10 s, 38 evaluations; ETA 10 s");
  st.budget.points_per_s = 42.4;  // from 10 on, whole points
  EXPECT_NE(progress_bar_line(st, 200).find(" | 42 points/s | "), std::string::npos);
  st.time_budget_s = 0;
  st.budget = budget_progress(2, 40, 10, 0, 5, 38);
  EXPECT_EQ(budget_left_text(st), "budget left: 38 evaluations; ETA 3 min");  // 190 s
}

// A run of 4 points of a 20 s budget on a fake clock: each line says the point, the budget's
// fraction and what is left of it.
TEST(BudgetProgress, LinesOnAFakeClock) {
  double now = 0;
  std::ostringstream out;
  Progress p(4, 4, out, ProgressStyle::lines, 100, [&now] { return now; });
  p.set_time_budget(20);
  now = 4;
  p.step("iterations=50: 1 s", true);
  now = 6;
  p.step("iterations=100 (already in the DB)", false);
  p.note("iterations=300 pruned (tile)");
  EXPECT_EQ(out.str(),
            "[1/4] 25% iterations=50: 1 s | 4 s elapsed, budget left: 16 s, 3 evaluations; ETA "
            "12 s\n"
            "[2/4] 50% iterations=100 (already in the DB) (no measuring) | 6 s elapsed, budget "
            "left: 14 s, 2 evaluations; ETA 12 s\n"
            "iterations=300 pruned (tile)\n");
}

TEST(BudgetProgress, PrunedNotesStayOffTheBar) {
  double now = 1;
  std::ostringstream out;
  Progress p(2, 2, out, ProgressStyle::bar, 100, [&now] { return now; });
  p.note("x pruned (tile)", false);
  EXPECT_EQ(out.str(), "");
  p.note("y cancelled at the time budget");
  EXPECT_EQ(out.str(), "\r\x1b[Ky cancelled at the time budget\n");
}

}  // namespace
}  // namespace flowtune
