// How a kernel launch is ordered after the work before it on its stream.
#pragma once

namespace flowtune::cuda {

/// Order of a launch after the previous kernel on its stream.
enum class LaunchOrder {
  /// After everything before it on the stream has completed (cuLaunchKernel).
  stream,
  /// Programmatic dependent launch (CUDA Programming Guide, "Programmatic Dependent Launch
  /// and Synchronization"; compute capability 9.0 and newer, cuLaunchKernelEx with
  /// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION): the grid's blocks may be
  /// scheduled while the previous kernel finishes; the kernel itself waits for that kernel's
  /// completion before it touches memory (ft::wait_previous_grid_then_allow_next,
  /// kernels/cuda/tvl1_math.cuh), so only kernels that do so may be launched this way. In a
  /// CUDA Graph captured from the stream the edge becomes a programmatic one. Where the
  /// device or the driver lacks it (programmatic_launch_supported), the launch is `stream`.
  programmatic,
};

}  // namespace flowtune::cuda
