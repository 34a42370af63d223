// The host API's frame straight from and into the caller's memory (see frame_solver.hpp's
// direct_host): page-locked frames and flow move by DMA, with no copy through the solver's
// pinned buffers; FrameOptions::host_copy_chunks 0 takes this way for pageable memory too
// (the driver then stages the copies itself).
#include <cstdint>

#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/frame_solver.hpp"
#include "variants/cuda/page_lock.hpp"

namespace flowtune::cuda {

std::shared_ptr<void> CudaFrameSolver::page_lock(const void* p, std::size_t bytes) {
  if (options_.host_emulation) return nullptr;
  return lock_pages(p, bytes);
}

bool CudaFrameSolver::direct_host(const void* i0, const void* i1, std::size_t frame_bytes,
                                  FlowField& flow) {
  const FrameBuffers& b = cur().b;
  const std::size_t n = std::size_t(b.width) * b.height;
  flow.width = b.width;
  flow.height = b.height;
  flow.u.resize(n);  // keeps the storage (and its page lock) when it has the size
  flow.v.resize(n);
  if (options_.host_emulation) return false;
  if (options_.host_copy_chunks == 0) return true;
  const std::size_t out_bytes = n * sizeof(float);
  return is_page_locked(i0, frame_bytes) && is_page_locked(i1, frame_bytes) &&
         is_page_locked(flow.u.data(), out_bytes) && is_page_locked(flow.v.data(), out_bytes);
}

void CudaFrameSolver::direct_host_frame(const void* i0, const void* i1, std::ptrdiff_t stride,
                                        FrameInput input, FlowField& flow) {
  FrameBuffers& b = cur().b;
  const std::size_t w = std::size_t(b.width), h = std::size_t(b.height), n = w * h;
  begin_frame(stream_, false);
  if (input == FrameInput::host_u8) {
    auto* raw = b.raw_u8.as<std::uint8_t>();
    check_frame(
        cudaMemcpy2DAsync(raw, w, i0, std::size_t(stride), w, h, cudaMemcpyHostToDevice, stream_),
        "cudaMemcpy2DAsync (upload, frame 0)");
    check_frame(cudaMemcpy2DAsync(raw + n, w, i1, std::size_t(stride), w, h, cudaMemcpyHostToDevice,
                                  stream_),
                "cudaMemcpy2DAsync (upload, frame 1)");
    stages_->widen_u8(stream_, b);
  } else {
    float* raw = b.raw.as<float>();
    check_frame(cudaMemcpyAsync(raw, i0, n * sizeof(float), cudaMemcpyHostToDevice, stream_),
                "cudaMemcpyAsync (upload, frame 0)");
    check_frame(cudaMemcpyAsync(raw + n, i1, n * sizeof(float), cudaMemcpyHostToDevice, stream_),
                "cudaMemcpyAsync (upload, frame 1)");
  }
  stages_->normalise(stream_, b);
  enqueue_device_work(stream_, false);
  const float* out = b.flow.as<float>();
  check_frame(
      cudaMemcpyAsync(flow.u.data(), out, n * sizeof(float), cudaMemcpyDeviceToHost, stream_),
      "cudaMemcpyAsync (download, u)");
  check_frame(
      cudaMemcpyAsync(flow.v.data(), out + n, n * sizeof(float), cudaMemcpyDeviceToHost, stream_),
      "cudaMemcpyAsync (download, v)");
  end_frame(stream_);
  check_frame(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
}

}  // namespace flowtune::cuda
