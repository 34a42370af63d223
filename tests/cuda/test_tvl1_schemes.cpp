// The one list of TV-L1 CUDA schemes (variants/cuda/tvl1_schemes.hpp): its names, its adaptors,
// the registry and make_iteration_schedule agree with it; no GPU needed.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/embedded_sources.hpp"
#include "variants/cuda/tvl1_schemes.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {
namespace {

TEST(Tvl1CudaSchemes, NamesAdaptorsAndRegistryAgree) {
  const std::vector<std::string> expected = {"global", "shared_fusion", "global_pipeline",
                                             "shared_pipeline"};
  EXPECT_EQ(tvl1_cuda_scheme_names(), expected);
  EXPECT_EQ(tvl1_cuda_scheme_list(), "global, shared_fusion, global_pipeline, shared_pipeline");
  ASSERT_EQ(tvl1_cuda_schemes().size(), expected.size());
  std::vector<const Variant*> registered;  // the TV-L1 CUDA variants of the registry
  for (const Variant* v : all_variants())
    if (v->workload() == "tvl1" && v->target() == "cuda") registered.push_back(v);
  ASSERT_EQ(registered.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const CudaVariant* scheme = tvl1_cuda_schemes()[i];
    EXPECT_EQ(scheme->name(), expected[i]);
    EXPECT_EQ(registered[i], scheme);
    EXPECT_EQ(find_tvl1_cuda_scheme(expected[i]), scheme);
    EXPECT_TRUE(is_tvl1_cuda_scheme(expected[i]));
    EXPECT_EQ(embedded_tvl1_sources().count(device_source_of(expected[i])), 1u) << expected[i];
  }
  EXPECT_EQ(&global_variant(), tvl1_cuda_schemes()[0]);
  EXPECT_EQ(&shared_pipeline_variant(), tvl1_cuda_schemes()[3]);
  for (const char* other : {"kokkos_global", "fw_tiled", "lk_cuda", ""}) {
    EXPECT_EQ(find_tvl1_cuda_scheme(other), nullptr) << other;
    EXPECT_FALSE(is_tvl1_cuda_scheme(other)) << other;
  }
}

TEST(Tvl1CudaSchemes, IterationScheduleOfAnotherVariantNamesTheSchemes) {
  Config c;
  c.workload = "tvl1";
  c.variant = "kokkos_global";
  c.precision = "f32";
  try {
    make_iteration_schedule(c);
    ADD_FAILURE() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "make_iteration_schedule: 'kokkos_global' is not a CUDA variant (global, "
              "shared_fusion, global_pipeline, shared_pipeline)");
  }
}

TEST(Tvl1CudaSchemes, NvrtcDefinesFollowTheKernelMacroConvention) {
  Config c;
  c.variant = "shared_pipeline";
  c.precision = "f16";
  c.tunables = {
      {"w", 128}, {"strip_h", 32}, {"optin", 0}, {"resident_px", 1024}, {"tiled_px", 65536}};
  // The per-level thresholds are not the scheme's code: not among its defines.
  EXPECT_EQ(nvrtc_defines(c), (std::vector<std::string>{"FT_PRECISION_F16", "FT_OPTIN=0",
                                                        "FT_STRIP_H=32", "FT_W=128"}));
  c.precision = "i32";
  EXPECT_THROW(nvrtc_defines(c), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune::cuda
