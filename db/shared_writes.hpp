// The checks and inserts that more than one part of a Repository runs (internal to db/):
// ResultStore and WorkQueue record measurements (db/result_store.cpp), FailureStore and
// WorkQueue record failures (db/failure_store.cpp).
#pragma once

#include <cstdint>
#include <string>

#include "db/config_rows.hpp"
#include "db/connection.hpp"
#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// Throws DbError when config has no board, key or workload, or a time of m is not finite.
void check_measurement(const Store& store, const ConfigRow& config, const MeasurementRow& m);
/// Inside a write transaction: the config (when new), the measurement, its metrics and its
/// items. Throws BackendError (e.g. a second measurement of the config on m.dataset).
void insert_measurement(Connection& c, const ConfigRow& config, const MeasurementRow& m);

/// insert_measurement with its statements prepared once, for many measurements in one
/// transaction (an import).
class MeasurementInserter {
 public:
  explicit MeasurementInserter(Connection& c);
  /// As insert_measurement(c, config, m).
  void insert(const ConfigRow& config, const MeasurementRow& m);
  /// The measurement, its metrics and items of the stored config config_id, in run run_id
  /// (m.run_id is not read).
  void insert(std::int64_t config_id, std::int64_t run_id, const MeasurementRow& m);

 private:
  Connection& c_;
  ConfigUpserter configs_;
  Statement measurement_, metric_, item_, image_;
};

/// Throws DbError for an unknown failure class or a config without a board or key.
void check_failure(const Store& store, const ConfigRow& config, const std::string& failure_class);
/// Inside a write transaction: the config (when new) and one failures row. Throws
/// BackendError.
void insert_failure(Connection& c, std::int64_t run_id, const ConfigRow& config,
                    const std::string& dataset, const std::string& failure_class,
                    const std::string& message);
/// insert_failure of the stored config config_id.
void insert_failure(Connection& c, std::int64_t run_id, std::int64_t config_id,
                    const std::string& dataset, const std::string& failure_class,
                    const std::string& message);

}  // namespace flowtune::db
