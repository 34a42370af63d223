// The design space: every config of a workload on a board, enumerated as a Cartesian
// product of variants, precisions, parameter dimensions, clocks and tunables.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "variants/config.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// What to enumerate. Empty lists mean "all that the workload/variant/board offers".
struct SpaceOptions {
  std::string workload = kDefaultWorkload;
  std::vector<std::string> variants;    ///< variant names; empty = all of the board's target
  std::vector<std::string> precisions;  ///< empty = each variant's precisions
  std::map<std::string, std::vector<int>> tunable_values;   ///< overrides a tunable's value list
  std::map<std::string, std::vector<double>> param_values;  ///< a parameter's values (a dimension)
  bool default_dimensions = true;  ///< start from the workload's default dimensions for the board
  std::vector<int> clocks_mhz;     ///< empty = clock not explored (clock_mhz 0)
};

/// The value list of every parameter of the workload for this space: its default, replaced
/// by the workload's default dimension for the board's target when options.default_dimensions,
/// replaced by options.param_values. Throws std::invalid_argument for an unknown parameter
/// (the message lists the valid ones) or a value outside its range (with the range).
ParamDimensions parameter_dimensions(const Workload& workload, const Board& board,
                                     const SpaceOptions& options);

/// Every combination of the dimensions' values, in name order (the last name varies
/// fastest); one empty point for no dimension.
std::vector<ParamValues> parameter_points(const ParamDimensions& dims);

/// Enumerates variant x precision x parameters x clock x tunables for board, in a stable
/// order (variants as registered, parameters and tunables in name order). Only the
/// workload's variants whose target matches the board's ("cpu" for host boards, "cuda" for
/// GPU boards) are included unless named explicitly. Throws std::invalid_argument for an
/// unknown workload, variant (or one of another workload), precision, tunable or parameter.
std::vector<Config> enumerate_space(const Board& board, const SpaceOptions& options);

}  // namespace flowtune
