// The variant and workload registries (each variant and workload registers itself from its own
// file, linked whole-archive): every one is present, listed in its rank order, findable by
// name; and the kernel macro naming convention (variants/kernel_defines.hpp).
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "variants/kernel_defines.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune {
namespace {

template <typename T>
std::vector<std::string> names_of(const std::vector<const T*>& items) {
  std::vector<std::string> names;
  for (const T* item : items) names.push_back(item->name());
  return names;
}

TEST(VariantRegistry, ListsEveryVariantInRankOrder) {
  std::vector<std::string> expected = {"kokkos_global", "simd_fused"};
#ifdef FLOWTUNE_HAVE_CUDA
  for (const char* v : {"global", "shared_fusion", "global_pipeline", "shared_pipeline"})
    expected.push_back(v);
#endif
  expected.push_back("fw_cpu");
  expected.push_back("dijkstra_cpu");
#ifdef FLOWTUNE_HAVE_CUDA
  expected.push_back("fw_tiled");
  expected.push_back("fw_tiled_sym");
#endif
  for (const char* v : {"bm_cpu", "lk_cpu", "feat_cpu", "bm_simd", "lk_simd"})
    expected.push_back(v);
#ifdef FLOWTUNE_HAVE_CUDA
  for (const char* v : {"bm_cuda", "lk_cuda", "feat_cuda"}) expected.push_back(v);
#endif
  EXPECT_EQ(names_of(all_variants()), expected);
  for (const Variant* v : all_variants()) EXPECT_EQ(find_variant(v->name()), v);
  EXPECT_EQ(find_variant("no_such_variant"), nullptr);
}

TEST(VariantRegistry, RefusesASecondVariantOfTheSameName) {
  const std::size_t before = all_variants().size();
  EXPECT_FALSE(register_variants(0, {find_variant("kokkos_global")}));
  EXPECT_EQ(all_variants().size(), before);
}

TEST(WorkloadRegistry, ListsEveryWorkloadInRankOrder) {
  EXPECT_EQ(names_of(all_workloads()),
            (std::vector<std::string>{"tvl1", "apsp", "bm", "lk", "features"}));
  for (const Workload* w : all_workloads()) {
    EXPECT_EQ(&find_workload(w->name()), w);
    // Every workload has variants, each registered and naming the workload.
    EXPECT_FALSE(w->variants().empty()) << w->name();
    for (const Variant* v : w->variants()) {
      EXPECT_EQ(v->workload(), w->name());
      EXPECT_EQ(find_workload_variant(*w, v->name()), v);
    }
  }
  EXPECT_EQ(std::string(kDefaultWorkload), all_workloads().front()->name());
}

TEST(WorkloadRegistry, EveryVariantBelongsToARegisteredWorkload) {
  std::set<std::string> workloads;
  for (const Workload* w : all_workloads()) workloads.insert(w->name());
  for (const Variant* v : all_variants())
    EXPECT_EQ(workloads.count(v->workload()), 1u) << v->name();
}

TEST(WorkloadRegistry, RefusesASecondWorkloadOfTheSameName) {
  EXPECT_FALSE(register_workload(find_workload("apsp")));
  EXPECT_FALSE(register_workload(0, find_workload("tvl1")));
  EXPECT_EQ(all_workloads().size(), 5u);
  try {
    find_workload("nope");
    ADD_FAILURE() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()),
              "unknown workload 'nope' (this build has: tvl1, apsp, bm, lk, features)");
  }
}

TEST(KernelDefines, TunablesAndPrecisionsNameTheKernelMacros) {
  EXPECT_EQ(kernel_macro("tile_x"), "FT_TILE_X");
  EXPECT_EQ(kernel_macro("w"), "FT_W");
  EXPECT_EQ(kernel_macro("features_per_tb"), "FT_FEATURES_PER_TB");
  EXPECT_EQ(kernel_define("block_x", 32), "FT_BLOCK_X=32");
  EXPECT_EQ(kernel_define("optin", 0), "FT_OPTIN=0");
  EXPECT_EQ(precision_macro("f32"), "FT_PRECISION_F32");
  EXPECT_EQ(precision_macro("f16"), "FT_PRECISION_F16");
  EXPECT_EQ(precision_macro("mixed"), "FT_PRECISION_MIXED");
  EXPECT_EQ(precision_macro("i32"), "");
  EXPECT_EQ(precision_macro(""), "");
}

}  // namespace
}  // namespace flowtune
