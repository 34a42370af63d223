// The cross-algorithm front: on a dataset measured by several workloads (e.g. TV-L1, block
// matching and Lucas-Kanade on the same Middlebury sequences), the Pareto front of all their
// configs together over the front objectives they share, by name (workload-generic: the
// objectives and their directions come from the DB's workloads table).
#pragma once

#include <map>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace flowtune::reports {

/// One dataset's cross-algorithm front.
struct CrossFront {
  std::string dataset;
  std::vector<std::string> workloads;  ///< in order of first measurement
  std::vector<Objective> objectives;   ///< shared front objectives, in the first's order
  std::vector<db::MeasuredConfig> measured, front;
  /// Per workload, the number of its configs on the front.
  std::vector<std::size_t> on_front;
};

/// The cross-algorithm fronts of `measured` (one board), for every dataset measured by at
/// least two workloads that share at least two front objectives (e.g. time_ms and a metric
/// of the same name); datasets in the order given. `workloads` maps every workload of
/// `measured` to its row (else std::out_of_range).
std::vector<CrossFront> cross_algorithm_fronts(
    const std::map<std::string, db::WorkloadRow>& workloads,
    const std::vector<db::MeasuredConfig>& measured, const std::vector<std::string>& datasets);

}  // namespace flowtune::reports
