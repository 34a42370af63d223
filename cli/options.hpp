// The options of the sub-commands. Options that several sub-commands take are declared once,
// as option groups (Boost.ProgramOptions options_description, cli/options.cpp), each bound
// to an Args struct or to the engine's options, and added to every sub-command that takes
// them:
//   store_options      --db, --storage            tune, search, export, report, import,
//                                                  replay, status, worker
//   board_options      --board                    tune, space, search, report, import,
//                                                  replay, run
//   input_options      --data, --sequences/--items, --max-pixels (any subset)
//                                                  tune (all), search (--data), run
//                                                  (--max-pixels)
//   space_options      --workload, --variant, --precision, --tunable, --param,
//                      --no-default-dimensions     tune, space, search, run
//   measure_options    --min-rounds, --max-rounds, --min-window-ms, --ci, --max-window-ms
//                                                  tune
//   selection_options  --dataset, --max (also --max-METRIC, --max-ms, --max-mj)
//                                                  export, report
// Also here: the grammars of option values (integer lists, --param lists and ranges,
// budgets, constraints) and the parsing of a sub-command's arguments. Nothing in this file
// looks a workload or a board up (cli/resolve_options.cpp does), so the fuzz harness
// tests/fuzz/fuzz_cli.cpp builds cli/options.cpp alone.
#pragma once

#include <boost/program_options.hpp>
#include <cstddef>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "select/objectives.hpp"
#include "tuner/measure.hpp"
#include "tuner/space.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {

namespace po = boost::program_options;

/// A sub-command's options_description, titled caption (e.g. "export options"), holding
/// --help (-h); the sub-command adds its own options and the groups it takes.
po::options_description command_options(const std::string& caption);

/// The store of a sub-command: --db PATH and --storage PATH name the same SQLite database.
struct StoreArgs {
  std::string db;       ///< --db; its value when the group is made is the default ("" = none)
  std::string storage;  ///< --storage
};

/// --db and --storage, bound to args. db_help says what the sub-command does with the store
/// (e.g. "SQLite database (created if absent)"); args.db, when not empty, is --db's default.
po::options_description store_options(StoreArgs& args, const std::string& db_help);

/// --store-retry-s, bound to seconds (default db::kDefaultStoreRetryS): how long an operation
/// on a locked or unreachable store is retried before the command stops (tune, tune worker).
po::options_description store_retry_options(double& seconds);
/// Checks --store-retry-s (>= 0, finite; UsageError otherwise) and makes it the limit of
/// every store of this process (db::set_store_retry_limit_s).
void apply_store_retry(double seconds);

/// --kernel-store, bound to mode (default "auto"): whether compiled kernels are shared through
/// the store (tuner/kernel_store.hpp; tune, tune worker).
po::options_description kernel_store_options(std::string& mode);
/// Checks --kernel-store (auto | on | off; UsageError otherwise).
void check_kernel_store(const std::string& mode);

/// The store that --db or --storage names. Throws UsageError when both are given and differ,
/// "COMMAND: --storage or --db is required" when neither is given and --db has no default, and
/// "COMMAND: --storage: <problem>" for a value that is neither a file path nor a valid
/// postgresql:// URL (db::storage_problem: empty, "postgresql:x", "mysql://x").
std::string store_path(const StoreArgs& args, const po::variables_map& vm,
                       const std::string& command);

/// The help of --board where the sub-command takes one board profile.
inline constexpr const char* kBoardHelp = "board profile name, a .toml path, or auto";

/// --board, bound to board; board, when not empty, is its default. help says what the board
/// is to the sub-command. resolve_board gives the profile name of the value.
po::options_description board_options(std::string& board, const std::string& help = kBoardHelp);

/// Values of the input options before they become InputOptions.
struct InputArgs {
  std::string data_dir;            ///< --data
  std::string items;               ///< --sequences / --items: comma-separated
  std::size_t max_pixels = 0;      ///< --max-pixels
  std::string pairs;               ///< --pairs
  int stride = 1;                  ///< --stride
  int max_frames = 0;              ///< --max-frames
  bool reference_metrics = false;  ///< --reference-metrics
  std::string resolution;          ///< --resolution WxH ("" = each pair's own size)
  /// data_dir, the items split at commas, max_pixels and the footage options (UsageError for
  /// --stride < 1, --max-frames < 0 or a --resolution that is not WxH).
  InputOptions to_input_options() const;
};

/// Which of the input options a sub-command takes (input_options' parts, or-ed).
enum InputParts : unsigned {
  kInputData = 1,       ///< --data
  kInputItems = 2,      ///< --sequences and --items
  kInputMaxPixels = 4,  ///< --max-pixels
  kInputFootage = 8,    ///< --pairs, --stride, --max-frames, --reference-metrics
  kInputAll = 15,
};

/// The input options of parts (--data, --sequences/--items, --max-pixels, the footage
/// options), bound to args.
po::options_description input_options(InputArgs& args, unsigned parts = kInputAll);

/// Values of the space options before they are turned into SpaceOptions.
struct SpaceArgs {
  std::string workload = kDefaultWorkload;
  std::vector<std::string> variants, precisions;
  std::vector<std::string> tunables;  ///< "name=v1,v2,..."
  std::vector<std::string> params;    ///< "name=v1,v2,..." or "name=lo:hi:log|lin:count"
  bool no_default_dimensions = false;
};

