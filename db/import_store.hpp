// Recording a whole imported file (Kernel Tuner cache, T4) in one transaction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// One entry of an imported file, ready to store: where names it in messages.
struct ImportedEntry {
  enum class Kind { measured, failed, pruned };
  Kind kind = Kind::measured;
  std::string where;  ///< e.g. "entry '32,8'" (the file's name is the caller's)
  ConfigRow config;   ///< with board and key
  /// tunables_json(config.tunables) and params_json(config.params) when both are not empty;
  /// then record_import does not read config's tunables and params (a reader may free them).
  std::string tunables_json, params_json;
  MeasurementRow measurement;  ///< measured: run_id is set by record_import
  std::string failure_class;   ///< failed
  std::string message;         ///< failed: the failure message; pruned: the reason
};

/// What record_import did.
struct ImportOutcome {
  std::int64_t run_id = 0;  ///< the run holding the new rows; 0 when nothing was new
  std::size_t measured = 0, failed = 0, pruned = 0;  ///< new rows of each kind
  std::size_t already = 0;  ///< entries found in the store as they are (skipped)
};

/// The import part of a Repository.
class ImportStore {
 public:
  explicit ImportStore(Store& store) : store_(&store) {}

  /// Records entries in one write transaction: a run (info; status "done" when it commits)
  /// and every entry that is not in the store yet. An entry already stored as it is (the
  /// same measured time on the dataset, the same failure with the same message, the config
  /// already pruned) is skipped, so importing a file twice is a no-op (nothing written, no
  /// run: run_id 0). Nothing is written when any entry fails: throws DbError "<store>:
  /// <where>: <problem>" for a config without board or key, a time that is not finite, an
  /// unknown failure class, or a config measured on the dataset already with another time;
  /// DbError for a store error (the transaction rolled back).
  ImportOutcome record_import(const RunInfo& info, const std::vector<ImportedEntry>& entries);

 private:
  Store* store_;
};

}  // namespace flowtune::db
