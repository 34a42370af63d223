// The IterationSchedule implementations the TV-L1 CUDA schemes build from their make_schedule
// (variants/cuda/iteration_schedules.cpp): one per kind of launch sequence.
#pragma once

#include <memory>

#include "variants/config.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Two kernels per iteration, in place: ft_<scheme>_u then ft_<scheme>_p (tvl1_global.cuh).
/// scheme supplies the name (kernels, device source), validity rule and launch shape; the
/// config must be valid for it (throws std::invalid_argument otherwise). Throws
/// std::runtime_error when there is no device or the build fails.
std::unique_ptr<IterationSchedule> make_two_kernel_schedule(const CudaVariant& scheme,
                                                            const Config& config);

/// One fused kernel ft_<scheme> per iteration on a (block_x - 2) x (block_y - 2) output tile,
/// ping-pong between the caller's (u, p1, p2) and a scratch set (tvl1_shared_fusion.cuh).
/// Errors as make_two_kernel_schedule.
std::unique_ptr<IterationSchedule> make_fused_schedule(const CudaVariant& scheme,
                                                       const Config& config);

/// Where the pipelined kernels keep their ring of lines (tvl1_pipeline.cuh).
enum class RingMemory {
  shared,  ///< dynamic shared memory (opt-in above 48 KiB when the tunable optin is 1)
  global   ///< one ring per block in a device scratch
};

/// Launches of ft_<scheme> running `depth` iterations each (the last one the remainder),
/// ping-pong as make_fused_schedule, with each block's ring in `ring` memory. Errors as
/// make_two_kernel_schedule; also std::invalid_argument when a shared ring needs more than
/// 48 KiB without optin=1.
std::unique_ptr<IterationSchedule> make_pipeline_schedule(const CudaVariant& scheme,
                                                          const Config& config, RingMemory ring);

}  // namespace flowtune::cuda
