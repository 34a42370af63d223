// Pruning with reasons; eq. 4 pinned to the paper's figures.
#include <gtest/gtest.h>

#include "boards/board.hpp"
#include "tuner/constraints.hpp"
#include "workloads/workload.hpp"

using namespace flowtune;

namespace {

/// A stand-in Shared_pipeline adaptor whose resources follow eq. 4 (no NVRTC): one kernel
/// of w threads, 64 registers, Q dynamic shared bytes. Checks the pruning chain, not ptxas.
class FakeSharedPipeline : public FlowVariant {
 public:
  std::string name() const override { return "shared_pipeline"; }
  std::string target() const override { return "cuda"; }
  std::vector<std::string> precisions() const override { return {"f32", "f16"}; }
  std::vector<TunableDomain> tunables() const override {
    return {{"w", {128, 256, 512}}, {"depth", {1, 3, 7, 15}}};
  }
  std::optional<std::string> invalid_reason(const Config& c) const override {
    if (c.tunable("depth") < 1) return std::string("depth must be >= 1");
    return std::nullopt;
  }
  std::vector<KernelResources> resources(const Config& c, const std::string& arch) const override {
    KernelResources k;
    k.kernel = "tvl1_shared_pipeline";
    k.threads_per_block = c.tunable("w");
    k.registers_per_thread = 64;
    k.dynamic_shared_bytes = static_cast<int>(shared_pipeline_shared_bytes(
        qfloat_bytes(c.precision), c.tunable("w"), c.tunable("depth")));
    k.built_for = arch;
    return {k};
  }
  std::unique_ptr<FlowSolver> make_solver(const Config&) const override { return nullptr; }
};

class FakeHostVariant : public FakeSharedPipeline {
 public:
  std::string name() const override { return "kokkos_fake"; }
  std::string target() const override { return "cpu"; }
};

Config sp(const std::string& precision, int w, int depth, int optin = -1) {
  Config c;
  c.variant = "shared_pipeline";
  c.precision = precision;
  c.tunables = {{"w", w}, {"depth", depth}};
  if (optin >= 0) c.tunables["optin"] = optin;
  c.params = find_workload("tvl1").default_params();
  return c;
}

/// Largest depth whose eq. 4 footprint fits limit_bytes.
int max_depth(int qfloat, int w, std::int64_t limit_bytes) {
  int p = 0;
  while (shared_pipeline_shared_bytes(qfloat, w, p + 1) <= limit_bytes) ++p;
  return p;
}

}  // namespace

TEST(Eq4, Formula) {
  EXPECT_EQ(shared_pipeline_shared_bytes(8, 128, 5), 36864);  // 36 KiB: the paper's F32 block
  EXPECT_EQ(shared_pipeline_shared_bytes(4, 1, 0), 24);
  EXPECT_EQ(qfloat_bytes("f32"), 8);
  EXPECT_EQ(qfloat_bytes("f16"), 4);
  EXPECT_EQ(qfloat_bytes("mixed"), 4);
  EXPECT_THROW(qfloat_bytes("f64"), std::invalid_argument);
  EXPECT_THROW(shared_pipeline_shared_bytes(8, 0, 1), std::invalid_argument);
}

TEST(Eq4, PaperDepthsWith48KiBPerBlock) {
  // Romera et al. 2023: with 48 KB per block F32 allows up to 7 iterations at w=128 and 3
  // at w=256; F16 15 at 128, 7 at 256, 3 at 512.
  const std::int64_t kb48 = 48 * 1024;
  EXPECT_EQ(max_depth(8, 128, kb48), 7);
  EXPECT_EQ(max_depth(8, 256, kb48), 3);
  EXPECT_EQ(max_depth(4, 128, kb48), 15);
  EXPECT_EQ(max_depth(4, 256, kb48), 7);
  EXPECT_EQ(max_depth(4, 512, kb48), 3);
}

TEST(Eq4, PrunedAtTheSameDepthsOnEveryBoardWithoutOptIn) {
  FakeSharedPipeline v;
  for (const char* name : {"agx", "nano", "tx2", "h200"}) {
    Board b = load_board(name);
    for (auto [precision, w, last_ok] :
         std::vector<std::tuple<std::string, int, int>>{{"f32", 128, 7},
                                                        {"f32", 256, 3},
                                                        {"f16", 128, 15},
                                                        {"f16", 256, 7},
                                                        {"f16", 512, 3}}) {
      EXPECT_EQ(prune_reason(b, v, sp(precision, w, last_ok)), std::nullopt)
          << name << " " << precision << " " << w;
      auto why = prune_reason(b, v, sp(precision, w, last_ok + 1));
      ASSERT_TRUE(why.has_value()) << name << " " << precision << " " << w;
      EXPECT_NE(why->find("> 48 KiB per block"), std::string::npos) << *why;
    }
  }
}

