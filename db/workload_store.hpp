// What a store knows of each workload (tables workloads, metric_specs), so that reports need
// nothing but the store.
#pragma once

#include <string>

#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// The workloads part of a Repository, over the store it shares with the other parts.
/// Every call throws DbError "<store>: <problem>" when the store fails.
class WorkloadStore {
 public:
  explicit WorkloadStore(Store& store) : store_(&store) {}

  /// Stores (replaces) what the DB knows of a workload: work unit, front objectives,
  /// metrics (a metric recorded earlier and absent from workload.metrics stays).
  void record_workload(const WorkloadRow& workload);
  /// The workload as recorded, its metrics in the order they were recorded; throws DbError
  /// when it was never recorded.
  WorkloadRow workload(const std::string& name) const;

 private:
  Store* store_;
};

}  // namespace flowtune::db
