#include <gtest/gtest.h>

#include "tuner/tune_run.hpp"
#include "variants/config.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

TEST(Config, KeyIsCanonicalAndCoversEveryParameter) {
  Config a;
  a.variant = "kokkos_global";
  a.tunables = {{"tile_y", 4}, {"tile_x", 32}};
  a.params = find_workload("tvl1").default_params();
  Config b = a;
  b.tunables = {{"tile_x", 32}, {"tile_y", 4}};
  EXPECT_EQ(to_config_row("host", a).key, to_config_row("host", b).key);
  for (const ParamSpec& p : find_workload("tvl1").params()) {
    Config c = a;
    // every parameter is part of the identity (presmoothing_sigma too)
    c.params[p.name] = p.default_value != p.max ? p.max : (p.min + p.max) / 2;
    EXPECT_NE(to_config_row("host", a).key, to_config_row("host", c).key) << p.name;
  }
  // A parameter at its absent value is not in the row: the key equals that of the same
  // config written before the parameter existed. At its default (median_window 5, not its
  // absent 0) it is written.
  Config at_absent = a;
  Config before = a;
  std::size_t n_absent = 0;
  for (const ParamSpec& p : find_workload("tvl1").params())
    if (p.absent_value) {
      at_absent.params[p.name] = *p.absent_value;
      before.params.erase(p.name);
      ++n_absent;
    }
  ASSERT_GT(n_absent, 0u);
  EXPECT_EQ(to_config_row("host", at_absent).key, to_config_row("host", before).key);
  EXPECT_EQ(to_config_row("host", at_absent).params, before.params);
  EXPECT_NE(to_config_row("host", a).key, to_config_row("host", before).key);
  EXPECT_EQ(to_config_row("host", a).params.at("median_window"), 5);
  EXPECT_THROW(a.tunable("depth"), std::out_of_range);
  EXPECT_THROW(a.param("depth"), std::out_of_range);
  EXPECT_DOUBLE_EQ(a.param("lambda"), find_workload("tvl1").find_param("lambda")->default_value);
}

TEST(Config, TextOfParametersIsShortAndExact) {
  EXPECT_EQ(shortest_decimal(0.15), "0.15");
  EXPECT_EQ(shortest_decimal(300), "300");
  EXPECT_EQ(shortest_decimal(1e-5), "1e-05");
  EXPECT_EQ(shortest_decimal(0.1 + 0.2), "0.30000000000000004");
  Config c;
  c.variant = "global";
  c.precision = "f16";
  c.tunables = {{"block_x", 32}};
  c.params = {{"n_warpings", 5}, {"lambda", 0.15}};
  EXPECT_EQ(c.label(), "global f16 block_x=32");
  EXPECT_EQ(c.params_text(), "lambda=0.15 n_warpings=5");
}

}  // namespace flowtune
