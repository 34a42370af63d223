// kernel_staged on a synthetic space of kernel sets x algorithm configs with a hand-made
// separable objective: few kernel sets before the refinement, refinement over tunables only,
// reproducibility, the optimum; and the replay's count of kernel sets.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <set>

#include "tuner/replay.hpp"
#include "tuner/search_space.hpp"
#include "tuner/strategy.hpp"

namespace flowtune {
namespace {

SpaceDimension dimension(const std::string& name, DimensionKind kind, int n) {
  SpaceDimension d;
  d.name = name;
  d.kind = kind;
  d.ordinal = kind != DimensionKind::variant && kind != DimensionKind::precision;
  for (int v = 0; v < n; ++v) {
    d.labels.push_back(std::to_string(v));
    if (d.ordinal) d.numbers.push_back(v);
  }
  return d;
}

// variant (2) x precision (2) x block (4) x depth (3): 48 kernel sets; parameters p (6), q (6),
// r (4): 144 algorithm configs; 6912 points. Coordinates in that order.
constexpr std::size_t kVariant = 0, kPrecision = 1, kBlock = 2, kDepth = 3;
SearchSpace staged_space() {
  std::vector<SpaceDimension> dims = {dimension("variant", DimensionKind::variant, 2),
                                      dimension("precision", DimensionKind::precision, 2),
                                      dimension("block", DimensionKind::tunable, 4),
                                      dimension("depth", DimensionKind::tunable, 3),
                                      dimension("p", DimensionKind::parameter, 6),
                                      dimension("q", DimensionKind::parameter, 6),
                                      dimension("r", DimensionKind::parameter, 4)};
  std::vector<std::vector<int>> coords;
  for (int v = 0; v < 2; ++v)
    for (int pr = 0; pr < 2; ++pr)
      for (int b = 0; b < 4; ++b)
        for (int d = 0; d < 3; ++d)
          for (int p = 0; p < 6; ++p)
            for (int q = 0; q < 6; ++q)
              for (int r = 0; r < 4; ++r) coords.push_back({v, pr, b, d, p, q, r});
  return SearchSpace(dims, coords);
}

std::vector<int> kernel_of(const std::vector<int>& c) {
  return {c[kVariant], c[kPrecision], c[kBlock], c[kDepth]};
}

// Time per frame, a product of factors (separable in its logarithm): the unique minimum
// 0.5 * 0.8 * 0.7 * 0.9 * 1 * 1 * 1 = 0.2016 is at variant 1, precision 1, block 2, depth 1,
// p 0, q 5, r 3.
double frame_time(const std::vector<int>& c) {
  const double variant[] = {1.0, 0.5}, precision[] = {1.0, 0.8};
  const double block[] = {1.6, 1.1, 0.7, 1.3}, depth[] = {1.2, 0.9, 1.4};
  return variant[c[0]] * precision[c[1]] * block[c[2]] * depth[c[3]] * (1 + 0.3 * c[4]) *
         (1 + 0.25 * (5 - c[5])) * (1 + 0.2 * (3 - c[6]));
}
constexpr double kOptimum = 0.5 * 0.8 * 0.7 * 0.9;

struct Proposals {
  std::vector<std::size_t> asked;
  std::size_t evals_to_optimum = 0;  // 0 = not reached
};

Proposals drive(const SearchSpace& space, std::size_t budget, std::uint64_t seed) {
  StrategyOptions so;
  so.seed = seed;
  so.budget = budget;
  auto s = make_strategy("kernel_staged", space, so);
  Proposals run;
  for (std::size_t e = 0; e < budget; ++e) {
    const auto p = s->ask();
    if (!p) break;
    run.asked.push_back(*p);
    const double t = frame_time(space.coords(*p));
    s->tell({*p, Outcome::measured, {t}, {t}, {}});
    if (run.evals_to_optimum == 0 && t <= kOptimum * (1 + 1e-12)) run.evals_to_optimum = e + 1;
  }
  return run;
}

TEST(KernelStaged, ProposesFewKernelSetsBeforeItsRefinement) {
  // A new kernel set enters only while those beyond the initial ones (one per variant x
  // precision, 4 here, plus 2 for diversity) cost, at 10 evaluations a compile, no more than
  // the evaluations made: after e evaluations at most 6 + e / 10 sets. Uniform sampling
  // touches ~45 of the 48 sets in 150 points.
  const SearchSpace space = staged_space();
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    SCOPED_TRACE(seed);
    const Proposals run = drive(space, 200, seed);
    ASSERT_EQ(run.asked.size(), 200u);
    std::set<std::vector<int>> sets;
    for (std::size_t e = 0; e < 150; ++e) {  // refinement: the last 25% of 200
      sets.insert(kernel_of(space.coords(run.asked[e])));
      EXPECT_LE(sets.size(), 6 + e / 10) << "at evaluation " << e;
    }
    EXPECT_LE(sets.size(), 20u);
  }
}

TEST(KernelStaged, NeverProposesASeenPointAndIsReproducibleForASeed) {
  const SearchSpace space = staged_space();
  const Proposals a = drive(space, 300, 11), b = drive(space, 300, 11), c = drive(space, 300, 12);
  EXPECT_EQ(a.asked, b.asked);
  EXPECT_NE(a.asked, c.asked);
  EXPECT_EQ(std::set<std::size_t>(a.asked.begin(), a.asked.end()).size(), a.asked.size());
}

TEST(KernelStaged, FindsTheOptimumOfASeparableProblem) {
  // 6912 points; the optimum within 250 evaluations (3.6% of the space) on every seed.
  const SearchSpace space = staged_space();
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    SCOPED_TRACE(seed);
    const Proposals run = drive(space, 250, seed);
    EXPECT_GT(run.evals_to_optimum, 0u);
  }
}

