// The main-effects surrogate (tuner/strategies/main_effects.hpp): hand-computed effects, and
// the fits and predictions from a point's levels equal to those from the space's coordinates.
#include <gtest/gtest.h>

#include "tuner/strategies/main_effects.hpp"

namespace flowtune::strategies {
namespace {

SpaceDimension dimension(const std::string& name, std::vector<std::string> labels) {
  SpaceDimension d;
  d.name = name;
  d.labels = std::move(labels);
  return d;
}

TEST(MainEffects, OneDimensionGivesTheShrunkLevelMeansByHand) {
  // Levels 0, 1, 2 and "does not apply" (-1 -> level 3), one point each; y = 1, 2, 3, 6.
  const SearchSpace space({dimension("a", {"0", "1", "2"})}, {{0}, {1}, {2}, {-1}});
  const std::vector<std::size_t> n_levels = dimension_levels(space);
  ASSERT_EQ(n_levels, (std::vector<std::size_t>{4}));
  const MainEffects m = fit_main_effects(space, n_levels, {0, 1, 2, 3}, {1, 2, 3, 6});
  // mean 3; residuals -2, -1, 0, 3 over (1 point + kEffectShrink 1): -1, -0.5, 0, 1.5, and
  // later sweeps find the same partial residuals.
  EXPECT_DOUBLE_EQ(m.mean, 3);
  ASSERT_EQ(m.effect.size(), 1u);
  EXPECT_DOUBLE_EQ(m.effect[0][0], -1);
  EXPECT_DOUBLE_EQ(m.effect[0][1], -0.5);
  EXPECT_DOUBLE_EQ(m.effect[0][2], 0);
  EXPECT_DOUBLE_EQ(m.effect[0][3], 1.5);
  EXPECT_DOUBLE_EQ(m.predict(space, n_levels, 0), 2);
  EXPECT_DOUBLE_EQ(m.predict(point_levels(space, n_levels, 3)), 4.5);
}

TEST(MainEffects, FitsFromLevelsEqualFitsFromThePoints) {
  const SearchSpace space({dimension("a", {"0", "1"}), dimension("b", {"x", "y", "z"})},
                          {{0, 0}, {0, 1}, {1, 2}, {1, -1}, {0, -1}, {1, 0}, {0, 2}, {1, 1}});
  const std::vector<std::size_t> n_levels = dimension_levels(space);
  const std::vector<std::size_t> points = {0, 1, 2, 3, 4, 5};
  const std::vector<double> raw = {1.5, 2.0, 4.0, 3.0, 1.0, 2.5};
  std::vector<PointLevels> rows;
  for (std::size_t p : points) rows.push_back(point_levels(space, n_levels, p));
  EXPECT_EQ(rows[3], (PointLevels{1, 3})) << "b does not apply: its last level";
  std::vector<const PointLevels*> levels;
  for (const PointLevels& r : rows) levels.push_back(&r);

  const FigureModel by_points = fit_figure(space, n_levels, points, raw, false);
  const FigureModel by_levels = fit_figure(n_levels, levels, raw, false);
  ASSERT_TRUE(by_points.valid);
  ASSERT_TRUE(by_levels.valid);
  EXPECT_TRUE(by_points.log_space);
  EXPECT_EQ(by_points.model.effect, by_levels.model.effect);
  EXPECT_EQ(by_points.count, by_levels.count);
  EXPECT_DOUBLE_EQ(by_points.residual_sd, by_levels.residual_sd);
  for (std::size_t p : {6, 7}) {  // points outside the fit
    const PointLevels l = point_levels(space, n_levels, p);
    EXPECT_DOUBLE_EQ(by_points.model.predict(space, n_levels, p), by_levels.model.predict(l));
    EXPECT_DOUBLE_EQ(by_points.predicted_sd(space, n_levels, p), by_levels.predicted_sd(l));
  }
  // A fit reproduces the ordering of its own data where one dimension explains it.
  EXPECT_LT(by_levels.model.predict(rows[4]), by_levels.model.predict(rows[2]));
}

}  // namespace
}  // namespace flowtune::strategies
