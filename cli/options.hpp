// Options shared by several sub-commands (board, workload, space, parameters).
#pragma once

#include <boost/program_options.hpp>
#include <map>
#include <string>
#include <vector>

#include "tuner/space.hpp"

namespace flowtune::cli {

namespace po = boost::program_options;

/// Values of the space options before they are turned into SpaceOptions.
struct SpaceArgs {
  std::string workload = kDefaultWorkload;
  std::vector<std::string> variants, precisions;
  std::vector<std::string> tunables;  ///< "name=v1,v2,..."
  std::vector<std::string> params;    ///< "name=v1,v2,..." or "name=lo:hi:log|lin:count"
  bool no_default_dimensions = false;
};

/// Adds --workload, --variant, --precision, --tunable, --param, --no-default-dimensions to
/// desc, bound to args.
void add_space_options(po::options_description& desc, SpaceArgs& args);

/// Builds SpaceOptions; throws UsageError on a malformed list ("--tunable tile_x=8,x"), an
/// unknown workload or parameter, or a value outside a parameter's range (with the range).
SpaceOptions to_space_options(const SpaceArgs& args);

/// "10,25,50" -> {10, 25, 50}; throws UsageError naming the option on anything else.
std::vector<int> parse_int_list(const std::string& option, const std::string& text);

/// The values of one --param: "0.1,0.2" (a list), "0.05:0.5:log:8" (8 values spaced
/// geometrically from 0.05 to 0.5, ends included) or "1:9:lin:5" (arithmetic). For an integer
/// parameter a list value must be whole; range values are rounded and de-duplicated. Throws
/// UsageError naming the parameter.
std::vector<double> parse_param_values(const std::string& name, const std::string& text,
                                       bool integer);

/// An evaluation budget: a count, or a fraction of the space's unpruned points.
struct Budget {
  std::size_t evaluations = 0;
  double fraction = 0;  ///< > 0 when given as a percentage
};

/// "10%" -> fraction 0.1, "250" -> 250 evaluations; throws UsageError naming the option for
/// anything else (0, negative, over 100%, trailing text).
Budget parse_budget(const std::string& option, const std::string& text);

/// Parses args against desc (positional: pos may be empty); throws UsageError on unknown
/// options, and returns true when --help was given (help text printed to stdout).
bool parse(const std::vector<std::string>& args, const po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm,
           const std::string& usage);

/// The board name to use: "auto" resolves to the profile of the present GPU (or host).
std::string resolve_board(const std::string& board);

}  // namespace flowtune::cli
