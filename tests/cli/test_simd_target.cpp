// The simd_target tunable of the SIMD host variants (kernels/simd/simd_target.hpp,
// variants/simd/simd_target_tunable.hpp): its domain is `best` and the targets compiled in;
// a given target runs that target's code (the dispatch table's entry names itself), per call
// and concurrently with other targets; every supported target gives the scalar references'
// bits (bm_simd, lk_simd: bm_cpu, lk_cpu as oracle) and simd_fused's f16 bits of `best`, its
// f32 and mixed within their tolerances of `best`; a target the CPU lacks is pruned with a
// reason naming the target and the CPU.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <string>
#include <thread>
#include <vector>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/options.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/localflow_simd.hpp"
#include "kernels/simd/localflow_simd_rows.hpp"
#include "kernels/simd/simd_target.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"
#include "tests/localflow/localflow_test_data.hpp"
#include "tuner/space.hpp"
#include "variants/localflow/localflow_variant.hpp"
#include "variants/simd/simd_target_tunable.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {

/// The codes of the targets this CPU supports (host_cpu().simd_targets), best first.
std::vector<int> supported_codes() {
  std::vector<int> codes;
  for (const std::string& name : host_cpu().simd_targets) {
    const auto code = simd_target_code(name);
    if (code) codes.push_back(*code);
  }
  return codes;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(SimdTarget, DomainIsBestAndTheCompiledTargetsByName) {
  const std::vector<int> codes = compiled_simd_target_codes();
  ASSERT_GE(codes.size(), 2u);
  EXPECT_EQ(codes.front(), kSimdTargetBest);
  EXPECT_EQ(simd_target_name(kSimdTargetBest), "best");
  for (const int code : codes) EXPECT_EQ(simd_target_code(simd_target_name(code)), code);
  EXPECT_EQ(simd_target_code("AVX9"), std::nullopt);
  EXPECT_EQ(simd_target_name(99), "unknown");
  // Every target the CPU supports is compiled in, and the first is the dispatch's choice.
  const std::vector<int> supported = supported_codes();
  ASSERT_EQ(supported.size(), host_cpu().simd_targets.size());
  for (const int code : supported)
    EXPECT_NE(std::find(codes.begin(), codes.end(), code), codes.end()) << simd_target_name(code);
  EXPECT_EQ(host_cpu().simd_targets.front(), simd_tvl1::dispatched_target());

  const TunableDomain d = simd_target_domain();
  EXPECT_EQ(d.name, "simd_target");
  EXPECT_EQ(d.values, codes);
  EXPECT_EQ(d.default_values, std::vector<int>{kSimdTargetBest});  // searched: best only
  ASSERT_EQ(d.choices.size(), codes.size());
  EXPECT_EQ(d.choices.front(), "best");
}

TEST(SimdTarget, EachTargetRunsItsOwnCodePerCallAndConcurrently) {
  EXPECT_EQ(simd_tvl1::running_target(0), simd_tvl1::dispatched_target());
  EXPECT_EQ(simd_localflow::running_target(0), simd_tvl1::dispatched_target());
  for (const int code : supported_codes()) {
    const std::string name = simd_target_name(code);
    const std::int64_t bit = simd_target_bit(code);
    EXPECT_EQ(simd_tvl1::running_target(bit), name);
    EXPECT_EQ(simd_localflow::running_target(bit), name);
  }
  // Two threads asking for different targets at once each get theirs (no process-wide
  // switch): the best and the worst supported target, 2000 calls each.
  const std::vector<int> codes = supported_codes();
  const std::int64_t best = simd_target_bit(codes.front()), worst = simd_target_bit(codes.back());
  int wrong_best = 0, wrong_worst = 0;
  std::thread a([&] {
    for (int i = 0; i < 2000; ++i)
      wrong_best += simd_tvl1::running_target(best) != simd_target_name(codes.front());
  });
  std::thread b([&] {
    for (int i = 0; i < 2000; ++i)
      wrong_worst += simd_localflow::running_target(worst) != simd_target_name(codes.back());
  });
  a.join();
  b.join();
  EXPECT_EQ(wrong_best, 0);
  EXPECT_EQ(wrong_worst, 0);
}

/// A target of the other architecture (never compiled in here): NEON on x86, AVX2 elsewhere.
int foreign_target() {
  const std::vector<int> codes = compiled_simd_target_codes();
  const int neon = *simd_target_code("NEON");
  return std::find(codes.begin(), codes.end(), neon) == codes.end() ? neon
                                                                    : *simd_target_code("AVX2");
}

TEST(SimdTarget, UnsupportedTargetIsPrunedWithTheTargetAndTheCpu) {
  // The rule for a CPU with AVX2 only (as a Zen 2 or a Haswell).
  const int avx3 = *simd_target_code("AVX3");
  const auto why = simd_target_reason(avx3, {"AVX2", "SSE4", "SSSE3"}, "Test CPU 9000");
  const std::vector<int> codes = compiled_simd_target_codes();
  if (std::find(codes.begin(), codes.end(), avx3) == codes.end()) {
    ASSERT_TRUE(why.has_value());  // not an x86 build: not compiled in
    EXPECT_NE(why->find("not compiled into this build"), std::string::npos) << *why;
  } else {
    ASSERT_TRUE(why.has_value());
    EXPECT_EQ(*why,
              "simd_target=AVX3 (code 6): not supported by this CPU (Test CPU 9000; supported "
              "here: AVX2 SSE4 SSSE3)");
  }
  EXPECT_EQ(simd_target_reason(kSimdTargetBest, {}, "x"), std::nullopt);
  ASSERT_TRUE(simd_target_reason(99).has_value());
  EXPECT_NE(simd_target_reason(99)->find("no such target"), std::string::npos);
  // A target of the other architecture is not compiled in: pruned, and refused.
  const int foreign = foreign_target();
  const auto foreign_why = simd_target_reason(foreign);
  ASSERT_TRUE(foreign_why.has_value());
  EXPECT_NE(foreign_why->find("simd_target=" + simd_target_name(foreign)), std::string::npos);
  EXPECT_THROW(simd_target_bit(foreign), std::invalid_argument);

  // The variants prune through the rule: a foreign target is pruned by the space, with its
  // reason, never measured.
  for (const char* name : {"simd_fused", "bm_simd", "lk_simd"}) {
    SCOPED_TRACE(name);
    const Variant* v = find_variant(name);
    ASSERT_NE(v, nullptr);
    const std::string workload = v->workload();
    const Workload& w = find_workload(workload);
    Config c;
    c.workload = workload;
    c.variant = name;
    c.precision = "f32";
    c.params = w.default_params();
    for (const TunableDomain& d : v->tunables())
      c.tunables[d.name] = d.default_values.empty() ? d.values.front() : d.default_values.front();
    EXPECT_EQ(c.tunables.at("simd_target"), kSimdTargetBest);
    EXPECT_EQ(v->invalid_reason(c), std::nullopt);
    c.tunables["simd_target"] = foreign;
    const auto pruned = v->invalid_reason(c);
    ASSERT_TRUE(pruned.has_value());
    EXPECT_EQ(*pruned, std::string(name) + ": " + *foreign_why);
    c.tunables.erase("simd_target");  // configs made before the tunable: best
    EXPECT_EQ(v->invalid_reason(c), std::nullopt);
  }
}

/// Relative L2 distance between two flows: |a - b| / |b| over both components.
double relative_l2(const FlowField& a, const FlowField& b) {
  double d2 = 0, b2 = 0;
  for (std::size_t i = 0; i < b.u.size(); ++i) {
    const double du = double(a.u[i]) - b.u[i], dv = double(a.v[i]) - b.v[i];
    d2 += du * du + dv * dv;
    b2 += double(b.u[i]) * b.u[i] + double(b.v[i]) * b.v[i];
  }
  return std::sqrt(d2 / b2);
}

TEST(SimdTarget, SimdFusedOnEveryTargetMatchesBest) {
  // f16 (binary16 operations, each rounded: the emulation's bits do not depend on the target):
  // the bits of best. f32 and mixed: float operations whose rounding differs between targets
  // (GCC may fuse a multiply and an add where the target has FMA: AVX2, AVX-512, Neon), so
  // within the contract's F32 tolerance (relative L2 1e-4) of best, and mixed within its
  // binary16 bound (5e-3, test_simd_fused.cpp's); the double reference is the oracle of best
  // on every target (SimdTvl1.MatchesReferenceAfter10IterationsOnEveryTargetAndSchedule).
  const test::FramePair f =
      test::load_pair(test::repo_middlebury_dir(), "RubberWhale", 101, 57, 75, 53);
  const FlowVariant* v = find_flow_variant("simd_fused");
  ASSERT_NE(v, nullptr);
  for (const char* precision : {"f32", "mixed", "f16"}) {
    SCOPED_TRACE(precision);
    Config c;
    c.variant = "simd_fused";
    c.precision = precision;
    Tvl1Params p;
    p.n_scales = 2;
    p.n_warpings = 1;
    p.iterations = 10;
    p.epsilon = 0;  // all the iterations
    c.params = param_values_of(p);
    c.tunables = {{"threads", 2}, {"band_rows", 4}, {"simd_target", kSimdTargetBest}};
    const FlowField best = v->make_solver(c)->compute(f.i0, f.i1);
    for (const int code : supported_codes()) {
      SCOPED_TRACE(simd_target_name(code));
      c.tunables["simd_target"] = code;
      ASSERT_EQ(v->invalid_reason(c), std::nullopt);
      const FlowField got = v->make_solver(c)->compute(f.i0, f.i1);
      std::cout << "simd_fused " << precision << " on " << simd_target_name(code)
                << ": relative L2 to best " << relative_l2(got, best) << "\n";
      if (std::string(precision) == "f16")
        EXPECT_TRUE(same_bits(got.u, best.u) && same_bits(got.v, best.v));
      else
        EXPECT_LT(relative_l2(got, best), std::string(precision) == "f32" ? 1e-4 : 5e-3);
    }
  }
}

TEST(SimdTarget, LocalFlowVariantsGiveTheScalarReferenceBitsOnEveryTarget) {
  const test::FramePair f =
      test::load_pair(test::repo_middlebury_dir(), "RubberWhale", 211, 97, 61, 45);
  for (const char* name : {"bm_simd", "lk_simd"}) {
    SCOPED_TRACE(name);
    const auto* v = dynamic_cast<const LocalFlowVariant*>(find_variant(name));
    const auto* scalar =
        dynamic_cast<const LocalFlowVariant*>(find_variant(name[0] == 'b' ? "bm_cpu" : "lk_cpu"));
    ASSERT_NE(v, nullptr);
    ASSERT_NE(scalar, nullptr);
    Config c;
    c.workload = v->workload();
    c.variant = name;
    c.precision = "f32";
    c.params = find_workload(c.workload).default_params();
    Config cs = c;
    cs.variant = scalar->name();
    const FlowField want = scalar->make_solver(cs)->compute(f.i0, f.i1);
    for (const int code : supported_codes()) {
      SCOPED_TRACE(simd_target_name(code));
      c.tunables = {{"threads", 2}, {"simd_target", code}};
      const FlowField got = v->make_solver(c)->compute(f.i0, f.i1);
      EXPECT_TRUE(same_bits(got.u, want.u) && same_bits(got.v, want.v));
    }
  }
}

TEST(SimdTarget, SearchEnumeratesBestUnlessAskedAndTheCommandLineTakesNames) {
  SpaceOptions options;
  options.workload = "bm";
  options.variants = {"bm_simd"};
  const Board host = load_board("host");
  std::vector<Config> configs = enumerate_space(host, options);
  ASSERT_FALSE(configs.empty());
  for (const Config& c : configs) EXPECT_EQ(c.tunables.at("simd_target"), kSimdTargetBest);
  const std::size_t n = configs.size();
  options.tunable_values["simd_target"] = compiled_simd_target_codes();
  configs = enumerate_space(host, options);
  EXPECT_EQ(configs.size(), n * compiled_simd_target_codes().size());

  // --tunable simd_target=best,<a target>,<its code>: names and codes.
  const int code = supported_codes().back();
  cli::SpaceArgs args;
  args.workload = "bm";
  args.variants = {"bm_simd"};
  args.tunables = {"simd_target=best," + simd_target_name(code) + "," + std::to_string(code)};
  EXPECT_EQ(cli::to_space_options(args).tunable_values.at("simd_target"),
            (std::vector<int>{kSimdTargetBest, code, code}));
  args.tunables = {"simd_target=AVX9"};
  try {
    cli::to_space_options(args);
    ADD_FAILURE() << "simd_target=AVX9 accepted";
  } catch (const cli::UsageError& e) {
    EXPECT_NE(std::string(e.what()).find("'AVX9' is not one of its values (best, "),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace flowtune
