// Deploying a tuned header: flows a pair of PNGs with the config `tune export` chose and
// writes the flow as a .flo; with --gt, also prints its AEPE against a ground-truth .flo (as
// `tune flow --gt` does). The header's variant runs where it was tuned: a host variant
// (flowtune::kHostVariants: kokkos_global, simd_fused) on the CPU, a CUDA variant (global,
// shared_fusion, ...) on the GPU, which needs the CMake option FLOWTUNE_DEPLOY_CUDA and a
// flowtune package built with CUDA.
// Usage: flow_tuned I0.png I1.png OUT.flo [--gt REF.flo]
#include <flowtune/flowtune.hpp>
#include <iostream>
#include <string>
#include <string_view>

#include "tuned.h"  // tune export --board host|h200 -o tuned.h (CMake: -DFLOWTUNE_TUNED_HEADER=...)

namespace tuned = flowtune::tuned;

static_assert(std::string_view(tuned::kWorkload) == "tvl1", "export a TV-L1 header");
#ifndef FLOWTUNE_DEPLOY_CUDA
static_assert(flowtune::is_host_variant(tuned::kVariant),
              "the CPU build needs a header of the host board (a variant of "
              "flowtune::kHostVariants: kokkos_global, simd_fused); configure with "
              "-DFLOWTUNE_DEPLOY_CUDA=ON for a GPU board's header");
#endif

namespace {

/// "global f32, block_x=32 block_y=8 iterations=50 n_warpings=5": the config in one line.
std::string describe(const flowtune::TunedConfig& config) {
  std::string s = config.variant + " " + config.precision + ",";
  for (const auto& [name, value] : config.tunables) s += " " + name + "=" + std::to_string(value);
  for (const char* p : {"iterations", "n_warpings", "n_scales"}) {
    const auto it = config.params.find(p);
    if (it != config.params.end())
      s += std::string(" ") + p + "=" + std::to_string(int(it->second));
  }
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const bool gt = argc == 6 && std::string_view(argv[4]) == "--gt";
  if (argc != 4 && !gt) {
    std::cerr << "usage: flow_tuned I0.png I1.png OUT.flo [--gt REF.flo]\n";
    return 2;
  }
  try {
    // The header's constants (kVariant, kIterations, ...) as one config: its JSON.
    const flowtune::TunedConfig config = flowtune::parse_tuned_config(tuned::kConfigJson);
    const flowtune::FlowField flow = flowtune::compute_flow(argv[1], argv[2], config);
    flowtune::write_flo(argv[3], flow);
    std::cout << describe(config) << " (board " << tuned::kBoard << "): wrote " << argv[3] << " ("
              << flow.width << "x" << flow.height << ")\n";
    if (gt)
      std::cout << "aepe " << flowtune::average_endpoint_error(flow, flowtune::read_flo(argv[5]))
                << " px\n";
  } catch (const std::exception& e) {
    std::cerr << "flow_tuned: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
