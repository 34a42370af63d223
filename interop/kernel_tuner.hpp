// Interop with Kernel Tuner (https://github.com/KernelTuner/kernel_tuner, checked against
// version 1.5.0): a flowtune recording written as a Kernel Tuner cache file, which
// `tune_kernel(..., cache=FILE, simulation_mode=True)` replays, or as a T4 results file; and
// the way back (import). Format sources, in kernel_tuner 1.5.0:
//   cache file: kernel_tuner/util.py (process_cache, read_cache, store_cache,
//     correct_open_cache), kernel_tuner/runners/simulation.py (SimulationRunner.run);
//     https://kerneltuner.github.io/kernel_tuner/stable/cache_files.html
//   T4: kernel_tuner/file_utils.py (get_t4_results), kernel_tuner/schema/T4/1.0.0/
//     results-schema.json (https://github.com/odgaard/TuningSchema, branch T4).
// The interop is described in interop/KERNEL_TUNER.md.
#pragma once

#include <cmath>
#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "db/repository.hpp"

namespace flowtune::interop {

/// What write_kernel_tuner_cache writes.
enum class KernelTunerFormat {
  cache,  ///< Kernel Tuner cache file (what simulation mode reads)
  t4      ///< T4 "tuning tools transparency" results file, schema 1.0.0
};

struct KernelTunerExportOptions {
  KernelTunerFormat format = KernelTunerFormat::cache;
  std::string device_name;  ///< cache "device_name"; "" = the board
  std::string kernel_name;  ///< cache "kernel_name"; "" = the workload
};

/// What an export wrote.
struct KernelTunerExportSummary {
  std::string dataset;                        ///< the dataset exported (resolved when "" was given)
  std::vector<std::string> tune_params_keys;  ///< the flattened dimensions, in key order
  std::size_t measured = 0, failed = 0, pruned = 0;  ///< entries of each kind
  double best_time_ms = std::nan("");  ///< the recording's optimum (NaN when nothing measured)
};

/// Writes the recording of one board and dataset for Kernel Tuner: every config measured on
/// the dataset (Repository::measured), every config that failed on it and was never measured
/// on it (Repository::failures, the last failure of each), and the board's pruned configs
/// of the same workload (Repository::pruned), one entry each.
///
/// The space is flattened (a union of variants is not a Cartesian product): the tune
/// parameters are, in this order, "variant", "precision", every tunable name that occurs
/// (sorted; 0 where a variant lacks it), every algorithm parameter that takes more than one
/// value (sorted) and "clock_mhz" when it varies. A cache key is Kernel Tuner's
/// `",".join(str(v) for v in values)`: strings as they are, integers in decimal, other
/// numbers as the shortest round-trip decimal (as Python's str of a float).
///
/// Entry contents: the tune parameters; "time" = flowtune's time_ms (median time per
/// execution, mean over the dataset's items, in ms), or for an entry that is not a valid
/// measurement the error name: "CompilationFailedConfig" (failure class compile),
/// "RuntimeFailedConfig" (launch, runtime, timeout, accuracy, environment) or
/// "InvalidConfig" (pruned); "compile_time" and "verification_time" 0, "benchmark_time" =
/// time_ms x repeats x items (ms, an estimate of the timed windows), "strategy_time" and
/// "framework_time" 0, "timestamp"; "energy_mj" (mJ per execution, absent where the board
/// has no sensor), every finite metric of the workload under its own name (e.g. "aepe",
/// "aae_deg"), and "flowtune_config" (db::config_json of the config) so that import is
/// exact; failed entries also carry "flowtune_failure" (the class) and "flowtune_message",
/// pruned ones "flowtune_pruned" (the reason). A top-level "flowtune" object records the
/// board, workload, dataset, each variant's tunables, the constant parameters and the clock
/// dropped by the flattening.
///
/// T4 (options.format == t4): {"schema_version": "1.0.0", "metadata": {"timeunit":
/// "milliseconds"}, "flowtune": {...}, "results": [...]} with one result per entry:
/// "configuration" (the tune parameters), "invalidity" (correct | compile | runtime |
/// timeout | correctness | constraints), "correctness" (0 for an accuracy failure, else 1),
/// "objectives" ["time"], "times" and "measurements" ({"name", "value", "unit"}: time in
/// ms, energy_mj in mJ, the metrics in their recorded units).
///
/// dataset "" = the board's most measured dataset. Throws std::invalid_argument when the
/// board has nothing measured or failed on the dataset, when the entries mix workloads, when
/// a tunable or parameter is named like another dimension or "time", or when two configs
/// flatten to the same key; db::DbError from the repository.
KernelTunerExportSummary write_kernel_tuner_cache(std::ostream& out, const db::Repository& repo,
                                                  const std::string& board,
                                                  const std::string& dataset,
                                                  const KernelTunerExportOptions& options = {});

/// One entry read back from a Kernel Tuner cache or T4 results file.
struct KernelTunerEntry {
  std::string where;  ///< the entry in messages: "entry '<key>'" (cache), "result <i>" (T4)
  std::string key;    ///< the cache key ("" for T4, which has none); else built like the export's
  std::map<std::string, std::string> coordinates;  ///< tune parameter -> value as in the key
  db::ConfigRow config;       ///< the flowtune config (board empty; key and label computed)
  bool exact = false;         ///< config taken from "flowtune_config", not rebuilt from coordinates
  std::string error;          ///< "" for a valid measurement, else Kernel Tuner's error name
  std::string failure_class;  ///< flowtune's failure class when recorded ("flowtune_failure")
  double time_ms = std::nan("");              ///< "time" in ms; NaN for an error entry
  std::map<std::string, double> observables;  ///< every other numeric field: energy_mj, aepe...
};

struct KernelTunerImport {
  std::string device_name, kernel_name;       ///< "" for T4
  std::vector<std::string> tune_params_keys;  ///< T4: the first entry's configuration order
  std::vector<KernelTunerEntry> entries;      ///< in file order
};

/// The longest time per execution an imported measurement may have: one day, in ms (a
/// longer one, e.g. 1.2e29, is no measurement of a kernel).
inline constexpr double kMaxImportedTimeMs = 86400.0e3;

struct KernelTunerImportOptions {
  /// workload of rebuilt configs when the file has no "flowtune" object; "" = kernel_name
  std::string workload;
  /// names that are tunables (not algorithm parameters) when the file does not say
  std::vector<std::string> tunable_names;
};

/// Reads a Kernel Tuner cache file (closed, or left open by an interrupted Kernel Tuner
/// run: trailing comma and missing closing braces, as util.correct_open_cache accepts) or a
/// T4 results file (told apart by its "results" array), including those written by
/// write_kernel_tuner_cache and those Kernel Tuner writes from a simulation of one.
///
/// Rebuilding a flowtune config: from "flowtune_config" when present (an entry field, or a
/// T4 measurement of that name, which Kernel Tuner's T4 export produces): exact. Otherwise
/// from the coordinates: "variant", "precision", "clock_mhz" by name; a coordinate is a
/// tunable when the file's "flowtune" object lists it for the variant (else when named in
/// options.tunable_names), and a parameter otherwise; the file's constant parameters and
/// clock are added. Limitations without the "flowtune" object: a tunable at 0 that the
/// variant lacks cannot be told from a real 0 (it is kept), dropped constants are lost, and
/// every non-tunable numeric coordinate becomes a parameter.
///
/// Every field is checked (types of the "flowtune" object, tune_params_keys, coordinates,
/// flowtune_config, flowtune_failure, T4 invalidity and measurements): a valid measurement
/// needs a "time" (T4: a "time" measurement) that is a number in [0, kMaxImportedTimeMs]; a
/// numeric observable must be finite and non-negative; a coordinate that is neither the
/// variant, the precision, the clock, a tunable (an integer) nor a parameter (a number) is an
/// error. Parsing is linear in the size of the text (detail::parse_ordered); a duplicate key
/// in an object is an error.
///
/// Throws std::invalid_argument for text that is not JSON, a file without "cache" or
/// "results", or a bad entry: "<where>, field '<field>': <problem>" (where as
/// KernelTunerEntry::where). Checks against a workload's schema (names, ranges) are the
/// caller's (`tune import`).
KernelTunerImport read_kernel_tuner_cache(std::istream& in,
                                          const KernelTunerImportOptions& options = {});

/// Called by read_kernel_tuner_entries for each entry, in file order: file is what the file
/// says besides its entries (device_name, kernel_name, tune_params_keys; entries empty).
using KernelTunerEntrySink =
    std::function<void(const KernelTunerImport& file, KernelTunerEntry&& entry)>;

/// read_kernel_tuner_cache entry by entry: each entry is read, checked and handed to sink as
/// soon as it is, so that memory holds the file's text and one small record per entry (not
/// a document of the whole file: 10^6 entries import in seconds). Returns the file without
/// its entries. Same checks and errors as read_kernel_tuner_cache, raised at the entry where
/// they occur (entries before it were handed to sink already); what sink throws goes through.
KernelTunerImport read_kernel_tuner_entries(std::istream& in,
                                            const KernelTunerImportOptions& options,
                                            const KernelTunerEntrySink& sink);

/// A Kernel Tuner cache or T4 results file whose entries are read one at a time, in any
/// order and from several threads at once: the constructor parses the file's text (as
/// read_kernel_tuner_cache: a cache left open is closed first) and checks what is not an
/// entry (the "flowtune" object, tune_params_keys, device and kernel names); entry(i) reads
/// and checks entry i alone. read_kernel_tuner_entries is entry(0), entry(1), ... in order;
/// `tune import` reads blocks of entries on every core (cli/import_rows.hpp).
class KernelTunerFile {
 public:
  /// Throws std::invalid_argument as read_kernel_tuner_cache does for the file as a whole
  /// (not JSON, neither "cache" nor "results", a bad "flowtune" object or header field).
  KernelTunerFile(std::istream& in, const KernelTunerImportOptions& options);
  ~KernelTunerFile();
  KernelTunerFile(KernelTunerFile&&) noexcept;
  KernelTunerFile& operator=(KernelTunerFile&&) noexcept;

  /// What the file says besides its entries (entries empty). T4: tune_params_keys is the
  /// configuration order of the first result with a non-empty configuration.
  const KernelTunerImport& header() const;
  /// The number of entries ("cache" members or "results" elements), valid or not.
  std::size_t size() const;
  /// Entry i (< size()) read and checked: throws std::invalid_argument exactly as
  /// read_kernel_tuner_entries does when it reaches that entry. Safe to call concurrently.
  KernelTunerEntry entry(std::size_t i) const;

 private:
  struct Parsed;
  std::unique_ptr<const Parsed> parsed_;
};

/// Kernel Tuner's error name for a flowtune failure class: "compile" ->
/// "CompilationFailedConfig", every other class -> "RuntimeFailedConfig".
std::string kernel_tuner_error(const std::string& failure_class);

}  // namespace flowtune::interop
