// The per-stage timeline of the GPU frame solver (cuda::profile_frame in
// cuda_frame_solver.hpp): the graph frame timed by an event pair, the direct frame by an event
// after each stage (stage_marks.hpp), the host copies and the whole call by the wall clock;
// medians over the profiled frames.
#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <vector>

#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/frame_solver.hpp"

namespace flowtune::cuda {
namespace {

/// The upper median (v[size / 2] of the sorted values); 0 for no values.
double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

FrameTimeline CudaFrameSolver::profile(const Image& i0, const Image& i1, int repeats) {
  if (options_.host_emulation)
    throw std::runtime_error("profile_frame: a solver in host emulation has no device to time");
  if (repeats < 1) throw std::invalid_argument("profile_frame: repeats must be >= 1");
  FlowField flow;
  compute_into(i0, i1, flow);
  compute_into(i0, i1, flow);  // the second one captures the graph
  using clock = std::chrono::steady_clock;
  auto ms_since = [](clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(clock::now() - t0).count();
  };
  std::vector<double> in_ms, out_ms, call_ms, graph_ms;
  std::vector<std::vector<double>> stage_ms;
  FrameTimeline t;
  cudaEvent_t a = nullptr, b = nullptr;
  check_frame(cudaEventCreate(&a), "cudaEventCreate");
  check_frame(cudaEventCreate(&b), "cudaEventCreate");
  const std::size_t n = i0.size();
  for (int r = 0; r < repeats; ++r) {
    auto t0 = clock::now();
    compute_into(i0, i1, flow);
    call_ms.push_back(ms_since(t0));
    t0 = clock::now();
    stage_in(i0, i1);
    in_ms.push_back(ms_since(t0));
    float* in = cur().b.host_in.as<float>();
    if (cur().graph) {
      // What the device spends on a graph frame: upload, the graph, download.
      check_frame(cudaEventRecord(a, stream_), "cudaEventRecord");
      run_frame(stream_, in, in + n, cur().b.host_out.as());
      check_frame(cudaEventRecord(b, stream_), "cudaEventRecord");
      check_frame(cudaEventSynchronize(b), "cudaEventSynchronize");
      float ms = 0;
      check_frame(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
      graph_ms.push_back(ms);
    }
    // The direct frame, one event after each stage.
    marks_.release();
    marks_.enabled = true;
    marks_.mark(stream_, "", -1);
    try {
      stages_->upload(stream_, cur().b, in, in + n);
      stages_->core(stream_, cur().b);
      stages_->download(stream_, cur().b, cur().b.host_out.as());
    } catch (...) {
      marks_.enabled = false;
      throw;
    }
    marks_.enabled = false;
    check_frame(cudaStreamSynchronize(stream_), "profiled frame (cudaStreamSynchronize)");
    t0 = clock::now();
    stage_out(flow);
    out_ms.push_back(ms_since(t0));
    if (r == 0) {
      stage_ms.resize(marks_.size());
      for (std::size_t k = 1; k < marks_.size(); ++k)
        t.stages.push_back({marks_.stage(k), marks_.level(k), 0});
    }
    for (std::size_t k = 1; k < marks_.size() && k < stage_ms.size(); ++k)
      stage_ms[k].push_back(marks_.elapsed_ms(k));
    marks_.release();
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  for (std::size_t k = 0; k < t.stages.size(); ++k) {
    t.stages[k].ms = median(stage_ms[k + 1]);
    t.direct_device_ms += t.stages[k].ms;
  }
  t.graph_device_ms = median(graph_ms);
  t.host_in_ms = median(in_ms);
  t.host_out_ms = median(out_ms);
  t.call_ms = median(call_ms);
  return t;
}

FrameTimeline profile_frame(FlowSolver& solver, const Image& i0, const Image& i1, int repeats) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("profile_frame: the solver is not a CUDA frame solver");
  return s->profile(i0, i1, repeats);
}

}  // namespace flowtune::cuda
