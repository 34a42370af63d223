#include <gtest/gtest.h>

#include <cmath>
#include <set>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/options.hpp"
#include "tuner/space.hpp"
#include "tuner/strategy.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {
namespace {

TEST(Space, CartesianProductOfTunablesAndParameters) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.variants = {"kokkos_global"};
  o.tunable_values = {{"tile_x", {16, 32}}, {"tile_y", {1, 2, 4}}};
  o.param_values = {{"iterations", {10, 20}}, {"lambda", {0.1, 0.2, 0.4}}};
  o.default_dimensions = false;
  const std::vector<Config> space = enumerate_space(host, o);
  ASSERT_EQ(space.size(), 2u * 3u * 2u * 3u);
  std::set<std::string> keys;
  for (const Config& c : space) {
    EXPECT_EQ(c.workload, "tvl1");
    EXPECT_EQ(c.variant, "kokkos_global");
    EXPECT_EQ(c.params.size(), find_workload("tvl1").params().size());
    EXPECT_DOUBLE_EQ(c.param("n_warpings"), 5);  // the default, not a dimension here
    keys.insert(to_config_row("host", c).key);
  }
  EXPECT_EQ(keys.size(), space.size()) << "duplicate points";
}

TEST(Space, DefaultDimensionsOfTheWorkloadSpanTheParametersThatMatter) {
  const Workload& w = find_workload("tvl1");
  const ParamDimensions dims = parameter_dimensions(w, load_board("h200"), SpaceOptions{});
  EXPECT_GE(dims.at("iterations").size(), 2u);
  EXPECT_GE(dims.at("n_warpings").size(), 2u);
  EXPECT_EQ(dims.at("epsilon").values(), std::vector<double>{0});  // GPU: fixed iterations
  SpaceOptions o;
  o.param_values = {{"n_warpings", {3}}};
  EXPECT_EQ(parameter_dimensions(w, load_board("host"), o).at("n_warpings").values(),
            std::vector<double>{3});
}

// The accuracy additions are dimensions of the default spaces (from off to their papers'
// settings); of their own defaults only median_window's is on (5, README "Defaults"), each
// absent value off; pinning them off divides the space by their counts.
TEST(Space, AccuracyAdditionsAreDefaultDimensionsAndOnlyTheMedianIsOnByDefault) {
  const Workload& w = find_workload("tvl1");
  const ParamDimensions gpu = parameter_dimensions(w, load_board("h200"), SpaceOptions{});
  EXPECT_EQ(gpu.at("median_window").values(), (std::vector<double>{0, 3, 5}));
  EXPECT_EQ(gpu.at("nl_median_window").values(), (std::vector<double>{0, 3, 5, 7}));
  EXPECT_EQ(gpu.at("texture_alpha").values().front(), 0);
  EXPECT_EQ(gpu.at("texture_alpha").values().back(), 0.95);
  const ParamDimensions host = parameter_dimensions(w, load_board("host"), SpaceOptions{});
  EXPECT_EQ(host.at("median_window").values(), (std::vector<double>{0, 3, 5}));
  EXPECT_EQ(host.at("nl_median_window").values(), std::vector<double>{0});
  EXPECT_EQ(host.at("texture_alpha").values(), std::vector<double>{0});
  const ParamValues defaults = w.default_params();
  EXPECT_EQ(defaults.at("median_window"), 5);
  for (const char* name : {"nl_median_window", "texture_alpha"})
    EXPECT_EQ(defaults.at(name), 0) << name;
  for (const char* name : {"median_window", "nl_median_window", "texture_alpha"})
    EXPECT_EQ(w.find_param(name)->absent_value, std::optional<double>(0)) << name;

  SpaceOptions off;  // the additions pinned off: the space without them
  off.param_values = {{"median_window", {0}}, {"nl_median_window", {0}}, {"texture_alpha", {0}}};
  const Board h200 = load_board("h200");
  const std::size_t gpu_now = make_space(h200, SpaceOptions{}).size();
  if (gpu_now == 0) GTEST_SKIP() << "no CUDA variants in this build";
  // median 3 x weighted median 4 x texture_alpha 20 values (0, 0.05, ..., 0.95).
  EXPECT_EQ(gpu_now, 3 * 4 * 20 * make_space(h200, off).size());
  const Board cpu = load_board("host");
  EXPECT_EQ(make_space(cpu, SpaceOptions{}).size(), 3 * make_space(cpu, off).size());
}

