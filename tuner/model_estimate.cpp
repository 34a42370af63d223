#include "tuner/model_estimate.hpp"

#include <algorithm>

#include "tuner/occupancy.hpp"

namespace flowtune {

double element_bytes(const std::string& precision) {
  if (precision == "f64") return 8;
  if (precision == "f16" || precision == "mixed") return 2;
  return 4;
}

double model_estimate(const Workload& workload, const Config& config,
                      const std::vector<KernelResources>& kernels, const Board& board) {
  double cost = workload.relative_cost(config);
  if (!(cost > 0)) cost = 1;
  double efficiency = 1;
  const auto optin = config.tunables.find("optin");
  const bool opt = optin != config.tunables.end() && optin->second != 0;
  for (const KernelResources& k : kernels) {
    if (k.threads_per_block <= 0) continue;
    try {
      const OccupancyResult occ = occupancy(board.limits, k, -1, opt);
      efficiency = std::min(efficiency, std::max(0.05, std::min(1.0, occ.occupancy / 0.5)));
    } catch (const std::exception&) {
      efficiency = std::min(efficiency, 0.05);
    }
  }
  return cost * element_bytes(config.precision) / 4.0 / efficiency;
}

}  // namespace flowtune
