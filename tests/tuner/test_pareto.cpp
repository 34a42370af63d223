#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "select/pareto.hpp"

namespace flowtune {
namespace {

using Points = std::vector<std::vector<double>>;
using Indices = std::vector<std::size_t>;
const double kNaN = std::numeric_limits<double>::quiet_NaN();

TEST(ParetoFront, EmptyAndSinglePoint) {
  EXPECT_TRUE(pareto_front({}).empty());
  EXPECT_EQ(pareto_front({{3.0, 4.0}}), Indices({0}));
}

TEST(ParetoFront, DominatedPointsAreDropped) {
  // (3,4) is dominated by (2,3); (2,6) by (1,5) and (2,3).
  const Points p = {{1, 5}, {2, 3}, {3, 4}, {4, 1}, {2, 6}};
  EXPECT_EQ(pareto_front(p), Indices({0, 1, 3}));
}

TEST(ParetoFront, TieInOneObjectiveIsDominatedByTheBetterOther) {
  EXPECT_EQ(pareto_front({{1, 3}, {1, 2}}), Indices({1}));
  EXPECT_EQ(pareto_front({{2, 2}, {1, 2}}), Indices({1}));
}

TEST(ParetoFront, ExactDuplicatesOfAFrontPointAreAllOnTheFront) {
  EXPECT_EQ(pareto_front({{2, 1}, {1, 2}, {1, 2}}), Indices({1, 2, 0}));
  // Duplicates of a dominated point stay dominated.
  EXPECT_EQ(pareto_front({{3, 3}, {3, 3}, {1, 1}}), Indices({2}));
}

TEST(ParetoFront, NaNIsNeverOnTheFrontAndDominatesNothing) {
  EXPECT_EQ(pareto_front({{kNaN, 0}, {1, 1}, {2, 0.5}}), Indices({1, 2}));
  EXPECT_EQ(pareto_front({{0, kNaN}, {1, 5}}), Indices({1}));
  EXPECT_TRUE(pareto_front({{kNaN, kNaN}}).empty());
}

TEST(ParetoFront, SortedByFirstThenSecondObjective) {
  const Points p = {{9, 1}, {1, 9}, {5, 5}, {3, 7}};
  EXPECT_EQ(pareto_front(p), Indices({1, 3, 2, 0}));
}

TEST(ParetoFront, ThreeObjectives) {
  // (2,2,2) is dominated by (1,2,2); (3,1,3) and (1,3,1) trade off.
  const Points p = {{2, 2, 2}, {1, 2, 2}, {3, 1, 3}, {1, 3, 1}};
  EXPECT_EQ(pareto_front(p), Indices({1, 3, 2}));
}

TEST(ParetoFront, MismatchedDimensionsThrow) {
  EXPECT_THROW(pareto_front({{1, 2}, {1}}), std::invalid_argument);
}

// Independent 2-D oracle: p is dominated iff some point with a smaller first objective has a
// second objective <= p's, or some point with an equal first objective has a smaller second.
TEST(ParetoFront, MatchesA2DOracleOnRandomSetsWithManyTies) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> coord(0, 6);
  for (int trial = 0; trial < 200; ++trial) {
    Points p(static_cast<std::size_t>(1 + trial % 25));
    for (auto& q : p) q = {double(coord(rng)), double(coord(rng))};
    Indices expected;
    for (std::size_t i = 0; i < p.size(); ++i) {
      bool dominated = false;
      for (const auto& q : p) {
        dominated =
            dominated || (q[0] < p[i][0] && q[1] <= p[i][1]) || (q[0] == p[i][0] && q[1] < p[i][1]);
      }
      if (!dominated) expected.push_back(i);
    }
    std::sort(expected.begin(), expected.end(),
              [&](std::size_t a, std::size_t b) { return p[a] != p[b] ? p[a] < p[b] : a < b; });
    ASSERT_EQ(pareto_front(p), expected) << "trial " << trial;
  }
}

}  // namespace
}  // namespace flowtune
