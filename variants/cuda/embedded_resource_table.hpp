// The committed table variants/cuda/kernel_resources.csv, embedded at build time (CMake
// generates the definition from the file), so `tune` reads it without the repository.
#pragma once

#include <string>

namespace flowtune::cuda {

/// The text of variants/cuda/kernel_resources.csv as it was at build time.
const std::string& embedded_resource_table_csv();

}  // namespace flowtune::cuda