TEST(KernelStaged, ItsRefinementVariesTunablesAndVariantOnly) {
  // In the last 25% of the budget every proposal keeps the precision and parameters (what
  // moves accuracy) of a point measured before it and changes its kernel set by its tunables
  // (block, depth) or variant.
  const SearchSpace space = staged_space();
  for (std::uint64_t seed : {1, 2, 3}) {
    SCOPED_TRACE(seed);
    const Proposals run = drive(space, 200, seed);
    ASSERT_EQ(run.asked.size(), 200u);
    for (std::size_t e = 150; e < 200; ++e) {
      const std::vector<int>& c = space.coords(run.asked[e]);
      bool varies_a_measured_point = false;
      for (std::size_t i = 0; i < e && !varies_a_measured_point; ++i) {
        const std::vector<int>& m = space.coords(run.asked[i]);
        bool same_algorithm = true;
        for (std::size_t d : {kPrecision, std::size_t(4), std::size_t(5), std::size_t(6)})
          same_algorithm = same_algorithm && m[d] == c[d];
        varies_a_measured_point = same_algorithm && kernel_of(m) != kernel_of(c);
      }
      EXPECT_TRUE(varies_a_measured_point) << "proposal " << e;
    }
  }
}

// The variant x precision groups that have a measured point among the first n asks, when
// the points for which reject() holds are told as pruned (and allowed, when given, is the
// strategy's kernel_set_allowed).
std::set<std::vector<int>> groups_measured_early(
    const SearchSpace& space, std::uint64_t seed, std::size_t n,
    const std::function<bool(const std::vector<int>&)>& reject,
    const std::function<bool(std::size_t)>& allowed, std::vector<std::size_t>* asked) {
  StrategyOptions so;
  so.seed = seed;
  so.budget = 400;
  so.kernel_set_allowed = allowed;
  auto s = make_strategy("kernel_staged", space, so);
  std::set<std::vector<int>> groups;
  for (std::size_t e = 0; e < n; ++e) {
    const auto p = s->ask();
    if (!p) break;
    asked->push_back(*p);
    const std::vector<int>& c = space.coords(*p);
    if (reject(c)) {
      s->tell({*p, Outcome::pruned, {}, {}, {}});
      continue;
    }
    const double t = frame_time(c);
    s->tell({*p, Outcome::measured, {t}, {t}, {}});
    groups.insert({c[kVariant], c[kPrecision]});
  }
  return groups;
}

TEST(KernelStaged, DrawsItsKernelSetsAmongThoseTheRulesAllow) {
  // Only block 3 with depth 2 is allowed (one set of 12 per group; the centre of the
  // tunables, block 1-2 and depth 1, is not): no other set is ever proposed, and every
  // variant x precision is measured within the design (3 rows per initial set).
  const SearchSpace space = staged_space();
  auto rule = [&](std::size_t p) {
    const std::vector<int>& c = space.coords(p);
    return c[kBlock] == 3 && c[kDepth] == 2;
  };
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    SCOPED_TRACE(seed);
    std::vector<std::size_t> asked;
    const auto groups = groups_measured_early(
        space, seed, 18, [](const std::vector<int>&) { return false; }, rule, &asked);
    EXPECT_EQ(groups.size(), 4u);
    groups_measured_early(
        space, seed, 300, [](const std::vector<int>&) { return false; }, rule, &asked);
    for (std::size_t p : asked) EXPECT_TRUE(rule(p)) << "point " << p;
  }
}

