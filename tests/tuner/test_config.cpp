#include <gtest/gtest.h>

#include "variants/config.hpp"

namespace flowtune {

TEST(Config, KeyIsCanonicalAndIdentifiesThePoint) {
  Config a;
  a.variant = "kokkos_global";
  a.tunables = {{"tile_y", 4}, {"tile_x", 32}};
  Config b = a;
  b.tunables = {{"tile_x", 32}, {"tile_y", 4}};
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.tunables_json(), "{\"tile_x\":32,\"tile_y\":4}");
  b.params.iterations = 20;
  EXPECT_NE(a.key(), b.key());
  EXPECT_THROW(a.tunable("depth"), std::out_of_range);
}

}  // namespace flowtune
