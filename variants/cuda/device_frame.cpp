// The device-pointer API of the GPU frame solver (cuda::compute_flow_device in
// cuda_frame_solver.hpp): a frame whose inputs and flow stay in the caller's device memory,
// enqueued on the caller's stream.
#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/frame_solver.hpp"

namespace flowtune::cuda {

void CudaFrameSolver::compute_device(const float* i0, const float* i1, int width, int height,
                                     float* flow, cudaStream_t stream) {
  if (options_.host_emulation)
    throw std::runtime_error(
        "compute_flow_device: a solver in host emulation has no device frames");
  if (!i0 || !i1 || !flow || width < 1 || height < 1)
    throw std::invalid_argument("compute_flow_device: null device pointer or size " +
                                std::to_string(width) + "x" + std::to_string(height) + " < 1");
  select_size(width, height);
  run_frame(stream, i0, i1, flow, false, FrameInput::device_float);
}

void compute_flow_device(FlowSolver& solver, const float* i0, const float* i1, int width,
                         int height, float* flow, cudaStream_t stream) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("compute_flow_device: the solver is not a CUDA frame solver");
  s->compute_device(i0, i1, width, height, flow, stream);
}

}  // namespace flowtune::cuda
