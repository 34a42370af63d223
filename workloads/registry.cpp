// The workloads compiled into this binary.
#include <stdexcept>

#include "workloads/apsp/apsp_workload.hpp"
#include "workloads/localflow/localflow_workload.hpp"
#include "workloads/tvl1/tvl1_workload.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

namespace {
std::vector<const Workload*>& registry() {
  static std::vector<const Workload*> workloads = {
      &tvl1_workload(), &apsp_workload(), &bm_workload(), &lk_workload(), &features_workload()};
  return workloads;
}
}  // namespace

const std::vector<const Workload*>& all_workloads() {
  return registry();
}

bool register_workload(const Workload& workload) {
  for (const Workload* w : registry())
    if (w->name() == workload.name()) return false;
  registry().push_back(&workload);
  return true;
}

const Variant* find_workload_variant(const Workload& workload, const std::string& name) {
  for (const Variant* v : workload.variants())
    if (v->name() == name) return v;
  return nullptr;
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
