// The 8-bit host API of the GPU frame solver (cuda::compute_flow_u8 in cuda_frame_solver.hpp):
// 8-bit grey frames copied through the pinned buffer and uploaded as bytes, widened to float on
// the device; from there the float host API's frame.
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

}  // namespace flowtune::cuda