// The generated space against an independent enumeration: variants, precisions, parameter
// points (name order, last fastest), clocks, then tunables (last fastest), by hand.
TEST(Space, GeneratedConfigsFollowTheEnumerationOrder) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.variants = {"kokkos_global"};
  o.tunable_values = {{"tile_x", {16, 32}}, {"tile_y", {1, 2, 4}}};
  o.param_values = {{"iterations", {10, 20}}, {"lambda", {0.1, 0.2}}};
  o.clocks_mhz = {100, 200};
  o.default_dimensions = false;
  const ConfigSpace space = make_space(host, o);
  std::vector<std::string> expected;
  for (double it : {10, 20})
    for (double lambda : {0.1, 0.2})
      for (int clock : {100, 200})
        for (int tx : {16, 32})
          for (int ty : {1, 2, 4})
            expected.push_back("kokkos_global f32 tile_x=" + std::to_string(tx) +
                               " tile_y=" + std::to_string(ty) + " clock " + std::to_string(clock) +
                               " iterations=" + shortest_decimal(it) +
                               " lambda=" + shortest_decimal(lambda));
  const auto text = [](const Config& c) {
    return c.label() + " clock " + std::to_string(c.clock_mhz) +
           " iterations=" + shortest_decimal(c.param("iterations")) +
           " lambda=" + shortest_decimal(c.param("lambda"));
  };
  ASSERT_EQ(space.size(), expected.size());
  const std::vector<Config> held = space.materialise();
  std::size_t visited = 0;
  space.for_each([&](std::size_t i, const Config& c) {
    ASSERT_EQ(i, visited++);
    EXPECT_EQ(text(c), expected[i]);
    EXPECT_EQ(c.params, space[i].params);
    EXPECT_EQ(c.tunables, held[i].tunables);
    EXPECT_EQ(c.params.size(), find_workload("tvl1").params().size());
  });
  EXPECT_EQ(visited, expected.size());
  std::size_t k = 0;
  for (const Config& c : space) EXPECT_EQ(text(c), expected[k++]);
  EXPECT_THROW(space[space.size()], std::out_of_range);
  // A listed space is its configs.
  const ConfigSpace listed(held);
  ASSERT_EQ(listed.size(), held.size());
  EXPECT_EQ(text(listed[5]), expected[5]);
}

TEST(Space, UnknownVariantTunableParameterOrValueAreErrors) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.variants = {"no_such_variant"};
  EXPECT_THROW(enumerate_space(host, o), std::invalid_argument);
  SpaceOptions t;
  t.tunable_values = {{"no_such_tunable", {1}}};
  EXPECT_THROW(enumerate_space(host, t), std::invalid_argument);
  SpaceOptions p;
  p.param_values = {{"gamma", {1}}};
  EXPECT_THROW(enumerate_space(host, p), std::invalid_argument);
  SpaceOptions r;
  r.param_values = {{"tau", {0.5}}};  // tau > 0.25 diverges
  EXPECT_THROW(enumerate_space(host, r), std::invalid_argument);
  SpaceOptions w;
  w.workload = "no_such_workload";
  EXPECT_THROW(enumerate_space(host, w), std::invalid_argument);
}

TEST(ParamValues, ListsAndRangesParse) {
  using cli::parse_param_values;
  EXPECT_EQ(parse_param_values("x", "1,3,5", true), (std::vector<double>{1, 3, 5}));
  const std::vector<double> log = parse_param_values("lambda", "0.05:0.5:log:3", false);
  ASSERT_EQ(log.size(), 3u);
  EXPECT_DOUBLE_EQ(log[0], 0.05);
  EXPECT_NEAR(log[1], std::sqrt(0.05 * 0.5), 1e-12);  // geometric mid-point (12 digits)
  EXPECT_DOUBLE_EQ(log[2], 0.5);
  EXPECT_EQ(parse_param_values("it", "10:30:lin:3", true), (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(parse_param_values("it", "1:2:log:5", true),
            (std::vector<double>{1, 2}));  // rounded, unique
  EXPECT_THROW(parse_param_values("x", "1,a", false), cli::UsageError);
  EXPECT_THROW(parse_param_values("n", "1.5", true), cli::UsageError);
  EXPECT_THROW(parse_param_values("x", "0:1:log:3", false), cli::UsageError);
  EXPECT_THROW(parse_param_values("x", "1:2:cubic:3", false), cli::UsageError);
  EXPECT_THROW(parse_param_values("x", "1:2:lin:0", false), cli::UsageError);
}

// A categorical parameter: names or indices, de-duplicated, checked against its choices;
// its text is the choice's name.
TEST(ParamValues, CategoricalByNameOrIndex) {
  const ParamSpec& interp = *find_workload("tvl1").find_param("warping_interp");
  ASSERT_EQ(interp.type, ParamSpec::Type::categorical);
  using cli::parse_spec_values;
  EXPECT_EQ(parse_spec_values(interp, "bilinear,bicubic", "--param"), (std::vector<double>{1, 0}));
  EXPECT_EQ(parse_spec_values(interp, "0,bicubic,1", "--param"), (std::vector<double>{0, 1}));
  EXPECT_THROW(parse_spec_values(interp, "nearest", "--param"), cli::UsageError);
  EXPECT_THROW(parse_spec_values(interp, "2", "--param"), cli::UsageError);
  EXPECT_THROW(parse_spec_values(interp, "0.5", "--param"), cli::UsageError);
  EXPECT_EQ(interp.value_text(1), "bilinear");
  EXPECT_EQ(interp.value_text(0.5), "0.5");
  EXPECT_EQ(interp.range_text(), "0 = bicubic, 1 = bilinear");
  EXPECT_TRUE(interp.invalid_reason(2).has_value());
  EXPECT_FALSE(interp.invalid_reason(1).has_value());
  // Other parameters keep parse_param_values' rules, with the range check.
  const ParamSpec& median = *find_workload("tvl1").find_param("median_window");
  EXPECT_EQ(parse_spec_values(median, "0,3,5", "--search"), (std::vector<double>{0, 3, 5}));
  EXPECT_THROW(parse_spec_values(median, "7", "--search"), cli::UsageError);
}

}  // namespace
}  // namespace flowtune
