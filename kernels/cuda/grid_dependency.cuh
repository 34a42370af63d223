// The wait of programmatic dependent launch, called first by every kernel entry that may be
// launched with it: the TV-L1 kernels (NVRTC, tvl1_math.cuh includes this) and the frame stages'
// kernels (nvcc, kernels/cuda/frame/). Self-contained, so that both compilers take it.
#pragma once

namespace ft {

/// Programmatic dependent launch (CUDA Programming Guide, "Programmatic Dependent Launch and
/// Synchronization"; PTX ISA 7.8 griddepcontrol, sm_90 and newer), called first by every
/// kernel entry: waits until the grid launched before this one on the stream has completed
/// and its memory is visible (a no-op when this grid was launched without the programmatic
/// attribute, and below sm_90 where the instruction does not exist), then lets the next grid
/// on the stream start its blocks, which wait the same way. So a kernel launched with
/// CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION (variants/cuda/cuda_driver.hpp,
/// LaunchOrder::programmatic; the frame kernels: kernels/cuda/frame/frame_launch.cuh) reads
/// and writes exactly what it would in stream order; what overlaps is the next launch's
/// scheduling with this grid's tail.
__device__ __forceinline__ void wait_previous_grid_then_allow_next() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

/// The wait alone, without letting the next grid start early: for kernels of several waves
/// (the frame stages' kernels, kernels/cuda/frame/), whose later waves would otherwise share
/// the SMs with the next grid's waiting blocks. The next grid then starts when this one ends.
__device__ __forceinline__ void wait_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

}  // namespace ft
