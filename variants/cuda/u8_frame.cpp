// The 8-bit and the strided float host APIs of the GPU frame solver (cuda::compute_flow_u8 and
// cuda::compute_flow_f32 in cuda_frame_solver.hpp): 8-bit grey frames copied through the pinned
// buffer and uploaded as bytes, widened to float on the device; strided float frames copied row
// by row into the pinned buffer; from there the float host API's frame.
#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/frame_solver.hpp"

namespace flowtune::cuda {

void CudaFrameSolver::compute_u8(const std::uint8_t* i0, const std::uint8_t* i1, int width,
                                 int height, std::ptrdiff_t stride, FlowField& flow) {
  if (!i0 || !i1 || width < 1 || height < 1 || stride < width)
    throw std::invalid_argument("compute_flow_u8: null frame, size " + std::to_string(width) + "x" +
                                std::to_string(height) + " < 1 or stride " +
                                std::to_string(stride) + " < width");
  select_size(width, height);
  const std::size_t frame_bytes =
      std::size_t(height - 1) * std::size_t(stride) + std::size_t(width);
  if (direct_host(i0, i1, frame_bytes, flow)) {
    direct_host_frame(i0, i1, stride, FrameInput::host_u8, flow);
    return;
  }
  FrameBuffers& b = cur().b;
  if (!options_.host_emulation && options_.host_copy_chunks > 1) {
    copies_->chunked_frame_u8(
        b, i0, i1, stride, flow, options_.host_copy_chunks, stream_,
        [&] { begin_frame(stream_, false); },
        [&] {
          stages_->widen_u8(stream_, b);
          stages_->normalise(stream_, b);
          enqueue_device_work(stream_, false);
        },
        [&] { end_frame(stream_); });
    return;
  }
  copies_->frames_in_u8(b, i0, i1, stride);
  run_frame(stream_, b.host_in.as(), nullptr, b.host_out.as(), false, FrameInput::host_u8);
  if (!options_.host_emulation)
    check_frame(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
  stage_out(flow);
}

void compute_flow_u8(FlowSolver& solver, const std::uint8_t* i0, const std::uint8_t* i1, int width,
                     int height, std::ptrdiff_t stride, FlowField& flow) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("compute_flow_u8: the solver is not a CUDA frame solver");
  s->compute_u8(i0, i1, width, height, stride, flow);
}

void CudaFrameSolver::compute_f32(const float* i0, const float* i1, int width, int height,
                                  std::ptrdiff_t stride, FlowField& flow) {
  const std::ptrdiff_t row = std::ptrdiff_t(width) * std::ptrdiff_t(sizeof(float));
  if (!i0 || !i1 || width < 1 || height < 1 || stride < row ||
      stride % std::ptrdiff_t(sizeof(float)) != 0)
    throw std::invalid_argument("compute_flow_f32: null frame, size " + std::to_string(width) +
                                "x" + std::to_string(height) + " < 1 or stride " +
                                std::to_string(stride) + " bytes < 4 width or not a multiple of 4");
  select_size(width, height);
  FrameBuffers& b = cur().b;
  copies_->frames_in_f32(b, i0, i1, stride);
  const std::size_t n = std::size_t(width) * std::size_t(height);
  float* in = b.host_in.as<float>();
  run_frame(stream_, in, in + n, b.host_out.as());
  if (!options_.host_emulation)
    check_frame(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
  stage_out(flow);
}

void compute_flow_f32(FlowSolver& solver, const float* i0, const float* i1, int width, int height,
                      std::ptrdiff_t stride, FlowField& flow) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("compute_flow_f32: the solver is not a CUDA frame solver");
  s->compute_f32(i0, i1, width, height, stride, flow);
}

}  // namespace flowtune::cuda
