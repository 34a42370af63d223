// Multi-fidelity: the promotion rule of asynchronous successive halving over Pareto dominance
// and the surrogate told for screened-out points, by hand; a multi-fidelity run end to end
// stores its screens apart from the full-fidelity dataset and resumes without screening again.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "db/repository.hpp"
#include "tuner/screening.hpp"

namespace fs = std::filesystem;
using namespace flowtune;

TEST(Screening, PromotesTheTopThirdByDominanceCountByHand) {
  Screening s(3);
  EXPECT_TRUE(s.screen(0, {1, 1}));       // n 1: allowed ceil(1/3) = 1, dominated by 0
  EXPECT_FALSE(s.screen(1, {2, 2}));      // n 2: allowed 1, dominated by point 0
  EXPECT_TRUE(s.screen(2, {0.5, 3}));     // n 3: allowed 1, dominated by none
  EXPECT_FALSE(s.screen(3, {3, 3}));      // n 4: allowed 2, dominated by 0, 1 and 2
  EXPECT_TRUE(s.screen(4, {2.5, 1.5}));   // n 5: allowed 2, dominated by 0 only
  EXPECT_FALSE(s.screen(5, {NAN, 0.1}));  // a missing figure is never promoted
  EXPECT_EQ(s.screened(), 6u);
  EXPECT_EQ(s.promoted(), 3u);
  EXPECT_THROW(Screening(1), std::invalid_argument);
}

TEST(Screening, SurrogateScalesByTheMedianFullOverScreenRatio) {
  Screening s(3);
  s.screen(0, {1, 1});
  s.screen(1, {2, 2});
  s.screen(2, {4, 1e12 + 1});                                    // infeasible: a constraint penalty
  EXPECT_EQ(s.surrogate(1, 1e12), (std::vector<double>{2, 2}));  // no full result yet
  s.full_result(0, {2, 1.5});
  EXPECT_EQ(s.surrogate(1, 1e12), (std::vector<double>{4, 3}));
  EXPECT_EQ(s.surrogate(2, 1e12), (std::vector<double>{8, 1e12 + 1}));  // the penalty stays
  s.full_result(2, {12, 5});  // its penalised objective gives no ratio
  EXPECT_EQ(s.surrogate(1, 1e12)[1], 3);
  EXPECT_THROW(s.surrogate(9, 1e12), std::out_of_range);
}

TEST(Screening, AMultiFidelityRunStoresScreensApartAndResumesWithoutScreeningAgain) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_mf_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "mf.db").string();
  const std::string cmd = std::string(FLOWTUNE_TUNE_EXE) + " --board host --db " + db + " --data " +
                          FLOWTUNE_TEST_REPO_DATA +
                          "/middlebury --variant kokkos_global --tunable tile_x=32"
                          " --tunable tile_y=4 --no-default-dimensions --param n_scales=2"
                          " --param n_warpings=1 --param iterations=5,10,20 --param epsilon=0"
                          " --multi-fidelity --time-budget 0 > " +
                          (dir / "out.txt").string() + " 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  std::size_t screens = 0, full = 0;
  for (const db::MeasuredConfig& mc : db::Repository(db).measured("host")) {
    if (mc.measurement.dataset.find("#screen") != std::string::npos) {
      ++screens;
      EXPECT_EQ(mc.measurement.items.size(), 1u);  // one item
    } else {
      ++full;
      EXPECT_EQ(mc.measurement.items.size(), 2u);  // RubberWhale and Grove2
    }
  }
  EXPECT_EQ(db::Repository(db).datasets("host").size(), 2u);
  EXPECT_EQ(screens, 3u);                  // every point was screened
  EXPECT_GE(full, 1u);                     // the first one is always promoted
  ASSERT_EQ(std::system(cmd.c_str()), 0);  // the same command again measures nothing
  std::ifstream in(dir / "out.txt");
  std::stringstream out;
  out << in.rdbuf();
  EXPECT_NE(out.str().find(" 0 measured now"), std::string::npos) << out.str();
  EXPECT_EQ(db::Repository(db).measured("host").size(), screens + full);
  fs::remove_all(dir);
}
