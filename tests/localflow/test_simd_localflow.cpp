// The SIMD host variants of the local flow workloads (kernels/simd/localflow_simd.hpp,
// bm_simd and lk_simd) against the scalar references as oracle: the flows equal
// localflow::block_matching and localflow::lucas_kanade bit for bit on Middlebury crops of odd
// sizes, for every SIMD target this CPU supports and several thread counts; the variants'
// tunables, pruning and solvers.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/localflow_simd.hpp"
#include "tests/localflow/localflow_test_data.hpp"
#include "tests/variants/simd_problem.hpp"
#include "variants/localflow/localflow_variant.hpp"
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {

using simd_test::for_each_target;

/// Number of elements whose bits differ (0 for bit-identical planes).
std::size_t bit_differences(const std::vector<float>& a, const std::vector<float>& b) {
  if (a.size() != b.size()) return std::max(a.size(), b.size());
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::uint32_t x = 0, y = 0;
    std::memcpy(&x, &a[i], 4);
    std::memcpy(&y, &b[i], 4);
    n += x != y;
  }
  return n;
}

void expect_same_bits(const FlowField& got, const FlowField& want) {
  ASSERT_EQ(got.width, want.width);
  ASSERT_EQ(got.height, want.height);
  EXPECT_EQ(bit_differences(got.u, want.u), 0u);
  EXPECT_EQ(bit_differences(got.v, want.v), 0u);
}

/// RubberWhale cropped to an odd size (no side a multiple of a vector or a block).
test::FramePair crop_of(int w, int h) {
  return test::load_pair(test::repo_middlebury_dir(), "RubberWhale", 211, 97, w, h);
}

TEST(BmSimd, EqualsTheScalarReferenceBitForBit) {
  const test::FramePair f = crop_of(157, 101);
  // NCC, SAD, SSD; with and without sub-pixel refinement; blocks cut by the frame's edge;
  // radii whose 2R + 1 candidates are fewer, more than and not a multiple of the lanes.
  const std::vector<localflow::BmParams> cases = {
      {3, 8, 4, 1, 1}, {2, 5, 7, 0, 1}, {1, 16, 2, 2, 0}, {4, 3, 16, 1, 1}, {3, 11, 3, 0, 0}};
  for (const localflow::BmParams& p : cases) {
    SCOPED_TRACE("levels " + std::to_string(p.levels) + " block " + std::to_string(p.block) +
                 " radius " + std::to_string(p.radius) + " similarity " +
                 std::to_string(p.similarity));
    const FlowField want = localflow::block_matching(f.i0, f.i1, p);
    for_each_target([&] {
      for (int threads : {1, 3}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        expect_same_bits(block_matching_simd(f.i0, f.i1, p, threads), want);
      }
    });
  }
}

TEST(LkSimd, EqualsTheScalarReferenceBitForBit) {
  const test::FramePair f = crop_of(101, 67);
  // Box and Gaussian windows, the smallest and largest window, 1 to 4 levels.
  const std::vector<localflow::LkParams> cases = {
      {3, 9, 3, 0}, {2, 15, 2, 1}, {1, 3, 5, 1}, {4, 7, 1, 0}};
  for (const localflow::LkParams& p : cases) {
    SCOPED_TRACE("levels " + std::to_string(p.levels) + " window " + std::to_string(p.window) +
                 " weighting " + std::to_string(p.weighting));
    const FlowField want = localflow::lucas_kanade(f.i0, f.i1, p);
    for_each_target([&] {
      for (int threads : {1, 3}) {
        SCOPED_TRACE("threads " + std::to_string(threads));
        expect_same_bits(lucas_kanade_simd(f.i0, f.i1, p, threads), want);
      }
    });
  }
}

