// The device sources kernels/cuda/*.cuh, embedded at build time (CMake generates the
// definition from the files), so NVRTC gets them without the repository at run time.
#pragma once

#include <map>
#include <string>

namespace flowtune::cuda {

/// File name (e.g. "tvl1_math.cuh") -> file text of every kernels/cuda/*.cuh.
const std::map<std::string, std::string>& embedded_tvl1_sources();

}  // namespace flowtune::cuda
