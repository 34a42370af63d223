// The configs of a store that gave no measurement: failures (tried, no valid result) and
// pruned configs (rejected by a constraint before running).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// The failures-and-pruned part of a Repository, over the store it shares with the other
/// parts. Every call throws DbError "<store>: <problem>" when the store fails.
class FailureStore {
 public:
  explicit FailureStore(Store& store) : store_(&store) {}

  /// True iff (board, config_key) was recorded as pruned.
  bool is_pruned(const std::string& board, const std::string& config_key) const;
  /// The class of the last failure of (board, config_key) on dataset, or "" when none.
  std::string failure_class(const std::string& board, const std::string& config_key,
                            const std::string& dataset) const;
  /// Records config as pruned with reason; a second call for the same (board, key) is a
  /// no-op (the first reason is kept). Throws DbError for a config without a board or key.
  void record_pruned(std::int64_t run_id, const ConfigRow& config, const std::string& reason);
  /// Records that config failed on dataset in run_id (one row per attempt). Throws DbError
  /// for an unknown failure class (see FailureRow).
  void record_failure(std::int64_t run_id, const ConfigRow& config, const std::string& dataset,
                      const std::string& failure_class, const std::string& message);
  /// Pruned configs of board in the order they were recorded.
  std::vector<PrunedRow> pruned(const std::string& board) const;
  /// Failures of board in the order they were recorded.
  std::vector<FailureRow> failures(const std::string& board) const;

 private:
  Store* store_;
};

}  // namespace flowtune::db
