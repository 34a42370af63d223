// The design space: every config of a board, enumerated as a Cartesian product.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "variants/config.hpp"

namespace flowtune {

/// What to enumerate. Empty lists mean "all that the variant/board offers".
struct SpaceOptions {
  std::vector<std::string> variants;            ///< variant names; empty = all of the board's target
  std::vector<std::string> precisions;          ///< empty = each variant's precisions
  std::map<std::string, std::vector<int>> tunable_values;  ///< overrides a tunable's value list
  std::vector<int> iterations = {10, 25, 50, 100};          ///< inner iterations per warping
  std::vector<int> clocks_mhz;                  ///< empty = clock not explored (clock_mhz 0)
  Tvl1Params params;                            ///< the other algorithm parameters
};

/// Enumerates variant x precision x tunables x iterations x clock for board, in a stable
/// order (variants as registered, tunables in name order). Only variants whose target
/// matches the board's ("cpu" for host boards, "cuda" for GPU boards) are included unless
/// named explicitly. Throws std::invalid_argument for an unknown variant, precision or
/// tunable name in options (the message lists the valid ones).
std::vector<Config> enumerate_space(const Board& board, const SpaceOptions& options);

}  // namespace flowtune
