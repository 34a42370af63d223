// Dimensions as ranges (workloads/param_dimension.hpp): discretisation and rounding against
// hand-computed values, canonical keys of rounded values, the honest size of the default
// space, the target's defaults kept when a space leaves a dimension out, the run header's
// fixed parameters, and the generated SearchSpace against the one built from every config.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "select/config_rows.hpp"
#include "tuner/fixed_params.hpp"
#include "tuner/search_space.hpp"
#include "tuner/space.hpp"
#include "tuner/space_text.hpp"
#include "tuner/strategy.hpp"
#include "workloads/param_dimension.hpp"

namespace flowtune {
namespace {

using V = std::vector<double>;

TEST(ParamRanges, LinearRangesTakeEveryStepAsItsShortDecimal) {
  const ParamDimension zoom = ParamDimension::linear(0.5, 0.9, 0.05);
  // 0.5 + 4 * 0.05 is 0.7000000000000001 in doubles; the range holds 0.7 itself.
  EXPECT_EQ(zoom.values(), (V{0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9}));
  EXPECT_EQ(zoom.text(*find_workload("tvl1").find_param("zoom")),
            "0.50..0.90 step 0.05 (9 values)");
  // lo off the step's grid keeps its own decimals.
  EXPECT_EQ(ParamDimension::linear(0.52, 0.7, 0.05).values(), (V{0.52, 0.57, 0.62, 0.67}));
  EXPECT_EQ(ParamDimension::linear(0, 0.95, 0.05).size(), 20u);
  EXPECT_THROW(ParamDimension::linear(1, 0, 0.1), std::invalid_argument);
  EXPECT_THROW(ParamDimension::linear(0, 1, 0), std::invalid_argument);
}

TEST(ParamRanges, IntegerRangesAndUnions) {
  const ParamSpec& n_scales = *find_workload("tvl1").find_param("n_scales");
  const ParamDimension d = ParamDimension({0}) | ParamDimension::integers(3, 8);
  EXPECT_EQ(d.values(), (V{0, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(d.text(n_scales), "0, 3..8 (7 values)");
  EXPECT_EQ(ParamDimension::integers(1, 10, 3).values(), (V{1, 4, 7, 10}));
  // A repeated value is one value.
  EXPECT_EQ((ParamDimension({3, 4}) | ParamDimension::integers(3, 5)).values(), (V{3, 4, 5}));
}

TEST(ParamRanges, LogRangesRoundToTwoSignificantDigits) {
  // 10 points from 5 to 100: 5 * 20^(k/9) = 5, 6.97, 9.73, 13.57, 18.93, 26.41, 36.84, 51.39,
  // 71.69, 100, rounded to 2 digits and then to whole numbers.
  EXPECT_EQ(ParamDimension::log(5, 100, 10, true).values(),
            (V{5, 7, 10, 14, 19, 26, 37, 51, 72, 100}));
  // 6 points from 20 to 300: 20 * 15^(k/5) = 20, 34.4, 59.2, 101.6, 174.6, 300.
  EXPECT_EQ(ParamDimension::log(20, 300, 6, true).values(), (V{20, 34, 59, 100, 170, 300}));
  // Every value of 2 significant digits: 5..9, 10..99, 100 = 5 + 90 + 1 whole numbers.
  ParamRange every;
  every.lo = 5;
  every.hi = 100;
  every.scale = ParamRange::Scale::log;
  every.integer = true;
  EXPECT_EQ(every.values().size(), 96u);
  // Real: 0.050, 0.051, ..., 0.099, 0.10: 51 values, each the double of its decimal text.
  every.integer = false;
  every.lo = 0.05;
  every.hi = 0.1;
  const V reals = every.values();
  ASSERT_EQ(reals.size(), 51u);
  EXPECT_EQ(reals[20], 0.07);
  EXPECT_EQ(reals.back(), 0.1);
  EXPECT_EQ(round_significant(1234, 2), 1200);
  EXPECT_EQ(round_significant(0.012345, 3), 0.0123);
  EXPECT_EQ(round_significant(9.96, 2), 10);
  EXPECT_EQ(round_significant(-0.5678, 2), -0.57);
  EXPECT_EQ(round_to_step(0.1 + 0.2, 0.05), 0.3);
  EXPECT_THROW(ParamDimension::log(0, 10, 4, false), std::invalid_argument);
}

TEST(ParamRanges, ARoundedValueHasTheKeyOfItsDecimalText) {
  const Board host = load_board("host");
  SpaceOptions o;
  o.variants = {"kokkos_global"};
  o.tunable_values = {{"tile_x", {32}}, {"tile_y", {4}}};
  o.default_dimensions = false;
  o.param_values = {{"zoom", ParamDimension::linear(0.5, 0.9, 0.05)}};
  std::set<std::string> from_range;
  for (const Config& c : enumerate_space(host, o)) from_range.insert(to_config_row("host", c).key);
  std::set<std::string> from_literals;
  for (double z : {0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9}) {
    o.param_values = {{"zoom", {z}}};
    from_literals.insert(to_config_row("host", enumerate_space(host, o).at(0)).key);
  }
  EXPECT_EQ(from_range, from_literals);
  EXPECT_EQ(from_range.size(), 9u);
}

TEST(ParamRanges, ParsingTheCommandLineForms) {
  const Workload& w = find_workload("tvl1");
  const ParamSpec& zoom = *w.find_param("zoom");
  const ParamSpec& n_scales = *w.find_param("n_scales");
  const ParamSpec& iterations = *w.find_param("iterations");
  const ParamSpec& lambda = *w.find_param("lambda");
  const ParamSpec& interp = *w.find_param("warping_interp");
  EXPECT_EQ(parse_param_dimension(zoom, "0.5:0.9:0.05").values(),
            ParamDimension::linear(0.5, 0.9, 0.05).values());
  EXPECT_EQ(parse_param_dimension(n_scales, "0,3:8").values(), (V{0, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(parse_param_dimension(iterations, "5:100:log:10").values(),
            (V{5, 7, 10, 14, 19, 26, 37, 51, 72, 100}));
  EXPECT_EQ(parse_param_dimension(iterations, "90:100:log").values(),
            (V{90, 91, 92, 93, 94, 95, 96, 97, 98, 99, 100}));
  // tune search's counted form keeps 12 digits: 0.05 * 10^(1/2) = 0.158113883008.
  EXPECT_EQ(parse_param_dimension(lambda, "0.05:0.5:log:3").values(),
            (V{0.05, 0.158113883008, 0.5}));
  EXPECT_EQ(parse_param_dimension(lambda, "0.1,0.2").values(), (V{0.1, 0.2}));
  EXPECT_EQ(parse_param_dimension(interp, "bilinear,bicubic").values(), (V{1, 0}));
  EXPECT_FALSE(parse_param_dimension(zoom, "0.5:0.9:0.05").is_list());
  EXPECT_TRUE(parse_param_dimension(lambda, "0.1,0.2").is_list());
  for (const char* bad : {"0.5:0.9", "0.9:0.5:0.05", "0.5:0.9:cubic:3", "a:b", "0.5:1.2:0.1", ""})
    EXPECT_THROW(parse_param_dimension(zoom, bad), std::invalid_argument) << bad;
  EXPECT_THROW(parse_param_dimension(lambda, "0:1:log"), std::invalid_argument);
  EXPECT_THROW(parse_param_dimension(iterations, "1:10:0.5"), std::invalid_argument);
  EXPECT_THROW(parse_param_dimension(interp, "0:1"), std::invalid_argument);
  try {
    parse_param_dimension(zoom, "0.5:1.2:0.1");
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("zoom=1 outside [0.1, 0.95]"), std::string::npos)
        << e.what();
  }
}

// The CUDA default dimensions, counted by hand: iterations 10, n_warpings 6, zoom 9,
// n_scales 7, epsilon 1, median 3, weighted median 4, texture_alpha 20, rof_iterations 8
// (0 and 1, 2, 5, 10, 22, 46, 100); the CPU's: iterations 6, n_warpings 5, median 3.
TEST(ParamRanges, TheDefaultSpaceSizeIsTheProductOfTheDiscretisedCounts) {
  const Workload& w = find_workload("tvl1");
  const ParamDimensions gpu = parameter_dimensions(w, load_board("h200"), SpaceOptions{});
  EXPECT_EQ(gpu.at("zoom").size(), 9u);
  EXPECT_EQ(gpu.at("n_scales").values(), (V{0, 3, 4, 5, 6, 7, 8}));
  EXPECT_EQ(gpu.at("n_warpings").values(), (V{1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(gpu.at("iterations").values(), (V{5, 7, 10, 14, 19, 26, 37, 51, 72, 100}));
  EXPECT_EQ(gpu.at("rof_iterations").values(), (V{0, 1, 2, 5, 10, 22, 46, 100}));
  EXPECT_EQ(gpu.at("texture_alpha").size(), 20u);
  EXPECT_EQ(gpu.at("median_window").values(), (V{0, 3, 5}));
  EXPECT_EQ(gpu.at("nl_median_window").values(), (V{0, 3, 5, 7}));
  EXPECT_EQ(gpu.at("epsilon").values(), V{0});
  const Board h200 = load_board("h200");
  const ConfigSpace space = make_space(h200, SpaceOptions{});
  EXPECT_EQ(space.n_param_points(), 10u * 6 * 9 * 7 * 3 * 4 * 20 * 8);
  SpaceOptions one;  // every parameter at one value: the kernel configs alone
  one.default_dimensions = false;
  EXPECT_EQ(space.size(), space.n_param_points() * make_space(h200, one).size());
  const std::string text = space_dimensions_text(w, space);
  EXPECT_NE(text.find("  zoom 0.50..0.90 step 0.05 (9 values)\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  iterations 5..100 log, 10 points (10 values)\n"), std::string::npos);
  EXPECT_NE(text.find("= 7257600 (the product of the dimensions' counts"), std::string::npos);

  const ConfigSpace cpu = make_space(load_board("host"), SpaceOptions{});
  EXPECT_EQ(cpu.n_param_points(), 6u * 5 * 3);
  EXPECT_EQ(parameter_dimensions(w, load_board("host"), SpaceOptions{}).at("iterations").values(),
            (V{20, 34, 59, 100, 170, 300}));
}

TEST(ParamRanges, ALeftOutDimensionTakesTheTargetsDefault) {
  const Workload& w = find_workload("tvl1");
  SpaceOptions none;
  none.default_dimensions = false;
  const ParamDimensions gpu = parameter_dimensions(w, load_board("h200"), none);
  // CUDA: epsilon 0 (its dimension {0}), not the CPU and ParamSpec default 0.005.
  EXPECT_EQ(gpu.at("epsilon").values(), V{0});
  EXPECT_EQ(gpu.at("iterations").values(), V{300});  // stated: IPOL's, outside 5..100
  EXPECT_EQ(gpu.at("n_warpings").values(), V{5});    // the ParamSpec default, within 1..6
  EXPECT_EQ(gpu.at("median_window").values(), V{5});
  EXPECT_EQ(gpu.at("rof_iterations").values(), V{100});
  EXPECT_EQ(gpu.at("texture_alpha").values(), V{0});
  const ParamDimensions host = parameter_dimensions(w, load_board("host"), none);
  EXPECT_EQ(host.at("epsilon").values(), V{0.005});
  // A --param list naming others keeps the defaults of the rest.
  SpaceOptions zoom_only = none;
  zoom_only.param_values = {{"zoom", ParamDimension::linear(0.5, 0.6, 0.05)}};
  EXPECT_EQ(parameter_dimensions(w, load_board("h200"), zoom_only).at("epsilon").values(), V{0});

  EXPECT_EQ(fixed_params_text(w, gpu),
            "fixed parameters: epsilon=0, iterations=300, lambda=0.15, median_window=5, "
            "n_scales=0, n_warpings=5, presmoothing_sigma=0.8, tau=0.25, theta=0.3, zoom=0.5");
  ParamDimensions bilinear = gpu;
  bilinear["warping_interp"] = {1};
  bilinear["median_window"] = {0};                            // its absent value: not listed
  bilinear["zoom"] = ParamDimension::linear(0.5, 0.6, 0.05);  // a dimension: not listed
  EXPECT_EQ(fixed_params_text(w, bilinear),
            "fixed parameters: epsilon=0, iterations=300, lambda=0.15, n_scales=0, n_warpings=5, "
            "presmoothing_sigma=0.8, tau=0.25, theta=0.3, warping_interp=bilinear");
}

// The generated SearchSpace (from the layout) against the one built from every config (an
// independent construction): the same dimensions, coordinates, points, neighbours, nearest.
TEST(ParamRanges, GeneratedSearchSpaceMatchesTheOneBuiltFromEveryConfig) {
  SpaceOptions o;
  o.default_dimensions = false;
  o.param_values = {{"zoom", ParamDimension::linear(0.5, 0.6, 0.05)}, {"n_warpings", {2, 1}}};
  const ConfigSpace space = make_space(load_board("host"), o);
  ASSERT_GT(space.size(), 50u);
  const std::vector<Config> configs = space.materialise();
  const SearchSpace held(configs);
  const SearchSpace generated(space.layout());
  ASSERT_EQ(generated.size(), held.size());
  ASSERT_EQ(generated.dimensions().size(), held.dimensions().size());
  for (std::size_t d = 0; d < held.dimensions().size(); ++d) {
    EXPECT_EQ(generated.dimensions()[d].name, held.dimensions()[d].name);
    EXPECT_EQ(generated.dimensions()[d].labels, held.dimensions()[d].labels);
    EXPECT_EQ(generated.dimensions()[d].kind, held.dimensions()[d].kind) << d;
  }
  // The kernel sets: the same partition, numbered alike; two points share a set exactly when
  // their variant, precision and tunables agree (computed here from the coordinates).
  ASSERT_EQ(generated.kernel_sets(), held.kernel_sets());
  ASSERT_GT(held.kernel_sets(), 1u);
  std::map<std::vector<int>, std::size_t> set_of_kernel;
  std::size_t members = 0;
  for (std::size_t k = 0; k < held.kernel_sets(); ++k) {
    ASSERT_EQ(generated.kernel_set_size(k), held.kernel_set_size(k)) << k;
    members += held.kernel_set_size(k);
    for (std::size_t i = 0; i < held.kernel_set_size(k); ++i) {
      ASSERT_EQ(generated.kernel_set_member(k, i), held.kernel_set_member(k, i)) << k << " " << i;
      ASSERT_EQ(held.kernel_set_of(held.kernel_set_member(k, i)), k);
      if (i > 0) {
        ASSERT_LT(held.kernel_set_member(k, i - 1), held.kernel_set_member(k, i));
      }
    }
  }
  EXPECT_EQ(members, held.size());
  for (std::size_t i = 0; i < held.size(); ++i) {
    ASSERT_EQ(generated.kernel_set_of(i), held.kernel_set_of(i)) << i;
    std::vector<int> kernel;
    for (std::size_t d = 0; d < held.dimensions().size(); ++d)
      if (held.dimensions()[d].kind != DimensionKind::parameter &&
          held.dimensions()[d].kind != DimensionKind::clock)
        kernel.push_back(held.coords(i)[d]);
    const auto [it, added] = set_of_kernel.emplace(kernel, held.kernel_set_of(i));
    EXPECT_EQ(it->second, held.kernel_set_of(i)) << i;
    const std::size_t k = held.kernel_set_of(i);
    EXPECT_LE(held.kernel_set_member(k, 0), i);  // numbered in the order of first points
    if (k > 0) {
      EXPECT_LT(held.kernel_set_member(k - 1, 0), held.kernel_set_member(k, 0));
    }
  }
  EXPECT_EQ(set_of_kernel.size(), held.kernel_sets());
  for (std::size_t i = 0; i < held.size(); ++i) {
    ASSERT_EQ(generated.coords(i), held.coords(i)) << i;
    EXPECT_EQ(generated.find(held.coords(i)), long(i));
    EXPECT_EQ(generated.neighbours(i), held.neighbours(i)) << i;
  }
  std::mt19937 rng(3);
  for (int k = 0; k < 300; ++k) {
    std::vector<int> c(held.dimensions().size());
    for (std::size_t d = 0; d < c.size(); ++d)
      c[d] =
          std::uniform_int_distribution<int>(-1, int(held.dimensions()[d].labels.size()) - 1)(rng);
    EXPECT_EQ(generated.find(c), held.find(c));
    EXPECT_EQ(generated.nearest(c), held.nearest(c));
    EXPECT_EQ(generated.nearest(c, 0), held.nearest(c, 0));
  }
  // On the zoom range a point's neighbours include the adjacent values 0.5 and 0.6 of 0.55.
  std::size_t zoom_dim = 0;
  while (generated.dimensions()[zoom_dim].name != "zoom") ++zoom_dim;
  std::size_t mid = 0;
  while (generated.coords(mid)[zoom_dim] != 1) ++mid;
  std::set<int> zooms;
  for (std::size_t n : generated.neighbours(mid)) {
    std::vector<int> a = generated.coords(n), b = generated.coords(mid);
    if (a[zoom_dim] == b[zoom_dim]) continue;
    a[zoom_dim] = b[zoom_dim];
    if (a == b) zooms.insert(generated.coords(n)[zoom_dim]);
  }
  EXPECT_EQ(zooms, (std::set<int>{0, 2}));
}

// index_of inverts operator[] without a pass over the space, and knows a DB row's canonical
// form (parameters at their absent value left out).
TEST(ParamRanges, IndexOfAConfigInvertsTheEnumeration) {
  SpaceOptions o;
  o.default_dimensions = false;
  o.param_values = {{"zoom", ParamDimension::linear(0.5, 0.6, 0.05)}, {"median_window", {5, 0}}};
  const ConfigSpace space = make_space(load_board("host"), o);
  for (std::size_t i = 0; i < space.size(); i += 7) EXPECT_EQ(space.index_of(space[i]), i);
  Config c = space[space.size() - 1];
  const std::size_t last = space.size() - 1;
  ASSERT_EQ(c.param("median_window"), 0);
  c.params.erase("median_window");  // absent value 0: a stored row leaves it out
  EXPECT_EQ(space.index_of(c), last);
  c.params["zoom"] = 0.7;
  EXPECT_EQ(space.index_of(c), std::nullopt);
  c = space[0];
  c.variant = "no_such_variant";
  EXPECT_EQ(space.index_of(c), std::nullopt);
}

// Every strategy but model_guided (a prior per point) asks distinct points of a space of
// 7 * 10^10 points, which nothing holds per point (kernel_staged reads its kernel sets from the
// layout); kernel_staged keeps its first 60 points on few of the 7 kernel sets.
TEST(ParamRanges, EveryStrategyWorksOnASpaceOfTenToTheTenPoints) {
  SpaceLayout layout;
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    SpaceLayout::Axis axis{name, {}};
    for (int v = 0; v < 100; ++v) axis.values.push_back(v);
    layout.params.push_back(axis);
  }
  layout.clocks = {0};
  const std::size_t points = 10000000000;
  layout.blocks.push_back({"global", "f32", {{"block_x", {32, 64, 128, 256}}}, 0, points * 4});
  layout.blocks.push_back({"pipeline", "f32", {{"depth", {2, 4, 8}}}, points * 4, points * 3});
  const SearchSpace space(layout);
  ASSERT_EQ(space.size(), points * 7);
  for (const std::string& name : strategy_names()) {
    if (name == "model_guided" || name == "checked_model_guided") continue;
    StrategyOptions so;
    so.seed = 5;
    so.budget = 60;
    std::unique_ptr<Strategy> s = make_strategy(name, space, so);
    std::set<std::size_t> asked, sets;
    for (int k = 0; k < 60; ++k) {
      const std::optional<std::size_t> p = s->ask();
      ASSERT_TRUE(p) << name;
      ASSERT_LT(*p, space.size()) << name;
      EXPECT_TRUE(asked.insert(*p).second) << name << " asked " << *p << " twice";
      sets.insert(space.kernel_set_of(*p));
      double f = 0;
      for (int c : space.coords(*p)) f += c;
      s->tell({*p, Outcome::measured, {f, -f}, {f, -f}, {}});
    }
    // Its initial design (100 rows: the values of a parameter) lies on its 4 initial sets:
    // one per variant and precision, two more for diversity.
    if (name == "kernel_staged") {
      EXPECT_EQ(sets.size(), 4u) << name;
    }
  }
}

}  // namespace
}  // namespace flowtune
