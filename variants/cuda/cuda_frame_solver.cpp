// The GPU TV-L1 frame solver (see cuda_frame_solver.hpp): its construction, the host API's
// frames (compute, compute_into, compute_from) and the order of a frame's work on the
// solver's streams. Its parts: frame_buffers (buffers), frame_size_cache (buffers and graph
// per size), frame_graph (the CUDA Graph), pinned_frame_copies (host copies), frame_stages
// (the stage sequence); device_frame.cpp, u8_frame.cpp and frame_profile.cpp hold the
// device-pointer API, the 8-bit host API and the per-stage timeline.
#include "variants/cuda/cuda_frame_solver.hpp"

#include <cuda_runtime_api.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <utility>

#include "kernels/tvl1_multiscale.hpp"
#include "variants/cuda/frame_graph.hpp"
#include "variants/cuda/frame_solver.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace cuda {

CudaFrameSolver::CudaFrameSolver(const Config& config, std::unique_ptr<IterationSchedule> schedule,
                                 const FrameOptions& options)
    : config_(config), params_(tvl1_params_of(config)), options_(options) {
  if (!schedule)
    throw std::invalid_argument("cuda_frame_solver: null iteration schedule for '" +
                                config.label() + "'");
  if (options_.host_copy_chunks < 0)
    throw std::invalid_argument("cuda_frame_solver: host_copy_chunks must be >= 0, got " +
                                std::to_string(options_.host_copy_chunks));
  if (options_.cached_sizes < 1)
    throw std::invalid_argument("cuda_frame_solver: cached_sizes must be >= 1, got " +
                                std::to_string(options_.cached_sizes));
  flowtune::detail::check_tvl1_params(params_);
  frame::check_zoom_schedule(options_.pyramid_schedule);
  storage_ = storage_of(config_.precision);
  stages_ = std::make_unique<FrameStages>(params_, storage_, options_, std::move(schedule), marks_);
  if (!options_.host_emulation) {
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
      cudaGetLastError();
      throw std::runtime_error("cuda_frame_solver: no CUDA device (" +
                               std::string(cudaGetErrorString(e)) + ")");
    }
    check_frame(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
    check_frame(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "cudaEventCreate");
  }
  stages_->prepare(config_);
  copies_ = std::make_unique<PinnedFrameCopies>(options_.host_copy_threads);
  cache_ = std::make_unique<FrameSizeCache>(options_.cached_sizes, params_, storage_,
                                            options_.host_emulation);
}

CudaFrameSolver::~CudaFrameSolver() {
  marks_.release();
  if (done_) cudaEventSynchronize(done_);
  if (stream_) cudaStreamSynchronize(stream_);
  cache_.reset();   // the graphs, then the buffers
  copies_.reset();  // the chunk events
  if (done_) cudaEventDestroy(done_);
  if (stream_) cudaStreamDestroy(stream_);
}

FlowField CudaFrameSolver::compute(const Image& i0, const Image& i1) {
  FlowField flow;
  compute_into(i0, i1, flow);
  return flow;
}

