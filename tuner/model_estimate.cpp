#include "tuner/model_estimate.hpp"

#include <algorithm>
#include <stdexcept>

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

std::vector<double> strategy_prior(const Workload& workload, const Board& board,
                                   const std::vector<Config>& space,
                                   const std::vector<std::vector<KernelResources>>& kernels,
                                   const PriorModel& model) {
  return strategy_prior(workload, board, ConfigSpace(space), kernels, model);
}

std::vector<double> strategy_prior(const Workload& workload, const Board& board,
                                   const ConfigSpace& space,
                                   const std::vector<std::vector<KernelResources>>& kernels,
                                   const PriorModel& model) {
  if (kernels.size() != space.size())
    throw std::invalid_argument("strategy_prior: " + std::to_string(kernels.size()) +
                                " resource reports for " + std::to_string(space.size()) +
                                " points");
  std::vector<double> estimate(space.size()), prior(space.size());
  std::vector<std::optional<double>> predicted(space.size());
  double max_predicted = 0, max_estimate = 0;
  space.for_each([&](std::size_t i, const Config& c) {
    estimate[i] = model_estimate(workload, c, kernels[i], board);
    max_estimate = std::max(max_estimate, estimate[i]);
    if (model) predicted[i] = model(c, kernels[i]);
    if (predicted[i]) max_predicted = std::max(max_predicted, *predicted[i]);
  });
  if (!model) return estimate;
  const double scale = max_predicted > 0 ? max_predicted : 1;
  for (std::size_t i = 0; i < space.size(); ++i)
    prior[i] = predicted[i]
                   ? *predicted[i]
                   : 2 * scale + (max_estimate > 0 ? estimate[i] / max_estimate : 0) * scale;
  return prior;
}

}  // namespace flowtune
