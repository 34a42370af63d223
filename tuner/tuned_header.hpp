// Reads back a tuned header written by `tune export` (reports/export_header.hpp).
#pragma once

#include <string>

#include "variants/config.hpp"

namespace flowtune {

/// Parses the constexpr values (kVariant, kPrecision, kIterations, kNScales, kNWarpings,
/// kZoom, kTau, kLambda, kTheta, kEpsilon, kClockMhz) and the FLOWTUNE_TUNED_<TUNABLE>
/// macros (tunables, lower-cased) of a tuned header into a Config. Throws
/// std::runtime_error naming the file when it cannot be read or lacks kVariant/kPrecision.
Config read_tuned_header(const std::string& path);

}  // namespace flowtune
