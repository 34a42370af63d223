// The workloads compiled into this binary.
#include "workloads/tvl1/tvl1_workload.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

const std::vector<const Workload*>& all_workloads() {
  static const std::vector<const Workload*> workloads = {&tvl1_workload()};
  return workloads;
}

}  // namespace flowtune
