#include <gtest/gtest.h>

#include <set>

#include "boards/board.hpp"
#include "tuner/space.hpp"
#include "tuner/strategy.hpp"

namespace flowtune {
namespace {

TEST(Space, CartesianProductOfTunablesAndIterations) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.tunable_values = {{"tile_x", {16, 32}}, {"tile_y", {1, 2, 4}}};
  o.iterations = {10, 20};
  const std::vector<Config> space = enumerate_space(host, o);
  ASSERT_EQ(space.size(), 2u * 3u * 2u);
  std::set<std::string> keys;
  for (const Config& c : space) {
    EXPECT_EQ(c.variant, "kokkos_global");
    keys.insert(c.key());
  }
  EXPECT_EQ(keys.size(), space.size()) << "duplicate points";
}

TEST(Space, UnknownVariantAndTunableAreErrors) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.variants = {"no_such_variant"};
  EXPECT_THROW(enumerate_space(host, o), std::invalid_argument);
  SpaceOptions t;
  t.tunable_values = {{"no_such_tunable", {1}}};
  EXPECT_THROW(enumerate_space(host, t), std::invalid_argument);
}

TEST(Strategy, BruteForceVisitsAllInOrderRandomSampleIsASeededSubset) {
  EXPECT_EQ(make_strategy("brute_force", 0, 1)->order(4), (std::vector<std::size_t>{0, 1, 2, 3}));
  const auto a = make_strategy("random_sample", 5, 42)->order(20);
  const auto b = make_strategy("random_sample", 5, 42)->order(20);
  EXPECT_EQ(a, b);
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(std::set<std::size_t>(a.begin(), a.end()).size(), 5u);
  for (std::size_t i : a) EXPECT_LT(i, 20u);
  EXPECT_THROW(make_strategy("annealing", 0, 1), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