void CudaFrameSolver::compute_into(const Image& i0, const Image& i1, FlowField& flow) {
  check_frames(i0, i1);
  select_size(i0.width, i0.height);
  if (direct_host(i0.data.data(), i1.data.data(), i0.size() * sizeof(float), flow)) {
    direct_host_frame(i0.data.data(), i1.data.data(), 0, FrameInput::host_float, flow);
    return;
  }
  if (!options_.host_emulation && options_.host_copy_chunks > 1) {
    chunked_frame(i0, i1, flow);
    return;
  }
  stage_in(i0, i1);
  const std::size_t n = i0.size();
  float* in = cur().b.host_in.as<float>();
  run_frame(stream_, in, in + n, cur().b.host_out.as());
  if (!options_.host_emulation)
    check_frame(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
  stage_out(flow);
}

FlowField CudaFrameSolver::compute_from(const Image& i0, const Image& i1, const FlowField& init) {
  FlowField flow;
  compute_from_into(i0, i1, init, flow);
  return flow;
}

void CudaFrameSolver::compute_from_into(const Image& i0, const Image& i1, const FlowField& init,
                                        FlowField& flow) {
  check_frames(i0, i1);
  const std::size_t n = i0.size();
  if (init.width != i0.width || init.height != i0.height || init.u.size() != n ||
      init.v.size() != n)
    throw std::invalid_argument("cuda_frame_solver: initial flow is " + std::to_string(init.width) +
                                "x" + std::to_string(init.height) + ", the frames are " +
                                std::to_string(i0.width) + "x" + std::to_string(i0.height));
  // Page-locked once per size, so that the upload is a DMA rather than a staged copy of
  // pageable memory; unlocked before a new size reallocates the storage.
  if (init_host_.size() != 2 * n) {
    init_lock_.reset();
    init_locked_ = nullptr;
    init_host_.resize(2 * n);
  }
  if (!options_.host_emulation && init_locked_ != init_host_.data()) {
    init_lock_ = page_lock(init_host_.data(), init_host_.size() * sizeof(float));
    init_locked_ = init_host_.data();
  }
  for (std::size_t i = 0; i < n; ++i) {
    const float u = init.u[i], v = init.v[i];
    const bool known =
        std::isfinite(u) && std::isfinite(v) && std::fabs(u) <= 1e9f && std::fabs(v) <= 1e9f;
    init_host_[i] = known ? u : 0.f;
    init_host_[n + i] = known ? v : 0.f;
  }
  stage_in(i0, i1);
  float* in = cur().b.host_in.as<float>();
  stages_->set_initial_flow(init_host_.data());
  try {
    run_frame(stream_, in, in + n, cur().b.host_out.as(), true);
    if (!options_.host_emulation)
      check_frame(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
  } catch (...) {
    stages_->set_initial_flow(nullptr);
    throw;
  }
  stages_->set_initial_flow(nullptr);
  stage_out(flow);
}

void CudaFrameSolver::check_frames(const Image& i0, const Image& i1) {
  if (i0.width != i1.width || i0.height != i1.height || i0.width < 1 || i0.height < 1 ||
      i0.size() != std::size_t(i0.width) * i0.height || i1.size() != i0.size())
    throw std::invalid_argument(
        "cuda_frame_solver: frames must be non-empty and of equal "
        "size, got " +
        std::to_string(i0.width) + "x" + std::to_string(i0.height) + " and " +
        std::to_string(i1.width) + "x" + std::to_string(i1.height));
}

void CudaFrameSolver::select_size(int width, int height) {
  cache_->select(width, height, done_);
}

void CudaFrameSolver::stage_in(const Image& i0, const Image& i1) {
  select_size(i0.width, i0.height);
  copies_->frames_in(cur().b, i0, i1);
}

void CudaFrameSolver::stage_out(FlowField& flow) {
  copies_->flow_out(cur().b, flow);
}

void CudaFrameSolver::run_frame(cudaStream_t s, const void* in0, const void* in1, void* out,
                                bool direct, FrameInput input) {
  SizeEntry& e = cur();
  if (options_.host_emulation) {
    stages_->upload(s, e.b, in0, in1, input);
    stages_->core(s, e.b);
    stages_->download(s, e.b, out);
    ++e.frames;
    return;
  }
  begin_frame(s, direct);
  stages_->upload(s, e.b, in0, in1, input);
  enqueue_device_work(s, direct);
  stages_->download(s, e.b, out);
  end_frame(s);
}

void CudaFrameSolver::begin_frame(cudaStream_t s, bool direct) {
  SizeEntry& e = cur();
  // A stopping test reads back (EpsilonStop): such a frame is never captured.
  if (options_.use_cuda_graph && !direct && !stages_->has_stopping_test() && !e.graph &&
      !e.graph_failed && e.frames > 0) {
    if (capture_frame_graph(stream_, e, [&](cudaStream_t c) { stages_->core(c, e.b); }))
      cache_->count_graph_build();
  }
  if (have_done_ && s != last_stream_)
    check_frame(cudaStreamWaitEvent(s, done_, 0), "cudaStreamWaitEvent");
}

void CudaFrameSolver::enqueue_device_work(cudaStream_t s, bool direct) {
  if (cur().graph && !direct)
    check_frame(cudaGraphLaunch(cur().graph, s), "cudaGraphLaunch");
  else
    stages_->core(s, cur().b);
}

void CudaFrameSolver::end_frame(cudaStream_t s) {
  check_frame(cudaEventRecord(done_, s), "cudaEventRecord");
  have_done_ = true;
  last_stream_ = s;
  ++cur().frames;
}

void CudaFrameSolver::chunked_frame(const Image& i0, const Image& i1, FlowField& flow) {
  select_size(i0.width, i0.height);
  FrameBuffers& b = cur().b;
  copies_->chunked_frame(
      b, i0, i1, flow, options_.host_copy_chunks, stream_, [&] { begin_frame(stream_, false); },
      [&] {
        stages_->normalise(stream_, b);
        enqueue_device_work(stream_, false);
      },
      [&] { end_frame(stream_); });
}

FrameCacheStats frame_cache_stats(const FlowSolver& solver) {
  const auto* s = dynamic_cast<const CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("frame_cache_stats: the solver is not a CUDA frame solver");
  return s->stats();
}

}  // namespace cuda

std::unique_ptr<FlowSolver> make_cuda_frame_solver(
    const Config& config, std::unique_ptr<cuda::IterationSchedule> schedule,
    const cuda::FrameOptions& options) {
  return std::make_unique<cuda::CudaFrameSolver>(config, std::move(schedule), options);
}

}  // namespace flowtune
