// Prune reasons grouped by class (select/prune_reasons.hpp): the reasons tuner/constraints.cpp
// writes, with the config's own figures in them, group by the limit that pruned them.
#include <gtest/gtest.h>

#include "select/prune_reasons.hpp"

namespace flowtune {
namespace {

TEST(PruneReasons, ClassDropsLabelAndFiguresButKeepsNames) {
  EXPECT_EQ(prune_reason_class("global f32 tile_x=32",
                               "global f32 tile_x=32: needs 49.5 KiB (50688 bytes) shared memory "
                               "> 48 KiB per block on nano (resources estimated from an sm_75 "
                               "build)"),
            "needs N KiB shared memory > N KiB per block on nano (resources estimated from an "
            "sm_75 build)");
  EXPECT_EQ(prune_reason_class("x", "x: tile_x*tile_y=8192 exceeds 1024"),
            "tile_x*tile_y=N exceeds N");
}

TEST(PruneReasons, NaturalOrderComparesNumbersAsNumbers) {
  EXPECT_TRUE(natural_less("needs 49.5 KiB", "needs 108 KiB"));
  EXPECT_FALSE(natural_less("needs 108 KiB", "needs 49.5 KiB"));
  EXPECT_TRUE(natural_less("a 9", "a 10"));
  EXPECT_TRUE(natural_less("a", "a 1"));
  EXPECT_FALSE(natural_less("a 1", "a 1"));
}

// 52 configs each pruned with its own byte count are one class of 52, not 52 rows of one.
TEST(PruneReasons, GroupsOneLimitIntoOneClassMostConfigsFirst) {
  std::vector<std::pair<std::string, std::string>> pruned;
  for (int k = 0; k < 52; ++k) {
    const std::string label = "cfg" + std::to_string(k);
    pruned.emplace_back(label, label + ": needs " + std::to_string(50 + 2 * k) +
                                   " KiB shared memory > 48 KiB per block on nano");
  }
  pruned.emplace_back("a", "a: epsilon > 0 needs the reduction kernel");
  const std::vector<PruneClass> classes = group_prune_reasons(pruned);
  ASSERT_EQ(classes.size(), 2u);
  EXPECT_EQ(classes[0].configs, 52u);
  EXPECT_EQ(classes[0].name, "needs N KiB shared memory > N KiB per block on nano");
  ASSERT_EQ(classes[0].reasons.size(), 52u);
  EXPECT_EQ(classes[0].reasons.front(), "needs 50 KiB shared memory > 48 KiB per block on nano");
  EXPECT_EQ(classes[0].reasons.back(), "needs 152 KiB shared memory > 48 KiB per block on nano");
  EXPECT_EQ(prune_class_examples(classes[0]),
            "needs 50 KiB shared memory > 48 KiB per block on nano ... needs 152 KiB shared "
            "memory > 48 KiB per block on nano (52 distinct)");
  EXPECT_EQ(classes[1].configs, 1u);
  EXPECT_EQ(prune_class_examples(classes[1]), "epsilon > 0 needs the reduction kernel");
}

}  // namespace
}  // namespace flowtune
