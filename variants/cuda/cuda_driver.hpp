// The few CUDA driver API calls the schedules need (module load, function attributes,
// launch), obtained at run time through cudaGetDriverEntryPoint(ByVersion) (CUDA >= 11.3):
// no link-time dependency on libcuda, so the binaries start on machines without a driver.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "variants/cuda/launch_order.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {

/// True when a CUDA device is usable (cudaGetDeviceCount succeeds and returns > 0).
bool device_available();

/// "sm_XY" of the current device; throws std::runtime_error when there is none.
std::string current_device_arch();

/// True when launches on the current device can be LaunchOrder::programmatic: compute
/// capability 9.0 or newer, and a driver with cuLaunchKernelEx (CUDA 12.0; the build's
/// cuda.h must be 12.0 or newer too). False without a device.
bool programmatic_launch_supported();

/// Throws std::runtime_error naming `what` and the runtime's error string when e != success.
void check_cuda(cudaError_t e, const char* what);

/// A loaded cubin (cuModuleLoadData) in the runtime's primary context of the current device.
class LoadedModule {
 public:
  /// Loads cubin; throws std::runtime_error (no device, no driver, bad image).
  explicit LoadedModule(const std::string& cubin);
  ~LoadedModule();
  LoadedModule(const LoadedModule&) = delete;
  LoadedModule& operator=(const LoadedModule&) = delete;

  /// The entry kernel `name` (extern "C"); throws std::runtime_error if absent.
  CUfunction function(const std::string& name) const;
  /// Registers, static shared and local bytes of kernel `name` (cuFuncGetAttribute), with
  /// threads_per_block and dynamic_shared_bytes as given.
  KernelResources resources(const std::string& name, int threads_per_block,
                            int dynamic_shared_bytes) const;
  /// Allows `bytes` of dynamic shared memory (cuFuncSetAttribute, the opt-in above 48 KB).
  void set_max_dynamic_shared(const std::string& name, int bytes) const;
  /// cuLaunchKernel on stream; args as cuLaunchKernel's kernelParams. With
  /// LaunchOrder::programmatic and a driver that has it, cuLaunchKernelEx with the
  /// programmatic stream serialisation attribute instead (the kernel must wait for its
  /// predecessor itself: launch_order.hpp); callers ask for it only where
  /// programmatic_launch_supported() (checked once, not per launch). Throws on error.
  void launch(CUfunction f, dim3 grid, dim3 block, unsigned shared_bytes, cudaStream_t stream,
              void** args, LaunchOrder order = LaunchOrder::stream) const;
  /// cuLaunchCooperativeKernel on stream (a grid whose blocks are all resident, so the kernel
  /// may synchronise the grid); args as launch(). Throws on error, e.g. a grid larger than the
  /// resident blocks (CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE).
  void launch_cooperative(CUfunction f, dim3 grid, dim3 block, unsigned shared_bytes,
                          cudaStream_t stream, void** args) const;
  /// Blocks of `threads_per_block` threads and `dynamic_shared_bytes` that one SM holds at
  /// once (cuOccupancyMaxActiveBlocksPerMultiprocessor, the driver's occupancy calculator).
  int max_active_blocks_per_sm(CUfunction f, int threads_per_block, int dynamic_shared_bytes) const;

 private:
  CUmodule module_ = nullptr;
};

}  // namespace flowtune::cuda
