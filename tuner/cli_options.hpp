// Options shared by several sub-commands (board, DB, space, algorithm parameters).
#pragma once

#include <boost/program_options.hpp>
#include <map>
#include <string>
#include <vector>

#include "tuner/space.hpp"

namespace flowtune::cli {

namespace po = boost::program_options;

/// Values of the space/algorithm options before they are turned into SpaceOptions.
struct SpaceArgs {
  std::vector<std::string> variants, precisions, tunables;  // tunables: "name=v1,v2,..."
  std::string iterations = "10,25,50,100";
  int n_scales = 3, n_warpings = 1;
  double zoom = 0.5, tau = 0.25, lambda = 0.15, theta = 0.3, epsilon = 0.0;
};

/// Adds --variant, --precision, --tunable, --iterations, --n-scales, --n-warpings, --zoom,
/// --tau, --lambda, --theta, --epsilon to desc, bound to args.
void add_space_options(po::options_description& desc, SpaceArgs& args);

/// Builds SpaceOptions; throws UsageError on a malformed list ("--tunable tile_x=8,x").
SpaceOptions to_space_options(const SpaceArgs& args);

/// "10,25,50" -> {10, 25, 50}; throws UsageError naming the option on anything else.
std::vector<int> parse_int_list(const std::string& option, const std::string& text);

/// Parses args against desc (positional: pos may be empty); throws UsageError on unknown
/// options, and returns true when --help was given (help text printed to stdout).
bool parse(const std::vector<std::string>& args, const po::options_description& desc,
           const po::positional_options_description& pos, po::variables_map& vm,
           const std::string& usage);

/// The board name to use: "auto" resolves to the profile of the present GPU (or host).
std::string resolve_board(const std::string& board);

}  // namespace flowtune::cli
