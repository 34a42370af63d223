// `tune import`'s reading of a file into rows: every entry checked against the workload's
// schema and turned into the row to store, on several threads, errors in file order.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <vector>

#include "db/import_store.hpp"
#include "interop/kernel_tuner.hpp"

namespace flowtune {
class Workload;
}

namespace flowtune::cli {

/// What import_rows read.
struct ImportRows {
  std::vector<db::ImportedEntry> entries;  ///< in file order, each with board, key, dataset
  const Workload* workload = nullptr;      ///< the file's workload
  std::string board, dataset;              ///< resolved
  /// Parameters the file lacks that took their absent values (ParamSpec::absent_value, e.g.
  /// median_window 0), or their defaults where they have none.
  std::set<std::string> defaulted;
};

/// Reads every entry of f (the file named file) into a row to store: the entry read and
/// checked (interop::KernelTunerFile::entry), then checked against its workload's schema
/// (a variant of the workload, one of its precisions, exactly its tunables with values of
/// their domains, known parameters in range, the workload's rules except for pruned entries;
/// rebuilt configs take the absent values, else the defaults, of the parameters the file
/// lacks), with its key, board
/// and dataset. The first entry settles the dataset (dataset "" = "kernel_tuner:<device
/// name>", or "kernel_tuner:<file stem>" for a file without one), resolves board and finds
/// the workload (its config's). The other entries are read in blocks of block entries by
/// threads threads (0 = std::thread::hardware_concurrency()).
///
/// Throws std::runtime_error "<file>: <where>, field '<f>': <problem>" for the first bad
/// entry in file order, whatever the threads (the same error as reading the entries one by
/// one): a bad entry, a config outside the schema, or a measured config that an earlier
/// entry measured already ("... the same config as <where>"); "<file>: no entry to import"
/// for a file without entries.
ImportRows import_rows(const interop::KernelTunerFile& f, const std::string& file,
                       const std::string& board, const std::string& dataset, unsigned threads = 0,
                       std::size_t block = 256);

}  // namespace flowtune::cli
