// A progress line names a point by the dimensions that vary in the run's space only
// (tuner/point_line.hpp), checked on hand-made spaces.
#include <gtest/gtest.h>

#include <cmath>

#include "tuner/point_line.hpp"

namespace flowtune {
namespace {

Config config(const std::string& variant, int tile_x, double iterations) {
  Config c;
  c.variant = variant;
  c.tunables = {{"tile_x", tile_x}, {"tile_y", 4}};
  c.params = {{"iterations", iterations}, {"lambda", 0.15}, {"n_warpings", 5}};
  return c;
}

TEST(PointLine, OnlyTheDimensionsThatVaryAreNamed) {
  const ConfigSpace space({config("kokkos_global", 32, 50), config("kokkos_global", 64, 50),
                           config("kokkos_global", 32, 300)});
  const VaryingDimensions v = varying_dimensions(space);
  EXPECT_FALSE(v.variant);
  EXPECT_FALSE(v.precision);
  EXPECT_FALSE(v.clock);
  EXPECT_EQ(v.tunables, (std::set<std::string>{"tile_x"}));
  EXPECT_EQ(v.params, (std::set<std::string>{"iterations"}));
  // lambda, n_warpings, tile_y, the variant and f32 are the run's fixed values: not repeated.
  EXPECT_EQ(varying_text(space[1], v), "tile_x=64 iterations=50");
  EXPECT_EQ(varying_text(space[2], v), "tile_x=32 iterations=300");
}

TEST(PointLine, VariantsWithTheirOwnTunablesAndPrecisions) {
  Config simd;
  simd.variant = "simd_fused";
  simd.precision = "mixed";
  simd.tunables = {{"band_rows", 16}};
  simd.params = {{"iterations", 50}, {"lambda", 0.15}, {"n_warpings", 5}};
  const ConfigSpace space({config("kokkos_global", 32, 50), simd});
  const VaryingDimensions v = varying_dimensions(space);
  EXPECT_TRUE(v.variant);
  EXPECT_TRUE(v.precision);
  // Each tunable exists in one variant only: it varies (present or not).
  EXPECT_EQ(v.tunables, (std::set<std::string>{"band_rows", "tile_x", "tile_y"}));
  EXPECT_TRUE(v.params.empty());
  EXPECT_EQ(varying_text(space[0], v), "kokkos_global f32 tile_x=32 tile_y=4");
  EXPECT_EQ(varying_text(space[1], v), "simd_fused mixed band_rows=16");
}

TEST(PointLine, ASpaceOfOneConfigIsNamedByItsVariant) {
  const ConfigSpace one({config("kokkos_global", 32, 50)});
  const VaryingDimensions v = varying_dimensions(one);
  EXPECT_TRUE(v.tunables.empty() && v.params.empty() && !v.variant);
  EXPECT_EQ(varying_text(one[0], v), "kokkos_global");
  EXPECT_TRUE(varying_dimensions(ConfigSpace()).params.empty());
}

TEST(PointLine, ClockAndDecimalParameters) {
  Config a = config("global", 32, 50), b = a;
  a.clock_mhz = 1980;
  b.clock_mhz = 1500;
  b.params["lambda"] = 0.3;
  const ConfigSpace space({a, b});
  const VaryingDimensions v = varying_dimensions(space);
  EXPECT_EQ(varying_text(space[1], v), "lambda=0.3 clock_mhz=1500");
}

TEST(PointLine, FiguresAndShortMessages) {
  db::MeasurementRow m;
  m.time_ms_median = 4.2149;
  m.metrics = {{"aae_deg", 3.14159}, {"aepe", 0.31234}};
  EXPECT_EQ(figures_text(m), "4.21 ms, aae_deg 3.14, aepe 0.312");
  m.energy_mj = 12.54;
  EXPECT_EQ(figures_text(m), "4.21 ms, aae_deg 3.14, aepe 0.312, energy 12.5 mJ");
  EXPECT_EQ(short_message("boom"), "boom");
  EXPECT_EQ(short_message("first line\nsecond"), "first line...");
  EXPECT_EQ(short_message(std::string(100, 'x'), 10), "xxxxxxx...");
  EXPECT_EQ(short_message(std::string(10, 'x'), 10), std::string(10, 'x'));
}

}  // namespace
}  // namespace flowtune
