// The host side of the CUDA tiled Floyd-Warshall: padded and packed lower-triangle layouts
// (Marras et al. sec. 4.2) and the three-stage launch schedule.
#include <gtest/gtest.h>

#include "kernels/apsp/random_graph.hpp"
#include "kernels/apsp/tiled_layout.hpp"

namespace flowtune::apsp {
namespace {

TEST(TiledLayout, PaddedRoundTripAndIsolatedPadding) {
  RandomGraphOptions opt;
  opt.undirected = false;
  const DistMatrix w = random_graph(10, 1, opt, "g").weights;
  const std::vector<Dist> p = to_padded(w, 4);  // 12 x 12
  ASSERT_EQ(p.size(), 144u);
  EXPECT_EQ(p[3 * 12 + 7], w.at(3, 7));
  EXPECT_EQ(p[11 * 12 + 11], 0);    // padding diagonal
  EXPECT_EQ(p[11 * 12 + 2], kInf);  // padding row
  EXPECT_EQ(p[2 * 12 + 10], kInf);  // padding column
  EXPECT_EQ(from_padded(p, 10, 4), w);
  EXPECT_EQ(from_padded(to_padded(w, 5), 10, 5), w);  // no padding needed
  EXPECT_THROW(from_padded(p, 10, 5), std::invalid_argument);
  EXPECT_THROW(tile_blocks(10, 0), std::invalid_argument);
  EXPECT_EQ(tile_blocks(10, 4), 3);
  EXPECT_EQ(tile_blocks(0, 4), 0);
}

TEST(TiledLayout, LowerTilesAreContiguousAndRoundTrip) {
  const DistMatrix w = random_graph(10, 2, RandomGraphOptions{}, "g").weights;  // symmetric
  const std::vector<Dist> t = to_lower_tiles(w, 4);  // 3 x 3 tiles, 6 stored
  ASSERT_EQ(t.size(), 6u * 16u);
  EXPECT_EQ(lower_tile_index(2, 1), 4);
  // (9, 5) lives in tile (2, 1) at (1, 1).
  EXPECT_EQ(t[4 * 16 + 1 * 4 + 1], w.at(9, 5));
  EXPECT_EQ(t[5 * 16 + 3 * 4 + 3], 0);     // padding diagonal in tile (2, 2)
  EXPECT_EQ(t[5 * 16 + 3 * 4 + 0], kInf);  // padding row
  EXPECT_EQ(from_lower_tiles(t, 10, 4), w);
  EXPECT_THROW(from_lower_tiles(t, 10, 3), std::invalid_argument);
}

TEST(TiledLayout, ScheduleHasThreeStagesPerRound) {
  const auto one = tiled_fw_schedule(1, false);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].stage, 1);

  const auto directed = tiled_fw_schedule(4, false);
  ASSERT_EQ(directed.size(), 12u);
  EXPECT_EQ(directed[4].stage, 2);
  EXPECT_EQ(directed[4].kb, 1);
  EXPECT_EQ(directed[4].grid_x, 3u);
  EXPECT_EQ(directed[4].grid_y, 2u);
  EXPECT_EQ(directed[5].grid_x * directed[5].grid_y, 9u);

  const auto lower = tiled_fw_schedule(4, true);
  ASSERT_EQ(lower.size(), 12u);
  EXPECT_EQ(lower[1].grid_x, 3u);  // stage 2: half of the directed 2 x 3
  EXPECT_EQ(lower[2].grid_x, 6u);  // stage 3: 3 * 4 / 2 tiles instead of 9
  EXPECT_TRUE(tiled_fw_schedule(0, true).empty());
}

}  // namespace
}  // namespace flowtune::apsp
