// The one config of a command that runs one (`tune flow`, `tune stream`): from the space
// options --workload/--variant/--precision/--tunable/--param, each with at most one value.
#pragma once

#include "cli/options.hpp"
#include "variants/config.hpp"

namespace flowtune::cli {

/// The one config of --workload/--variant/--precision/--tunable/--param (each at most one
/// value). A tunable not given takes its domain's default value (TunableDomain::
/// default_values, e.g. simd_fused's threads: all the CPUs), else the middle value of its
/// domain (tile 32x4 rather than the domain's first, 8x1), or the first valid combination
/// nearest to it; a parameter its default, or the workload's only value for the variant's
/// target (epsilon 0 on the CUDA variants, which have no stopping test). Throws UsageError
/// for several values of one option, an unknown variant, or no valid combination (the first
/// reason given).
Config config_from_options(const SpaceArgs& args);

}  // namespace flowtune::cli
