// `tune space`'s description of a generated space: each parameter dimension as its values or
// ranges with its count, the fixed parameters, and the honest size (the product of the
// discretised counts).
#pragma once

#include <string>

#include "tuner/space.hpp"

namespace flowtune {

/// Lines describing space's parameter dimensions (those of two or more values), e.g.
///   "  zoom 0.50..0.90 step 0.05 (9 values)"
/// then the fixed parameters (fixed_params_text) and
///   "parameter points: 9 x 7 = 63 (the product of the dimensions' counts, each range
///    enumerated at its resolution); configs: 63 x 12 variant, precision, clock and tunable
///    combinations = 756"
/// Ends with a newline; the header line names the workload.
std::string space_dimensions_text(const Workload& workload, const ConfigSpace& space);

}  // namespace flowtune