TEST(LkSimd, FramesNarrowerThanAVectorRunTheScalarTail) {
  // 5 and 1 columns: fewer than the lanes of any target but the one-lane ones.
  for (const auto& [w, h] : {std::pair{5, 9}, std::pair{1, 4}}) {
    const test::FramePair f = crop_of(w, h);
    const localflow::LkParams p{2, 5, 2, 1};
    for_each_target([&] {
      expect_same_bits(lucas_kanade_simd(f.i0, f.i1, p, 2), localflow::lucas_kanade(f.i0, f.i1, p));
    });
    const localflow::BmParams b{2, 4, 3, 1, 1};
    for_each_target([&] {
      expect_same_bits(block_matching_simd(f.i0, f.i1, b, 2),
                       localflow::block_matching(f.i0, f.i1, b));
    });
  }
}

TEST(LocalFlowSimd, RejectsBadInputWithTheReason) {
  const test::FramePair f = crop_of(16, 16);
  const test::FramePair g = crop_of(17, 16);
  EXPECT_THROW(block_matching_simd(f.i0, g.i1, {}, 1), std::invalid_argument);
  EXPECT_THROW(lucas_kanade_simd(f.i0, g.i1, {}, 1), std::invalid_argument);
  try {
    lucas_kanade_simd(f.i0, f.i1, {}, 0);
    ADD_FAILURE() << "threads=0 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "lucas_kanade_simd: threads=0 < 1");
  }
  localflow::BmParams bad;
  bad.radius = 0;
  EXPECT_THROW(block_matching_simd(f.i0, f.i1, bad, 1), std::invalid_argument);
}

TEST(LocalFlowSimd, VariantsAreRegisteredWithThreadsPrunedByTheCpus) {
  const int cpus = host_cpu().cpus;
  for (const LocalFlowVariant* v : {&bm_simd_variant(), &lk_simd_variant()}) {
    SCOPED_TRACE(v->name());
    EXPECT_EQ(find_localflow_variant(v->name()), v);
    EXPECT_EQ(v->target(), "cpu");
    const Workload& w = v->workload() == "bm" ? bm_workload() : lk_workload();
    bool listed = false;
    for (const Variant* x : w.variants()) listed = listed || x == v;
    EXPECT_TRUE(listed);
    const auto domains = v->tunables();
    ASSERT_EQ(domains.size(), 2u);
    EXPECT_EQ(domains[1].name, "simd_target");  // tests/cli/test_simd_target.cpp
    EXPECT_EQ(domains[0].name, "threads");
    EXPECT_EQ(domains[0].values, host_thread_counts());
    EXPECT_EQ(domains[0].default_values, std::vector<int>{cpus});
    Config c;
    c.workload = w.name();
    c.variant = v->name();
    c.precision = "f32";
    c.params = w.default_params();
    c.tunables["threads"] = cpus;
    EXPECT_EQ(v->invalid_reason(c), std::nullopt);
    c.tunables["threads"] = cpus + 1;
    ASSERT_TRUE(v->invalid_reason(c).has_value());
    EXPECT_EQ(*v->invalid_reason(c), v->name() + ": threads=" + std::to_string(cpus + 1) +
                                         " exceeds the " + std::to_string(cpus) +
                                         " CPUs this process may run on (sched_getaffinity)");
    c.tunables["threads"] = 1;
    c.precision = "f16";
    EXPECT_TRUE(v->invalid_reason(c).has_value());  // f32 only
    c.precision = "f32";
    // The solver computes the scalar variant's flow.
    const test::FramePair f = crop_of(48, 40);
    const Variant* scalar = find_variant(v->workload() == "bm" ? "bm_cpu" : "lk_cpu");
    Config cs = c;
    cs.variant = scalar->name();
    cs.tunables.clear();
    expect_same_bits(
        v->make_solver(c)->compute(f.i0, f.i1),
        dynamic_cast<const LocalFlowVariant*>(scalar)->make_solver(cs)->compute(f.i0, f.i1));
  }
}

}  // namespace
}  // namespace flowtune
