// The workload registry: every workload registers itself (FLOWTUNE_REGISTER_WORKLOAD in its own
// .cpp); all_workloads() lists them in listing-rank order.
#include <algorithm>
#include <stdexcept>
#include <utility>

#include "workloads/workload.hpp"

namespace flowtune {

namespace {

/// Registered workloads with their ranks, kept sorted by (rank, name); constructed on first
/// use, so registrations from any translation unit's static initialisers find it.
std::vector<std::pair<int, const Workload*>>& entries() {
  static std::vector<std::pair<int, const Workload*>> e;
  return e;
}

/// The workloads of entries(), rebuilt by register_workload.
std::vector<const Workload*>& listing() {
  static std::vector<const Workload*> w;
  return w;
}

}  // namespace

const std::vector<const Workload*>& all_workloads() {
  return listing();
}

bool register_workload(int listing_rank, const Workload& workload) {
  auto& e = entries();
  for (const auto& [rank, w] : e)
    if (w->name() == workload.name()) return false;
  e.emplace_back(listing_rank, &workload);
  std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : a.second->name() < b.second->name();
  });
  auto& l = listing();
  l.clear();
  for (const auto& entry : e) l.push_back(entry.second);
  return true;
}

bool register_workload(const Workload& workload) {
  return register_workload(kLateWorkloadRank, workload);
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
