// Progress lines (tuner/progress.hpp): elapsed time and ETA in the same units as the run's
// whole-space estimate (duration_text), never seconds beside minutes.
#include <gtest/gtest.h>

#include <chrono>
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
  EXPECT_EQ(line.rfind("[1/3] 33% first  ", 0), 0u) << line;
  const std::size_t eta = line.find("ETA ");
  ASSERT_NE(eta, std::string::npos) << line;
  // 8001 x >= 20 ms: minutes (hours on a very slow machine), never seconds.
  EXPECT_TRUE(line.find(" min\n", eta) != std::string::npos ||
              line.find(" h\n", eta) != std::string::npos)
      << line;
  EXPECT_EQ(line.find(".0 s"), std::string::npos) << line;
}

}  // namespace
}  // namespace flowtune