TEST(KernelStaged, MovesARejectedDesignRowToAnotherSetOfItsGroup) {
  // Every set at depth 1 (the centre depth, so every group's first set) is pruned by a check
  // the strategy cannot know before it asks (a resource limit): each rejected design row moves
  // to another set of its variant and precision, so every group is measured within 40 asks.
  const SearchSpace space = staged_space();
  auto pruned = [](const std::vector<int>& c) { return c[kDepth] == 1; };
  for (std::uint64_t seed : {1, 2, 3, 4, 5}) {
    SCOPED_TRACE(seed);
    std::vector<std::size_t> asked;
    EXPECT_EQ(groups_measured_early(space, seed, 40, pruned, {}, &asked).size(), 4u);
  }
}

TEST(KernelStaged, DimensionKindsComeFromTheConfigs) {
  Config a;
  a.variant = "global";
  a.precision = "f32";
  a.tunables = {{"block_x", 32}};
  a.params = {{"iterations", 10}};
  Config b = a;
  b.variant = "shared";
  b.precision = "f16";
  b.tunables = {{"block_x", 64}};
  b.params = {{"iterations", 20}};
  b.clock_mhz = 1000;
  const SearchSpace space({a, b});
  std::vector<std::pair<std::string, DimensionKind>> kinds;
  for (const SpaceDimension& d : space.dimensions()) kinds.emplace_back(d.name, d.kind);
  const std::vector<std::pair<std::string, DimensionKind>> expected = {
      {"variant", DimensionKind::variant},
      {"precision", DimensionKind::precision},
      {"clock_mhz", DimensionKind::clock},
      {"block_x", DimensionKind::tunable},
      {"iterations", DimensionKind::parameter}};
  EXPECT_EQ(kinds, expected);
}

// A recorded space by hand: tile_x 16, 32, 64 x iterations 10, 20 (6 points, 3 kernel sets),
// time = tile_x / 16 + iterations / 10 ms.
RecordedSpace tiles_recording() {
  RecordedSpace rs;
  rs.board = "host";
  rs.dataset = "d";
  rs.workload = "tvl1";
  rs.workload_row.name = "tvl1";
  rs.workload_row.front_objectives = {"time_ms"};
  for (int tx : {16, 32, 64})
    for (int it : {10, 20}) {
      Config c;
      c.variant = "kokkos_global";
      c.tunables = {{"tile_x", tx}};
      c.params = {{"iterations", double(it)}};
      db::MeasuredConfig mc;
      mc.measurement.time_ms_median = mc.measurement.time_ms_min = mc.measurement.time_ms_max =
          tx / 16.0 + it / 10.0;
      rs.configs.push_back(c);
      rs.outcomes.push_back(Outcome::measured);
      rs.measurements.push_back(mc);
      rs.prior.push_back(1);
      rs.cost_s.push_back(0.1);
    }
  return rs;
}

TEST(Replay, CountsTheDistinctKernelSetsOfTheEvaluatedPoints) {
  // brute_force proposes in enumeration order: 3 points span tile_x 16 and 32, 6 all three.
  const RecordedSpace rs = tiles_recording();
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.objectives = {"time_ms"};
  ro.budget = 3;
  EXPECT_EQ(replay(rs, ro).seeds.at(0).kernel_sets, 2u);
  ro.budget = 6;
  EXPECT_EQ(replay(rs, ro).seeds.at(0).kernel_sets, 3u);
}

TEST(Replay, ABuildCostIsChargedOncePerKernelSetInATimeBudget) {
  // Every point costs 0.1 s and the first of each kernel set 1 s more: in enumeration order
  // 1.1 + 0.1 + 1.1 = 2.3 s for three points, so 2.31 s holds three and 2.29 s two.
  const RecordedSpace rs = tiles_recording();
  ReplayOptions ro;
  ro.strategy = "brute_force";
  ro.seeds = 1;
  ro.objectives = {"time_ms"};
  ro.build_s = 1;
  ro.budget_s = 2.31;
  const SeedResult three = replay(rs, ro).seeds.at(0);
  EXPECT_EQ(three.evaluations, 3u);
  EXPECT_NEAR(three.cost_s, 2.3, 1e-12);
  ro.budget_s = 2.29;
  EXPECT_EQ(replay(rs, ro).seeds.at(0).evaluations, 2u);
}

}  // namespace
}  // namespace flowtune
