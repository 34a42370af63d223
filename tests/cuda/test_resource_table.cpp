// The committed table of NVRTC resource reports (variants/cuda/resource_table.hpp): parsing
// with errors that name the file and line, the key without resource-neutral tunables, a
// lookup that covers every kernel config of the TV-L1 CUDA spaces on every board's arch, figures
// checked by hand against the kernels' shared arrays, and strip_h's neutrality rebuilt with the
// NVRTC in use.
#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>

#include "boards/board.hpp"
#include "tuner/space.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/persistent_levels.hpp"
#include "variants/cuda/resource_table.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cuda {
namespace {

const char* kHeader =
    "workload,variant,precision,tunables,arch,built_for,kernel,registers,static_shared_bytes,"
    "local_bytes,spill_bytes,status\n";

std::string parse_error(const std::string& csv) {
  try {
    ResourceTable::parse(csv, "t.csv");
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ResourceTable, ParsesRowsIntoBuildsAndSkipsNonNativeOnes) {
  const ResourceTable t = ResourceTable::parse(
      std::string(kHeader) +
          "tvl1,global,f32,block_x=16 block_y=2,sm_72,sm_72,ft_global_p,18,0,0,0,ok\n"
          "tvl1,global,f32,block_x=16 block_y=2,sm_72,sm_72,ft_global_u,26,0,0,0,ok\n"
          "tvl1,global,f32,block_x=32 block_y=2,sm_72,sm_75,ft_global_p,18,0,0,0,estimated\n"
          "tvl1,global,f32,block_x=64 block_y=2,sm_72,,,,,,,failed: boom\n",
      "t.csv");
  EXPECT_EQ(t.builds(), 1u);
  const auto* rows = t.find("global", "f32", "block_x=16 block_y=2", "sm_72");
  ASSERT_NE(rows, nullptr);
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].kernel, "ft_global_p");
  EXPECT_EQ((*rows)[1].registers_per_thread, 26);
  EXPECT_TRUE((*rows)[1].from_table);
  EXPECT_FALSE((*rows)[1].estimated);
  EXPECT_EQ(t.find("global", "f32", "block_x=16 block_y=2", "sm_87"), nullptr);
  EXPECT_EQ(t.find("global", "f32", "block_x=32 block_y=2", "sm_72"), nullptr);  // estimated
  EXPECT_EQ(t.find("global", "f32", "block_x=64 block_y=2", "sm_72"), nullptr);  // failed
}

TEST(ResourceTable, BadInputNamesTheFileAndLine) {
  EXPECT_EQ(parse_error(""), "t.csv: empty (expected the CSV header)");
  EXPECT_NE(parse_error("a,b\n").find("t.csv:1: expected the header"), std::string::npos);
  EXPECT_EQ(parse_error(std::string(kHeader) + "tvl1,global,f32\n"),
            "t.csv:2: 3 columns, expected 12");
  EXPECT_EQ(parse_error(std::string(kHeader) +
                        "tvl1,global,f32,block_x=16,sm_72,sm_72,k,many,0,0,0,ok\n"),
            "t.csv:2: registers 'many' is not a non-negative integer");
}

TEST(ResourceTable, TheKeyLeavesOutTheResourceNeutralTunables) {
  Config c;
  c.tunables = {
      {"w", 128},          {"depth", 3},         {"strip_h", 32},       {"resident_px", 1024},
      {"tiled_px", 65536}, {"persistent_px", 0}, {"rows_per_thread", 1}};
  EXPECT_EQ(build_tunables_text(c), "depth=3 rows_per_thread=1 w=128");
  EXPECT_TRUE(is_resource_neutral("strip_h"));
  EXPECT_TRUE(is_resource_neutral("resident_px"));
  EXPECT_FALSE(is_resource_neutral("w"));
}

// Every kernel config (variant, precision, tunables) of the default TV-L1 CUDA space passes
// its rules and has its build in the committed table for the arch of every cuda board: `tune
// space` and `tune predict` build nothing.
TEST(ResourceTable, CoversEveryKernelConfigOfTheSpacesOnEveryBoardsArch) {
  std::set<std::string> archs;
  for (const std::string& name : list_boards()) {
    const Board b = load_board(name);
    if (b.target == "cuda") archs.insert(b.arch());
  }
  ASSERT_EQ(archs, (std::set<std::string>{"sm_53", "sm_62", "sm_72", "sm_87", "sm_90"}));
  SpaceOptions options;
  options.default_dimensions = false;
  const Board h200 = load_board("h200");
  std::size_t checked = 0;
  std::vector<std::string> missing;
  for (const Config& c : enumerate_space(h200, options)) {
    const Variant* v = find_workload_variant(find_workload(c.workload), c.variant);
    if (v->invalid_reason(c)) continue;
    for (const std::string& arch : archs) {
      if (persistent_px_of(c) > 0 && arch == "sm_53") continue;  // no cooperative launch
      if (arch_invalid_reason(c.variant, c, arch)) continue;     // no cp.async below sm_80
      ++checked;
      const auto r = v->table_resources(c, arch);
      if (!r) missing.push_back(c.label() + " " + arch);
    }
  }
  EXPECT_GT(checked, 1000u);
  EXPECT_TRUE(missing.empty()) << missing.size() << " missing, e.g. " << missing.front()
                               << " (regenerate: scripts/toolchain-matrix build/ci --all-tunables)";
}

