// Contract between the GPU frame pipeline (cuda_frame_solver) and the schedules of the TV-L1
// inner iterations (Romera et al. 2023, sec. 3.3): the device arrays of one warping and the
// interface that runs iterations on them.
#pragma once

#include <cuda_runtime_api.h>

#include <memory>
#include <string>
#include <vector>

#include "variants/config.hpp"
#include "variants/cuda/launch_order.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {

/// Element storage of the device fields. f32: grad, u, p1, p2 are float2 and rho_c float.
/// f16 (and precision "mixed", which stores f16 but computes in float): __half2 / __half.
enum class Storage { f32, f16 };

/// One warping's device arrays, width*height elements each, row-major, no pitch. The
/// pointers are device pointers owned by the caller; the schedule never frees them.
struct DeviceFields {
  int width = 0, height = 0;
  Storage storage = Storage::f32;
  void* grad = nullptr;   ///< (I1x, I1y) warped: (grad I1)(x + u0)   float2 | half2
  void* rho_c = nullptr;  ///< I1w - grad.u0 - I0                     float  | half
  void* u = nullptr;      ///< flow (u1, u2) in pixels                float2 | half2
  void* p1 = nullptr;     ///< (p11, p12), dual of u1                 float2 | half2
  void* p2 = nullptr;     ///< (p21, p22), dual of u2                 float2 | half2
};

/// Storage of a precision name: "f32" -> f32, "f16" / "mixed" -> f16. Throws
/// std::invalid_argument naming the precision otherwise.
Storage storage_of(const std::string& precision);

/// One variant's schedule of the inner iterations (paper sec. 3.3), built for one config.
class IterationSchedule {
 public:
  virtual ~IterationSchedule() = default;
  /// Runs `iterations` TV-L1 iterations (numerics contract, ARCHITECTURE.md) in place on f:
  /// u, p1, p2 are updated, grad and rho_c only read. Asynchronous on stream. f.storage must
  /// match the config's precision (throws std::invalid_argument otherwise). A schedule may
  /// use internal scratch buffers (ping-pong), allocated on first use for f's size.
  virtual void run(const DeviceFields& f, int iterations, cudaStream_t stream) = 0;
  /// Resources of every kernel of the loaded build (cuFuncGetAttribute + ptxas report).
  virtual std::vector<KernelResources> resources() const = 0;
  /// How run() orders its launches after the kernel before each on the stream (default
  /// LaunchOrder::stream; programmatic only where cuda::programmatic_launch_supported()).
  /// A schedule whose kernels do not wait for their predecessor themselves ignores it.
  void set_launch_order(LaunchOrder order) { launch_order_ = order; }

 protected:
  LaunchOrder launch_order_ = LaunchOrder::stream;
};

/// Builds (NVRTC, cached by hash of source + defines + arch) and loads config's kernels for
/// the current device. Throws std::runtime_error when there is no device, the variant is not
/// a CUDA one, or the build fails (message holds the NVRTC log).
std::unique_ptr<IterationSchedule> make_iteration_schedule(const Config& config);

}  // namespace flowtune::cuda
