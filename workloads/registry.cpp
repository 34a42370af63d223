// The workloads compiled into this binary.
#include <stdexcept>

#include "workloads/apsp/apsp_workload.hpp"
#include "workloads/tvl1/tvl1_workload.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

const std::vector<const Workload*>& all_workloads() {
  static const std::vector<const Workload*> workloads = {&tvl1_workload(), &apsp_workload()};
  return workloads;
}

const Workload& find_workload(const std::string& name) {
  std::string names;
  for (const Workload* w : all_workloads()) {
    if (w->name() == name) return *w;
    names += (names.empty() ? "" : ", ") + w->name();
  }
  throw std::invalid_argument("unknown workload '" + name + "' (this build has: " + names + ")");
}

}  // namespace flowtune
