// The run header's list of the parameters a space fixes at one value: what `tune` computes
// with, beside the dimensions it varies.
#pragma once

#include <string>

#include "workloads/workload.hpp"

namespace flowtune {

/// "fixed parameters: epsilon=0, lambda=0.15, ..." : every parameter of `dims` with a single
/// value other than its absent value (ParamSpec::absent_value; a parameter of the schema's
/// first version has none, so its value is always listed), in name order, categorical values
/// by name. "" when there is none. Parameters missing from dims are skipped.
std::string fixed_params_text(const Workload& workload, const ParamDimensions& dims);

}  // namespace flowtune
