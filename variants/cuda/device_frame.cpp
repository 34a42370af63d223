// The device-pointer API of the GPU frame solver (cuda::compute_flow_device in
// cuda_frame_solver.hpp): a frame whose inputs and flow stay in the caller's device memory,
// enqueued on the caller's stream.
#include <cstddef>
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

void CudaFrameSolver::compute_device_pitched(const float* i0, std::size_t pitch0, const float* i1,
                                             std::size_t pitch1, int width, int height, float* flow,
                                             std::size_t flow_pitch, cudaStream_t stream) {
  if (options_.host_emulation)
    throw std::runtime_error(
        "compute_flow_device_pitched: a solver in host emulation has no device frames");
  if (!i0 || !i1 || !flow || width < 1 || height < 1)
    throw std::invalid_argument("compute_flow_device_pitched: null device pointer or size " +
                                std::to_string(width) + "x" + std::to_string(height) + " < 1");
  const std::size_t row = std::size_t(width) * sizeof(float);
  if (pitch0 < row || pitch1 < row || flow_pitch < 2 * row || pitch0 % sizeof(float) != 0 ||
      pitch1 % sizeof(float) != 0 || flow_pitch % sizeof(float) != 0)
    throw std::invalid_argument("compute_flow_device_pitched: pitches " + std::to_string(pitch0) +
                                ", " + std::to_string(pitch1) + " (frames) and " +
                                std::to_string(flow_pitch) +
                                " (flow) bytes must be multiples of 4 and at least " +
                                std::to_string(row) + ", " + std::to_string(row) + " and " +
                                std::to_string(2 * row) + " for width " + std::to_string(width));
  select_size(width, height);
  SizeEntry& e = cur();
  begin_frame(stream, false);
  stages_->upload_pitched(stream, e.b, i0, pitch0, i1, pitch1);
  enqueue_device_work(stream, false);
  stages_->download_interleaved(stream, e.b, flow, flow_pitch);
  end_frame(stream);
}

void compute_flow_device_pitched(FlowSolver& solver, const float* i0, std::size_t pitch0,
                                 const float* i1, std::size_t pitch1, int width, int height,
                                 float* flow, std::size_t flow_pitch, cudaStream_t stream) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s)
    throw std::invalid_argument(
        "compute_flow_device_pitched: the solver is not a CUDA frame solver");
  s->compute_device_pitched(i0, pitch0, i1, pitch1, width, height, flow, flow_pitch, stream);
}

void compute_flow_device(FlowSolver& solver, const float* i0, const float* i1, int width,
                         int height, float* flow, cudaStream_t stream) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("compute_flow_device: the solver is not a CUDA frame solver");
  s->compute_device(i0, i1, width, height, flow, stream);
}

}  // namespace flowtune::cuda
