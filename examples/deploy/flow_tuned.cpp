// Deploying a tuned header: flows a pair of PNGs with the config `tune export` chose, on the
// CPU (kokkos_global), and writes the flow as a .flo. Usage: flow_tuned I0.png I1.png OUT.flo
#include <flowtune/flowtune.hpp>
#include <iostream>
#include <string_view>

#include "tuned.h"  // tune export --board host -o tuned.h (CMake: -DFLOWTUNE_TUNED_HEADER=...)

namespace tuned = flowtune::tuned;

static_assert(std::string_view(tuned::kWorkload) == "tvl1", "export a TV-L1 header");
static_assert(std::string_view(tuned::kVariant) == "kokkos_global",
              "the CPU path needs a header of the host board (variant kokkos_global)");

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: flow_tuned I0.png I1.png OUT.flo\n";
    return 2;
  }
  try {
    // The header's constants (kTileX, kIterations, ...) as one config: its JSON.
    const flowtune::TunedConfig config = flowtune::parse_tuned_config(tuned::kConfigJson);
    const flowtune::FlowField flow = flowtune::compute_flow(argv[1], argv[2], config);
    flowtune::write_flo(argv[3], flow);
    std::cout << tuned::kVariant << " tile " << tuned::kTileX << "x" << tuned::kTileY << ", "
              << tuned::kIterations << " iterations, " << tuned::kNWarpings << " warpings (board "
              << tuned::kBoard << "): wrote " << argv[3] << " (" << flow.width << "x" << flow.height
              << ")\n";
  } catch (const std::exception& e) {
    std::cerr << "flow_tuned: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
