// The host side of the host API's frames (see pinned_frame_copies.hpp).
#include "variants/cuda/pinned_frame_copies.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <thread>

namespace flowtune::cuda {
namespace {

/// `flow` made b's size (its vectors keep their storage when they already have it).
void size_flow(const FrameBuffers& b, FlowField& flow) {
  const std::size_t n = std::size_t(b.width) * b.height;
  flow.width = b.width;
  flow.height = b.height;
  flow.u.resize(n);
  flow.v.resize(n);
}

/// The copies packing two 8-bit frames of b's size (rows `stride` bytes apart) into dst: one
/// job per frame when the rows are contiguous, else one per row.
std::vector<HostCopyJob> u8_jobs(const FrameBuffers& b, const std::uint8_t* i0,
                                 const std::uint8_t* i1, std::ptrdiff_t stride, char* dst) {
  const std::size_t w = std::size_t(b.width), n = w * std::size_t(b.height);
  if (stride == std::ptrdiff_t(w)) return {{dst, i0, n}, {dst + n, i1, n}};
  std::vector<HostCopyJob> jobs;
  jobs.reserve(2 * std::size_t(b.height));
  for (const std::uint8_t* frame : {i0, i1})
    for (int r = 0; r < b.height; ++r, dst += w) jobs.push_back({dst, frame + r * stride, w});
  return jobs;
}

}  // namespace

PinnedFrameCopies::PinnedFrameCopies(int threads) {
  if (threads < 0) threads = std::max(1, std::min(4, int(std::thread::hardware_concurrency()) / 2));
  copier_ = std::make_unique<HostCopier>(threads);
}

PinnedFrameCopies::~PinnedFrameCopies() {
  for (cudaEvent_t ev : chunk_events_) cudaEventDestroy(ev);
}

void PinnedFrameCopies::frames_in(FrameBuffers& b, const Image& i0, const Image& i1) {
  const std::size_t n = i0.size();
  float* in = b.host_in.as<float>();
  copier_->copy(
      {{in, i0.data.data(), n * sizeof(float)}, {in + n, i1.data.data(), n * sizeof(float)}});
}

void PinnedFrameCopies::frames_in_u8(FrameBuffers& b, const std::uint8_t* i0,
                                     const std::uint8_t* i1, std::ptrdiff_t stride) {
  copier_->copy(u8_jobs(b, i0, i1, stride, b.host_in.as<char>()));
}

void PinnedFrameCopies::frames_in_f32(FrameBuffers& b, const float* i0, const float* i1,
                                      std::ptrdiff_t stride) {
  const std::size_t row = std::size_t(b.width) * sizeof(float);
  const std::size_t n = std::size_t(b.width) * std::size_t(b.height);
  char* dst = b.host_in.as<char>();
  if (stride == std::ptrdiff_t(row)) {
    copier_->copy({{dst, i0, n * sizeof(float)}, {dst + n * sizeof(float), i1, n * sizeof(float)}});
    return;
  }
  std::vector<HostCopyJob> jobs;
  jobs.reserve(2 * std::size_t(b.height));
  for (const float* frame : {i0, i1}) {
    const char* src = reinterpret_cast<const char*>(frame);
    for (int r = 0; r < b.height; ++r, dst += row) jobs.push_back({dst, src + r * stride, row});
  }
  copier_->copy(jobs);
}

void PinnedFrameCopies::flow_out(const FrameBuffers& b, FlowField& flow) {
  const std::size_t n = std::size_t(b.width) * b.height;
  size_flow(b, flow);
  const float* out = b.host_out.as<float>();
  copier_->copy(
      {{flow.u.data(), out, n * sizeof(float)}, {flow.v.data(), out + n, n * sizeof(float)}});
}

void PinnedFrameCopies::chunked_frame(FrameBuffers& b, const Image& i0, const Image& i1,
                                      FlowField& flow, int chunks, cudaStream_t stream,
                                      const std::function<void()>& begin_frame,
                                      const std::function<void()>& device_work,
                                      const std::function<void()>& end_frame) {
  const std::size_t n = i0.size();
  char* in = b.host_in.as<char>();
  chunked(b,
          {{in, i0.data.data(), n * sizeof(float)},
           {in + n * sizeof(float), i1.data.data(), n * sizeof(float)}},
          2 * n * sizeof(float), b.raw.as(), flow, chunks, stream, begin_frame, device_work,
          end_frame);
}

void PinnedFrameCopies::chunked_frame_u8(FrameBuffers& b, const std::uint8_t* i0,
                                         const std::uint8_t* i1, std::ptrdiff_t stride,
                                         FlowField& flow, int chunks, cudaStream_t stream,
                                         const std::function<void()>& begin_frame,
                                         const std::function<void()>& device_work,
                                         const std::function<void()>& end_frame) {
  const std::size_t n = std::size_t(b.width) * b.height;
  chunked(b, u8_jobs(b, i0, i1, stride, b.host_in.as<char>()), 2 * n, b.raw_u8.as(), flow, chunks,
          stream, begin_frame, device_work, end_frame);
}

void PinnedFrameCopies::chunked(FrameBuffers& b, const std::vector<HostCopyJob>& in_jobs,
                                std::size_t total, void* device_in, FlowField& flow, int chunks,
                                cudaStream_t stream, const std::function<void()>& begin_frame,
                                const std::function<void()>& device_work,
                                const std::function<void()>& end_frame) {
  const std::size_t n = std::size_t(b.width) * b.height, out_total = 2 * n * sizeof(float);
  while (int(chunk_events_.size()) < chunks) {
    cudaEvent_t ev = nullptr;
    check_frame(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate (chunk)");
    chunk_events_.push_back(ev);
  }
  const char* in = b.host_in.as<char>();
  char* raw = static_cast<char*>(device_in);
  int device = 0;  // the hooks run on the copier's threads: the solver's device there too
  check_frame(cudaGetDevice(&device), "cudaGetDevice");
  const auto on_device = [device] {
    int d = -1;
    if (cudaGetDevice(&d) != cudaSuccess || d != device)
      check_frame(cudaSetDevice(device), "cudaSetDevice (host copy thread)");
  };
  begin_frame();
  copier_->copy_chunked(in_jobs, chunks, {}, [&](int k) {
    on_device();
    const std::size_t lo = HostCopier::chunk_begin(total, chunks, k);
    const std::size_t hi = HostCopier::chunk_begin(total, chunks, k + 1);
    if (hi > lo)
      check_frame(cudaMemcpyAsync(raw + lo, in + lo, hi - lo, cudaMemcpyHostToDevice, stream),
                  "cudaMemcpyAsync (upload chunk)");
  });
  device_work();
  char* out = b.host_out.as<char>();
  const char* dflow = b.flow.as<char>();
  for (int k = 0; k < chunks; ++k) {
    const std::size_t lo = HostCopier::chunk_begin(out_total, chunks, k);
    const std::size_t hi = HostCopier::chunk_begin(out_total, chunks, k + 1);
    if (hi > lo)
      check_frame(cudaMemcpyAsync(out + lo, dflow + lo, hi - lo, cudaMemcpyDeviceToHost, stream),
                  "cudaMemcpyAsync (download chunk)");
    check_frame(cudaEventRecord(chunk_events_[std::size_t(k)], stream), "cudaEventRecord (chunk)");
  }
  end_frame();
  size_flow(b, flow);
  copier_->copy_chunked({{flow.u.data(), out, n * sizeof(float)},
                         {flow.v.data(), out + n * sizeof(float), n * sizeof(float)}},
                        chunks,
                        [&](int k) {
                          on_device();
                          check_frame(cudaEventSynchronize(chunk_events_[std::size_t(k)]),
                                      "frame (cudaEventSynchronize, download chunk)");
                        },
                        {});
}

}  // namespace flowtune::cuda