/// --workload, --variant, --precision, --tunable, --param, --no-default-dimensions, bound
/// to args.
po::options_description space_options(SpaceArgs& args);

/// --min-rounds, --max-rounds, --min-window-ms, --ci, --max-window-ms, bound to measure
/// (its values are the defaults). check_measure_options validates them after parsing.
po::options_description measure_options(MeasureOptions& measure);

/// Throws UsageError naming the option when a measure option is out of range (negative
/// rounds or windows, a non-finite window).
void check_measure_options(const MeasureOptions& measure);

/// --accuracy-from PATH and --accuracy-tolerance T (`tune`, `tune replay`): throws
/// UsageError naming the option when PATH is a file path that does not exist (a PostgreSQL URL
/// is checked when opened) or T is negative or not finite. An empty PATH is not checked.
void check_accuracy_source(const std::string& option, const std::string& path, double tolerance);

/// Values of the selection options: the config selected from the store is the best of a
/// dataset under constraints.
struct SelectionArgs {
  std::string dataset;                 ///< --dataset ("" = the most measured)
  std::vector<std::string> max_texts;  ///< --max NAME=VALUE, repeatable
  /// The --max constraints; throws UsageError for a malformed one.
  std::vector<Constraint> constraints() const;
};

/// --dataset and --max, bound to args. Sub-commands taking them pass their arguments
/// through expand_max_options first (for --max-METRIC).
po::options_description selection_options(SelectionArgs& args);

/// "--max-METRIC 0.25" / "--max-METRIC=0.25" -> "--max METRIC=0.25" (any figure of the
/// workload; dashes in METRIC read as underscores: --max-ref-aepe is ref_aepe); --max-ms and
/// --max-mj are time_ms and energy_mj. Options that desc declares
/// (e.g. --max-evals), and --max-pixels, are left as they are. Throws UsageError for a --max-METRIC
/// without value.
std::vector<std::string> expand_max_options(const std::vector<std::string>& args,
                                            const po::options_description& desc);

/// "time_ms=5" -> {time_ms, 5}; throws UsageError naming --max on anything else.
std::vector<Constraint> parse_constraints(const std::vector<std::string>& texts);

/// "10,25,50" -> {10, 25, 50}; throws UsageError naming the option on anything else.
std::vector<int> parse_int_list(const std::string& option, const std::string& text);

/// "a,b,c" -> {a, b, c} (empty items kept; "" -> {}).
std::vector<std::string> split_list(const std::string& text);

/// The values of one --param: "0.1,0.2" (a list), "0.05:0.5:log:8" (8 values spaced
/// geometrically from 0.05 to 0.5, ends included) or "1:9:lin:5" (arithmetic). For an integer
/// parameter a list value must be whole; range values are rounded and de-duplicated. Throws
/// UsageError naming the parameter.
std::vector<double> parse_param_values(const std::string& name, const std::string& text,
                                       bool integer);

/// The values of one --param or --search of parameter `spec`: parse_param_values for a real
/// or integer parameter; for a categorical one a list of choice names or indices
/// ("bicubic,bilinear" -> {0, 1}). Every value is checked against spec (invalid_reason).
/// Throws UsageError naming `option` and the parameter.
std::vector<double> parse_spec_values(const ParamSpec& spec, const std::string& text,
                                      const std::string& option);

/// The dimension of one --param of parameter `spec`: values and ranges
/// (parse_param_dimension, workloads/param_dimension.hpp: "0.5:0.9:0.05", "0,3:8",
/// "5:100:log:10"). Throws UsageError naming `option`, the parameter and the problem.
ParamDimension parse_dimension_option(const ParamSpec& spec, const std::string& text,
                                      const std::string& option);

/// An evaluation budget: a count, or a fraction of the space's unpruned points.
struct Budget {
  std::size_t evaluations = 0;
  double fraction = 0;  ///< > 0 when given as a percentage
};

/// "10%" -> fraction 0.1, "250" -> 250 evaluations; throws UsageError naming the option for
/// anything else (0, negative, over 100%, trailing text).
Budget parse_budget(const std::string& option, const std::string& text);

/// A wall-clock duration in seconds: "90" or "90s", "10m", "1.5h", or terms in the order
/// h, m, s ("1h30m", "8m40s"); "0" = none. Throws UsageError naming the option for anything
/// else (negative values, repeated or misordered units, a unit missing after a term).
double parse_duration_s(const std::string& option, const std::string& text);

/// Parses args against desc (positional: pos may be empty); throws UsageError on unknown
/// options, and returns true when --help was given (help text printed to stdout).
bool parse(const std::vector<std::string>& args, const po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm,
           const std::string& usage);

/// Builds SpaceOptions; throws UsageError on a malformed list ("--tunable tile_x=8,x"), an
/// unknown workload or parameter, or a value outside a parameter's range (with the range).
/// (cli/resolve_options.cpp)
SpaceOptions to_space_options(const SpaceArgs& args);

/// The board name to use: "auto" resolves to the profile of the present GPU (or host), an
/// alias (boards/board.hpp resolve_board_alias, e.g. "agx") to its profile's name
/// ("agx-xavier"); anything else is returned as it is. Prints on `note` what it resolved: the
/// device --board auto found and the profile it chose (board_detection_note), or the alias
/// note naming the profile and its namesakes (board_alias_note).
/// (cli/resolve_options.cpp)
std::string resolve_board(const std::string& board, std::ostream& note = std::cerr);

}  // namespace flowtune::cli