TEST(Constraints, ReasonText) {
  FakeSharedPipeline v;
  EXPECT_EQ(*prune_reason(load_board("agx-xavier"), v, sp("f32", 256, 7)),
            "shared_pipeline f32 depth=7 w=256: needs 96 KiB shared memory > 48 KiB per block "
            "without opt-in on agx-xavier");
  EXPECT_EQ(*prune_reason(load_board("nano"), v, sp("f32", 256, 7, 1)),
            "shared_pipeline f32 depth=7 optin=1 w=256: needs 96 KiB shared memory > 48 KiB per "
            "block on nano");
  // With opt-in, AGX takes the 96 KiB block (its whole shared memory).
  EXPECT_EQ(prune_reason(load_board("agx"), v, sp("f32", 256, 7, 1)), std::nullopt);
  EXPECT_EQ(*prune_reason(load_board("agx"), v, sp("f32", 256, 0)),
            "shared_pipeline f32 depth=0 w=256: depth must be >= 1");
}

TEST(Constraints, TargetMismatch) {
  FakeSharedPipeline gpu;
  FakeHostVariant cpu;
  Config c = sp("f32", 128, 1);
  EXPECT_EQ(*prune_reason(load_board("host"), gpu, c),
            "shared_pipeline f32 depth=1 w=128: cuda variant shared_pipeline cannot run on cpu "
            "board host");
  EXPECT_EQ(*prune_reason(load_board("agx-xavier"), cpu, c),
            "shared_pipeline f32 depth=1 w=128: cpu variant kokkos_fake cannot run on cuda board "
            "agx-xavier");
  EXPECT_EQ(prune_reason(load_board("host"), cpu, c), std::nullopt);
}

TEST(Constraints, PaperTwoBlocksOnAgxOneOnTx2AndNano) {
  // Shared_pipeline_F32, w = 128, P = 5: 36 KiB per block.
  FakeSharedPipeline v;
  auto blocks = [&](const char* board) {
    auto check = check_constraints(load_board(board), v, sp("f32", 128, 5));
    EXPECT_FALSE(check.prune_reason.has_value());
    EXPECT_EQ(check.kernels.size(), 1u);
    EXPECT_EQ(check.kernels[0].occupancy.limited_by, "shared_memory");
    return check.kernels[0].occupancy.active_blocks_per_sm;
  };
  EXPECT_EQ(blocks("agx"), 2);
  EXPECT_EQ(blocks("tx2"), 1);
  EXPECT_EQ(blocks("nano"), 1);
}

TEST(Constraints, BuildFailureIsAReason) {
  class Failing : public FakeSharedPipeline {
    std::vector<KernelResources> resources(const Config&, const std::string&) const override {
      throw std::runtime_error("ptxas fatal: too much shared data");
    }
  } v;
  EXPECT_EQ(*prune_reason(load_board("h200"), v, sp("f32", 128, 1)),
            "shared_pipeline f32 depth=1 w=128: build for sm_90 failed: ptxas fatal: too much "
            "shared data");
}

TEST(Constraints, ParametersOutsideTheWorkloadSchemaArePrunedWithTheRange) {
  FakeHostVariant cpu;
  Config c = sp("f32", 128, 1);
  c.params["lambda"] = -1;
  EXPECT_EQ(*prune_reason(load_board("host"), cpu, c),
            "shared_pipeline f32 depth=1 w=128: tvl1: lambda=-1 outside (0, 10]");
  c = sp("f32", 128, 1);
  c.params["n_warpings"] = 2.5;
  EXPECT_NE(prune_reason(load_board("host"), cpu, c)->find("n_warpings=2.5 is not a whole number"),
            std::string::npos);
  c = sp("f32", 128, 1);
  c.params.erase("theta");
  EXPECT_NE(prune_reason(load_board("host"), cpu, c)->find("parameter 'theta' missing"),
            std::string::npos);
  c = sp("f32", 128, 1);
  c.params["gamma"] = 1;
  EXPECT_NE(prune_reason(load_board("host"), cpu, c)->find("unknown parameter 'gamma'"),
            std::string::npos);
  c = sp("f32", 128, 1);
  c.workload = "apsp";
  EXPECT_NE(prune_reason(load_board("host"), cpu, c)->find("belongs to workload tvl1"),
            std::string::npos);
}