// shared_fusion keeps u, p1 and p2 of its block in three static shared arrays of V
// (kernels/cuda/tvl1_shared_fusion.cuh): 3 x block_x x block_y x sizeof(V), V = float2 (8 B)
// in f32, half2 (4 B) in f16.
TEST(ResourceTable, SharedFusionStaticSharedMemoryIsItsThreeArrays) {
  const ResourceTable& t = ResourceTable::committed();
  for (const char* arch : {"sm_53", "sm_62", "sm_72", "sm_87", "sm_90"}) {
    const auto* f32 = t.find("shared_fusion", "f32", "block_x=16 block_y=4", arch);
    const auto* f16 = t.find("shared_fusion", "f16", "block_x=32 block_y=8", arch);
    ASSERT_NE(f32, nullptr) << arch;
    ASSERT_NE(f16, nullptr) << arch;
    EXPECT_EQ(f32->front().static_shared_bytes, 3 * 16 * 4 * 8) << arch;
    EXPECT_EQ(f16->front().static_shared_bytes, 3 * 32 * 8 * 4) << arch;
  }
}

// What table_resources adds to the table's rows is what resources() adds to a build: the
// launch shape, and with persistent_px the persistent kernel (refused below sm_60).
TEST(ResourceTable, TableResourcesCarryTheLaunchShapeAndThePersistentKernel) {
  Config c;
  c.workload = "tvl1";
  c.variant = "shared_pipeline";
  c.precision = "f32";
  c.tunables = {
      {"w", 128},          {"parts", 1},        {"depth", 5},           {"skew", 1},
      {"strip_h", 32},     {"optin", 0},        {"rows_per_thread", 1}, {"resident_px", 1024},
      {"tiled_px", 65536}, {"persistent_px", 0}};
  const CudaVariant& v = shared_pipeline_variant();
  const auto r = v.table_resources(c, "sm_72");
  ASSERT_TRUE(r);
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].threads_per_block, 128);
  EXPECT_EQ((*r)[0].dynamic_shared_bytes, pipeline_ring_bytes("f32", 128, 5, 1));
  EXPECT_TRUE((*r)[0].from_table);
  c.tunables["persistent_px"] = 1048576;
  const auto p = v.table_resources(c, "sm_72");
  ASSERT_TRUE(p);
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ((*p)[1].threads_per_block, kPersistentThreads);
  EXPECT_THROW(v.table_resources(c, "sm_53"), std::invalid_argument);
}

// strip_h is a define of the pipelines, but a loop bound only: builds that differ only in it
// have the same resources with the NVRTC in use too (sm_90, which every NVRTC here targets).
TEST(ResourceTable, StripHeightChangesNoResourceOfABuild) {
  for (const char* variant : {"global_pipeline", "shared_pipeline"}) {
    Config c;
    c.workload = "tvl1";
    c.variant = variant;
    c.precision = "f16";
    c.tunables = {{"w", 128}, {"parts", 2}, {"depth", 3}, {"skew", 1}, {"rows_per_thread", 2}};
    if (c.variant == "shared_pipeline") c.tunables["optin"] = 0;
    std::vector<std::vector<std::pair<int, int>>> seen;
    for (int strip_h : {16, 32, 64}) {
      c.tunables["strip_h"] = strip_h;
      std::vector<std::pair<int, int>> figures;
      for (const KernelResources& k :
           nvrtc_build(device_source_of(variant), nvrtc_defines(c), "sm_90")->resources)
        figures.emplace_back(k.registers_per_thread, k.static_shared_bytes + k.local_bytes);
      seen.push_back(figures);
    }
    EXPECT_EQ(seen[0], seen[1]) << variant;
    EXPECT_EQ(seen[0], seen[2]) << variant;
  }
}

}  // namespace
}  // namespace flowtune::cuda
