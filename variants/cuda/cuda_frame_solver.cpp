// The GPU TV-L1 frame: buffers, the stage sequence of kernels/tvl1_multiscale.hpp on the
// device, and its capture in a CUDA Graph (see cuda_frame_solver.hpp).
#include "variants/cuda/cuda_frame_solver.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "kernels/cuda/frame/flow_filters.hpp"
#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/cuda/frame/occlusion_filters.hpp"
#include "kernels/image_ops.hpp"
#include "kernels/tvl1_multiscale.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/epsilon_stop.hpp"
#include "variants/cuda/host_copy.hpp"
#include "variants/cuda/persistent_levels.hpp"
#include "variants/cuda/resident_levels.hpp"
#include "variants/cuda/texture_stage.hpp"
#include "variants/cuda/tiled_levels.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune {
namespace {

namespace fk = cuda::frame;

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("cuda_frame_solver: ") + what + ": " +
                             cudaGetErrorString(e));
}

/// Where a buffer lives: device memory, pinned host memory, or plain host memory (emulation).
enum class Memory { device, pinned, host };

/// An owned untyped buffer.
class Buffer {
 public:
  Buffer() = default;
  Buffer(std::size_t bytes, Memory memory) : memory_(memory) {
    if (bytes == 0) return;
    if (memory == Memory::device)
      check(cudaMalloc(&p_, bytes), "cudaMalloc");
    else if (memory == Memory::pinned)
      check(cudaMallocHost(&p_, bytes), "cudaMallocHost");
    else if (!(p_ = std::calloc(bytes, 1)))
      throw std::bad_alloc();
  }
  Buffer(Buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), memory_(o.memory_) {}
  Buffer& operator=(Buffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      memory_ = o.memory_;
    }
    return *this;
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer() { release(); }

  template <class T = void>
  T* as() const {
    return static_cast<T*>(p_);
  }

 private:
  void release() noexcept {
    if (!p_) return;
    if (memory_ == Memory::device)
      cudaFree(p_);
    else if (memory_ == Memory::pinned)
      cudaFreeHost(p_);
    else
      std::free(p_);
    p_ = nullptr;
  }
  void* p_ = nullptr;
  Memory memory_ = Memory::device;
};

/// One pyramid level: the smoothed / zoomed frames.
struct Level {
  int width = 0, height = 0;
  Buffer i0, i1;
};

/// Everything one frame size needs, allocated once (sizes in elements of the finest scale n).
struct FrameBuffers {
  int width = 0, height = 0;
  std::vector<Level> levels;   ///< [0] finest
  Buffer raw;                  ///< 2n floats: the two frames as uploaded
  Buffer tmp;                  ///< 2n floats: the Gaussian's row pass
  Buffer smooth;               ///< 2n floats: the pre-filtered level before zoom_out sampling
  Buffer i1g;                  ///< n float4: (I1, I1x, I1y, 0) of the current scale
  Buffer grad, rho_c, p1, p2;  ///< n pairs / scalars in the schedule's storage
  Buffer u[2];                 ///< n pairs each: ping-pong between scales
  Buffer minmax_scratch, minmax;
  Buffer flow;               ///< 2n floats: planar output
  Buffer host_in, host_out;  ///< 2n floats each, pinned (or plain host in emulation)
};

/// One cached frame size: its buffers, its CUDA Graph of the device work, and its history.
struct SizeEntry {
  FrameBuffers b;
  cudaGraphExec_t graph = nullptr;
  bool graph_failed = false;
  long frames = 0;  ///< frames computed at this size
  unsigned long long last_use = 0;
};

class CudaFrameSolver final : public FlowSolver {
 public:
  CudaFrameSolver(const Config& config, std::unique_ptr<cuda::IterationSchedule> schedule,
                  const cuda::FrameOptions& options)
      : config_(config),
        params_(tvl1_params_of(config)),
        schedule_(std::move(schedule)),
        options_(options) {
    if (!schedule_)
      throw std::invalid_argument("cuda_frame_solver: null iteration schedule for '" +
                                  config.label() + "'");
    if (options_.cached_sizes < 1)
      throw std::invalid_argument("cuda_frame_solver: cached_sizes must be >= 1, got " +
                                  std::to_string(options_.cached_sizes));
    detail::check_tvl1_params(params_);
    storage_ = cuda::storage_of(config_.precision);
    const double ps = params_.presmoothing_sigma;
    presmooth_taps_ = ps > 0 ? fk::gaussian_taps(ps) : fk::GaussTaps{};
    const double z = params_.zoom;
    zoom_taps_ = fk::gaussian_taps(0.6 * std::sqrt(1.0 / (z * z) - 1.0));
    if (!options_.host_emulation) {
      int count = 0;
      const cudaError_t e = cudaGetDeviceCount(&count);
      if (e != cudaSuccess || count == 0) {
        cudaGetLastError();
        throw std::runtime_error("cuda_frame_solver: no CUDA device (" +
                                 std::string(cudaGetErrorString(e)) + ")");
      }
      check(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate");
      check(cudaEventCreateWithFlags(&done_, cudaEventDisableTiming), "cudaEventCreate");
      const int resident_px = options_.resident_max_pixels >= 0 ? options_.resident_max_pixels
                                                                : cuda::resident_px_of(config_);
      if (resident_px > 0) resident_ = std::make_unique<cuda::ResidentLevels>(config_, resident_px);
      const int tiled_px =
          options_.tiled_max_pixels >= 0 ? options_.tiled_max_pixels : cuda::tiled_px_of(config_);
      if (tiled_px > 0) tiled_ = std::make_unique<cuda::TiledLevels>(config_, tiled_px);
      const int persistent_px = options_.persistent_max_pixels >= 0
                                    ? options_.persistent_max_pixels
                                    : cuda::persistent_px_of(config_);
      if (persistent_px > 0)
        persistent_ = std::make_unique<cuda::PersistentLevels>(
            config_, persistent_px, options_.persistent_syncs, options_.persistent_blocks_per_sm,
            options_.persistent_threads);
    }
    if (params_.epsilon > 0) stop_ = std::make_unique<cuda::EpsilonStop>(options_.host_emulation);
    if (params_.texture_alpha > 0)
      texture_ = std::make_unique<cuda::TextureStage>(params_, options_.host_emulation);
    int copy_threads = options_.host_copy_threads;
    if (copy_threads < 0)
      copy_threads = std::max(1, std::min(4, int(std::thread::hardware_concurrency()) / 2));
    copier_ = std::make_unique<cuda::HostCopier>(copy_threads);
  }

  ~CudaFrameSolver() override {
    release_marks();
    if (done_) cudaEventSynchronize(done_);
    if (stream_) cudaStreamSynchronize(stream_);
    for (auto& e : cache_)
      if (e->graph) cudaGraphExecDestroy(e->graph);
    cache_.clear();
    for (cudaEvent_t ev : chunk_events_) cudaEventDestroy(ev);
    if (done_) cudaEventDestroy(done_);
    if (stream_) cudaStreamDestroy(stream_);
  }

  FlowField compute(const Image& i0, const Image& i1) override {
    FlowField flow;
    compute_into(i0, i1, flow);
    return flow;
  }

  void compute_into(const Image& i0, const Image& i1, FlowField& flow) override {
    check_frames(i0, i1);
    if (!options_.host_emulation && options_.host_copy_chunks > 1) {
      chunked_frame(i0, i1, flow);
      return;
    }
    stage_in(i0, i1);
    const std::size_t n = i0.size();
    float* in = cur_->b.host_in.as<float>();
    run_frame(stream_, in, in + n, cur_->b.host_out.as());
    if (!options_.host_emulation)
      check(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
    stage_out(flow);
  }

  /// The frame started from init_flow instead of 0 (tvl1_multiscale's init_flow): the flow is
  /// uploaded (non-finite or |value| > 1e9 read as 0, as the CPU), its pyramid built by the
  /// frames' zoom_out (Gaussian pre-filter, bicubic sampling) and scaled by zoom^(levels - 1),
  /// and the coarsest level starts from it. Such a frame runs with direct launches (no graph).
  FlowField compute_from(const Image& i0, const Image& i1, const FlowField& init) override {
    check_frames(i0, i1);
    const std::size_t n = i0.size();
    if (init.width != i0.width || init.height != i0.height || init.u.size() != n ||
        init.v.size() != n)
      throw std::invalid_argument("cuda_frame_solver: initial flow is " +
                                  std::to_string(init.width) + "x" + std::to_string(init.height) +
                                  ", the frames are " + std::to_string(i0.width) + "x" +
                                  std::to_string(i0.height));
    init_host_.resize(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      const float u = init.u[i], v = init.v[i];
      const bool known =
          std::isfinite(u) && std::isfinite(v) && std::fabs(u) <= 1e9f && std::fabs(v) <= 1e9f;
      init_host_[i] = known ? u : 0.f;
      init_host_[n + i] = known ? v : 0.f;
    }
    stage_in(i0, i1);
    float* in = cur_->b.host_in.as<float>();
    init_pending_ = true;
    try {
      run_frame(stream_, in, in + n, cur_->b.host_out.as(), true);
      if (!options_.host_emulation)
        check(cudaStreamSynchronize(stream_), "frame (cudaStreamSynchronize)");
    } catch (...) {
      init_pending_ = false;
      throw;
    }
    init_pending_ = false;
    FlowField flow;
    stage_out(flow);
    return flow;
  }

  /// See cuda::compute_flow_device.
  void compute_device(const float* i0, const float* i1, int width, int height, float* flow,
                      cudaStream_t stream) {
    if (options_.host_emulation)
      throw std::runtime_error(
          "compute_flow_device: a solver in host emulation has no device frames");
    if (!i0 || !i1 || !flow || width < 1 || height < 1)
      throw std::invalid_argument("compute_flow_device: null device pointer or size " +
                                  std::to_string(width) + "x" + std::to_string(height) + " < 1");
    select_size(width, height);
    run_frame(stream, i0, i1, flow, false, true);
  }

  cuda::FrameCacheStats stats() const {
    cuda::FrameCacheStats s = stats_;
    s.cached_sizes = int(cache_.size());
    return s;
  }

  /// See cuda::profile_frame.
  cuda::FrameTimeline profile(const Image& i0, const Image& i1, int repeats) {
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
    cuda::FrameTimeline t;
    cudaEvent_t a = nullptr, b = nullptr;
    check(cudaEventCreate(&a), "cudaEventCreate");
    check(cudaEventCreate(&b), "cudaEventCreate");
    const std::size_t n = i0.size();
    for (int r = 0; r < repeats; ++r) {
      auto t0 = clock::now();
      compute_into(i0, i1, flow);
      call_ms.push_back(ms_since(t0));
      t0 = clock::now();
      stage_in(i0, i1);
      in_ms.push_back(ms_since(t0));
      float* in = cur_->b.host_in.as<float>();
      if (cur_->graph) {
        // What the device spends on a graph frame: upload, the graph, download.
        check(cudaEventRecord(a, stream_), "cudaEventRecord");
        run_frame(stream_, in, in + n, cur_->b.host_out.as());
        check(cudaEventRecord(b, stream_), "cudaEventRecord");
        check(cudaEventSynchronize(b), "cudaEventSynchronize");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, a, b), "cudaEventElapsedTime");
        graph_ms.push_back(ms);
      }
      // The direct frame, one event after each stage.
      marks_.clear();
      profiling_ = true;
      mark(stream_, "", -1);
      try {
        enqueue_upload(stream_, in, in + n);
        enqueue_core(stream_);
        enqueue_download(stream_, cur_->b.host_out.as());
      } catch (...) {
        profiling_ = false;
        throw;
      }
      profiling_ = false;
      check(cudaStreamSynchronize(stream_), "profiled frame (cudaStreamSynchronize)");
      t0 = clock::now();
      stage_out(flow);
      out_ms.push_back(ms_since(t0));
      if (r == 0) {
        stage_ms.resize(marks_.size());
        for (std::size_t k = 1; k < marks_.size(); ++k)
          t.stages.push_back({marks_[k].stage, marks_[k].level, 0});
      }
      for (std::size_t k = 1; k < marks_.size() && k < stage_ms.size(); ++k) {
        float ms = 0;
        check(cudaEventElapsedTime(&ms, marks_[k - 1].event, marks_[k].event),
              "cudaEventElapsedTime");
        stage_ms[k].push_back(ms);
      }
      release_marks();
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

 private:
  static void check_frames(const Image& i0, const Image& i1) {
    if (i0.width != i1.width || i0.height != i1.height || i0.width < 1 || i0.height < 1 ||
        i0.size() != std::size_t(i0.width) * i0.height || i1.size() != i0.size())
      throw std::invalid_argument(
          "cuda_frame_solver: frames must be non-empty and of equal "
          "size, got " +
          std::to_string(i0.width) + "x" + std::to_string(i0.height) + " and " +
          std::to_string(i1.width) + "x" + std::to_string(i1.height));
  }

  static double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  }

  /// Host stage before the upload: the frames into the pinned buffer of their size.
  void stage_in(const Image& i0, const Image& i1) {
    select_size(i0.width, i0.height);
    const std::size_t n = i0.size();
    float* in = cur_->b.host_in.as<float>();
    copier_->copy(
        {{in, i0.data.data(), n * sizeof(float)}, {in + n, i1.data.data(), n * sizeof(float)}});
  }

  /// Host stage after the download: the flow out of the pinned buffer into `flow` (its
  /// vectors keep their storage when they already have the size).
  void stage_out(FlowField& flow) {
    const std::size_t n = std::size_t(cur_->b.width) * cur_->b.height;
    flow.width = cur_->b.width;
    flow.height = cur_->b.height;
    flow.u.resize(n);
    flow.v.resize(n);
    const float* out = cur_->b.host_out.as<float>();
    copier_->copy(
        {{flow.u.data(), out, n * sizeof(float)}, {flow.v.data(), out + n, n * sizeof(float)}});
  }

  /// One frame at the current size on `s`: the frames from in0 / in1 (host_in in the host
  /// path, the caller's device frames in the device path), the device work (the size's graph
  /// once captured, else direct launches), the planar flow to `out`. Ordered after the
  /// solver's previous frame whatever stream that ran on. direct: never the graph (a frame
  /// with an initial flow).
  void run_frame(cudaStream_t s, const void* in0, const void* in1, void* out, bool direct = false,
                 bool device_inputs = false) {
    SizeEntry& e = *cur_;
    if (options_.host_emulation) {
      enqueue_upload(s, in0, in1);
      enqueue_core(s);
      enqueue_download(s, out);
      ++e.frames;
      return;
    }
    begin_frame(s, direct);
    enqueue_upload(s, in0, in1, device_inputs);
    enqueue_device_work(s, direct);
    enqueue_download(s, out);
    end_frame(s);
  }

  /// Before a frame's first enqueue on `s`: the size's graph captured if due, and `s` ordered
  /// after the solver's previous frame.
  void begin_frame(cudaStream_t s, bool direct) {
    SizeEntry& e = *cur_;
    // A stopping test reads back (EpsilonStop): such a frame is never captured.
    if (options_.use_cuda_graph && !direct && !stop_ && !e.graph && !e.graph_failed && e.frames > 0)
      capture_graph(e);
    if (have_done_ && s != last_stream_)
      check(cudaStreamWaitEvent(s, done_, 0), "cudaStreamWaitEvent");
  }
  /// The device work from `raw` to `flow`: the size's graph once captured, else direct.
  void enqueue_device_work(cudaStream_t s, bool direct) {
    if (cur_->graph && !direct)
      check(cudaGraphLaunch(cur_->graph, s), "cudaGraphLaunch");
    else
      enqueue_core(s);
  }
  void end_frame(cudaStream_t s) {
    check(cudaEventRecord(done_, s), "cudaEventRecord");
    have_done_ = true;
    last_stream_ = s;
    ++cur_->frames;
  }

  /// The host API's frame with the host copies overlapping the bus (FrameOptions::
  /// host_copy_chunks): each chunk of the frames is uploaded as soon as it is in pinned memory,
  /// each chunk of the flow copied out as soon as its download ended.
  void chunked_frame(const Image& i0, const Image& i1, FlowField& flow) {
    select_size(i0.width, i0.height);
    const std::size_t n = i0.size(), total = 2 * n * sizeof(float);
    const int chunks = options_.host_copy_chunks;
    while (int(chunk_events_.size()) < chunks) {
      cudaEvent_t ev = nullptr;
      check(cudaEventCreateWithFlags(&ev, cudaEventDisableTiming), "cudaEventCreate (chunk)");
      chunk_events_.push_back(ev);
    }
    FrameBuffers& b = cur_->b;
    char* in = b.host_in.as<char>();
    char* raw = b.raw.as<char>();
    int device = 0;  // the hooks run on the copier's threads: the solver's device there too
    check(cudaGetDevice(&device), "cudaGetDevice");
    const auto on_device = [device] {
      int d = -1;
      if (cudaGetDevice(&d) != cudaSuccess || d != device)
        check(cudaSetDevice(device), "cudaSetDevice (host copy thread)");
    };
    begin_frame(stream_, false);
    copier_->copy_chunked(
        {{in, i0.data.data(), n * sizeof(float)},
         {in + n * sizeof(float), i1.data.data(), n * sizeof(float)}},
        chunks, {}, [&](int k) {
          on_device();
          const std::size_t lo = cuda::HostCopier::chunk_begin(total, chunks, k);
          const std::size_t hi = cuda::HostCopier::chunk_begin(total, chunks, k + 1);
          if (hi > lo)
            check(cudaMemcpyAsync(raw + lo, in + lo, hi - lo, cudaMemcpyHostToDevice, stream_),
                  "cudaMemcpyAsync (upload chunk)");
        });
    enqueue_normalise(stream_);
    enqueue_device_work(stream_, false);
    char* out = b.host_out.as<char>();
    const char* dflow = b.flow.as<char>();
    for (int k = 0; k < chunks; ++k) {
      const std::size_t lo = cuda::HostCopier::chunk_begin(total, chunks, k);
      const std::size_t hi = cuda::HostCopier::chunk_begin(total, chunks, k + 1);
      if (hi > lo)
        check(cudaMemcpyAsync(out + lo, dflow + lo, hi - lo, cudaMemcpyDeviceToHost, stream_),
              "cudaMemcpyAsync (download chunk)");
      check(cudaEventRecord(chunk_events_[std::size_t(k)], stream_), "cudaEventRecord (chunk)");
    }
    end_frame(stream_);
    flow.width = b.width;
    flow.height = b.height;
    flow.u.resize(n);
    flow.v.resize(n);
    copier_->copy_chunked({{flow.u.data(), out, n * sizeof(float)},
                           {flow.v.data(), out + n * sizeof(float), n * sizeof(float)}},
                          chunks,
                          [&](int k) {
                            on_device();
                            check(cudaEventSynchronize(chunk_events_[std::size_t(k)]),
                                  "frame (cudaEventSynchronize, download chunk)");
                          },
                          {});
  }

  /// While profiling: an event after the stage that just ended on the stream.
  void mark(cudaStream_t s, const char* stage, int level) {
    if (!profiling_) return;
    Mark m{stage, level, nullptr};
    check(cudaEventCreate(&m.event), "cudaEventCreate");
    check(cudaEventRecord(m.event, s), "cudaEventRecord");
    marks_.push_back(m);
  }
  void release_marks() {
    for (auto& m : marks_)
      if (m.event) cudaEventDestroy(m.event);
    marks_.clear();
  }

  std::size_t pair_bytes() const { return storage_ == cuda::Storage::f32 ? 8 : 4; }
  std::size_t scalar_bytes() const { return storage_ == cuda::Storage::f32 ? 4 : 2; }

  /// Makes the entry of width x height current: found in the cache, or allocated (evicting
  /// the least recently used size when the cache is full).
  void select_size(int width, int height) {
    ++tick_;
    if (cur_ && cur_->b.width == width && cur_->b.height == height) {
      cur_->last_use = tick_;
      return;
    }
    for (auto& e : cache_)
      if (e->b.width == width && e->b.height == height) {
        cur_ = e.get();
        cur_->last_use = tick_;
        return;
      }
    if (int(cache_.size()) >= options_.cached_sizes) {
      auto lru = std::min_element(cache_.begin(), cache_.end(), [](const auto& x, const auto& y) {
        return x->last_use < y->last_use;
      });
      if (done_) check(cudaEventSynchronize(done_), "cudaEventSynchronize (eviction)");
      if ((*lru)->graph) cudaGraphExecDestroy((*lru)->graph);
      if (lru->get() == cur_) cur_ = nullptr;
      cache_.erase(lru);
      ++stats_.evictions;
    }
    auto e = std::make_unique<SizeEntry>();
    allocate(e->b, width, height);
    e->last_use = tick_;
    cur_ = e.get();
    cache_.push_back(std::move(e));
    ++stats_.buffer_allocations;
  }

  void allocate(FrameBuffers& b, int width, int height) const {
    const Memory dev = options_.host_emulation ? Memory::host : Memory::device;
    const Memory pin = options_.host_emulation ? Memory::host : Memory::pinned;
    const std::size_t n = std::size_t(width) * height;
    const Tvl1Params& p = params_;
    // Level sizes exactly as tvl1_multiscale: stop before a side would drop below 4 px.
    std::vector<std::pair<int, int>> sizes{{width, height}};
    const int n_scales = effective_n_scales(p, width, height);
    for (int s = 1; s < n_scales; ++s) {
      const int nw = zoom_size(sizes.back().first, p.zoom);
      const int nh = zoom_size(sizes.back().second, p.zoom);
      if (std::min(nw, nh) < 4) break;
      sizes.emplace_back(nw, nh);
    }
    for (const auto& [w, h] : sizes) {
      Level l;
      l.width = w;
      l.height = h;
      l.i0 = Buffer(std::size_t(w) * h * sizeof(float), dev);
      l.i1 = Buffer(std::size_t(w) * h * sizeof(float), dev);
      b.levels.push_back(std::move(l));
    }
    b.raw = Buffer(2 * n * sizeof(float), dev);
    b.tmp = Buffer(2 * n * sizeof(float), dev);
    b.smooth = Buffer(2 * n * sizeof(float), dev);
    b.i1g = Buffer(n * 4 * sizeof(float), dev);
    b.grad = Buffer(n * pair_bytes(), dev);
    b.rho_c = Buffer(n * scalar_bytes(), dev);
    b.p1 = Buffer(n * pair_bytes(), dev);
    b.p2 = Buffer(n * pair_bytes(), dev);
    b.u[0] = Buffer(n * pair_bytes(), dev);
    b.u[1] = Buffer(n * pair_bytes(), dev);
    b.minmax_scratch = Buffer(fk::minmax_scratch_floats() * sizeof(float), dev);
    if (dev == Memory::device) {  // minmax_pair_one_launch's counter starts at 0
      check(cudaMemsetAsync(b.minmax_scratch.as(), 0, fk::minmax_scratch_floats() * sizeof(float),
                            nullptr),
            "cudaMemsetAsync (minmax scratch)");
      check(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize (minmax scratch)");
    }
    b.minmax = Buffer(2 * sizeof(float), dev);
    b.flow = Buffer(2 * n * sizeof(float), dev);
    b.host_in = Buffer(2 * n * sizeof(float), pin);
    b.host_out = Buffer(2 * n * sizeof(float), pin);
    b.width = width;
    b.height = height;
  }

  void copy(cudaStream_t s, void* dst, const void* src, std::size_t bytes) {
    if (options_.host_emulation)
      std::memcpy(dst, src, bytes);
    else
      check(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s), "cudaMemcpyAsync");
  }
  void zero(cudaStream_t s, void* dst, std::size_t bytes) {
    if (options_.host_emulation)
      std::memset(dst, 0, bytes);
    else
      check(cudaMemsetAsync(dst, 0, bytes, s), "cudaMemsetAsync");
  }

  /// The two frames into `raw` (one copy when they are contiguous, as in host_in); with fused
  /// stages then their joint min / max (enqueue_normalise), outside the size's graph: frames
  /// already on the device (device_inputs) are then copied by the min / max launch itself.
  void enqueue_upload(cudaStream_t s, const void* in0, const void* in1,
                      bool device_inputs = false) {
    const std::size_t n = std::size_t(cur_->b.width) * cur_->b.height;
    float* raw = cur_->b.raw.as<float>();
    if (options_.fused_stages && device_inputs && !options_.host_emulation) {
      FrameBuffers& b = cur_->b;
      fk::minmax_pair_one_launch(static_cast<const float*>(in0), static_cast<const float*>(in1), n,
                                 b.minmax_scratch.as<float>(), b.minmax.as<float>(),
                                 fk::Exec{s, false}, raw, raw + n);
      mark(s, "upload", -1);
      mark(s, "normalise", -1);
      return;
    }
    if (static_cast<const float*>(in1) == static_cast<const float*>(in0) + n) {
      copy(s, raw, in0, 2 * n * sizeof(float));
    } else {
      copy(s, raw, in0, n * sizeof(float));
      copy(s, raw + n, in1, n * sizeof(float));
    }
    mark(s, "upload", -1);
    enqueue_normalise(s);
  }

  /// With fused stages: the joint min / max of the frames in `raw` in one launch (outside the
  /// graph, after the upload; enqueue_core's first stage otherwise).
  void enqueue_normalise(cudaStream_t s) {
    if (!options_.fused_stages) return;
    FrameBuffers& b = cur_->b;
    const std::size_t n = std::size_t(b.width) * b.height;
    float* raw = b.raw.as<float>();
    fk::minmax_pair_one_launch(raw, raw + n, n, b.minmax_scratch.as<float>(), b.minmax.as<float>(),
                               fk::Exec{s, options_.host_emulation});
    mark(s, "normalise", -1);
  }

  /// The planar flow out of the device buffer.
  void enqueue_download(cudaStream_t s, void* out) {
    const std::size_t n = std::size_t(cur_->b.width) * cur_->b.height;
    copy(s, out, cur_->b.flow.as(), 2 * n * sizeof(float));
    mark(s, "download", -1);
  }

  /// The frame's device work from `raw` to `flow`, in stream order (tvl1_multiscale.hpp step
  /// for step): what the size's CUDA Graph holds.
  void enqueue_core(cudaStream_t stream) {
    FrameBuffers& b_ = cur_->b;
    const fk::Exec exec{stream, options_.host_emulation};
    const Tvl1Params& p = params_;
    const bool f16 = storage_ == cuda::Storage::f16;
    const int w = b_.width, h = b_.height;
    const std::size_t n = std::size_t(w) * h;
    float* raw = b_.raw.as<float>();
    float* tmp = b_.tmp.as<float>();
    float* smooth = b_.smooth.as<float>();

    // 1. Joint normalisation to [0, 255] (inside the row pass) and presmoothing.
    if (!options_.fused_stages) {  // fused: done by enqueue_upload, outside the graph
      fk::minmax_pair(raw, raw + n, n, b_.minmax_scratch.as<float>(), b_.minmax.as<float>(), exec);
      mark(stream, "normalise", -1);
    }
    if (texture_) {  // Wedel et al. 2009, sec. 2.3: the texture frames, normalised again
      texture_->run(raw, raw + n, w, h, b_.minmax.as<float>(), exec);
      fk::minmax_pair(raw, raw + n, n, b_.minmax_scratch.as<float>(), b_.minmax.as<float>(), exec);
      mark(stream, "structure_texture", -1);
    }
    if (options_.fused_stages)
      fk::gaussian_pair_one_launch(raw, raw + n, b_.levels[0].i0.as<float>(),
                                   b_.levels[0].i1.as<float>(), w, h, presmooth_taps_,
                                   b_.minmax.as<float>(), exec);
    else
      fk::gaussian_pair(raw, raw + n, tmp, tmp + n, b_.levels[0].i0.as<float>(),
                        b_.levels[0].i1.as<float>(), w, h, presmooth_taps_, b_.minmax.as<float>(),
                        exec);
    mark(stream, "presmooth", 0);
    // 2. The pyramid by zoom_out.
    for (std::size_t s = 1; s < b_.levels.size(); ++s) {
      const Level& a = b_.levels[s - 1];
      const Level& z = b_.levels[s];
      if (options_.fused_stages &&
          fk::zoom_out_pair_one_launch(a.i0.as<float>(), a.i1.as<float>(), a.width, a.height,
                                       z.i0.as<float>(), z.i1.as<float>(), z.width, z.height,
                                       zoom_taps_, p.zoom, exec)) {
        mark(stream, "pyramid", int(s));
        continue;
      }
      if (options_.fused_stages)
        fk::gaussian_pair_one_launch(a.i0.as<float>(), a.i1.as<float>(), smooth, smooth + n,
                                     a.width, a.height, zoom_taps_, nullptr, exec);
      else
        fk::gaussian_pair(a.i0.as<float>(), a.i1.as<float>(), tmp, tmp + n, smooth, smooth + n,
                          a.width, a.height, zoom_taps_, nullptr, exec);
      fk::zoom_out_sample_pair(smooth, smooth + n, a.width, a.height, z.i0.as<float>(),
                               z.i1.as<float>(), z.width, z.height, p.zoom, exec);
      mark(stream, "pyramid", int(s));
    }
    // 3. Coarse to fine. Fused: each level's start (u = 0 or the coarser flow zoom_in-ed, p =
    // 0) and the gradient of I1 happen inside the warping's launch (fk::warp_level).
    const bool fused = options_.fused_stages;
    int cur = 0;
    if (init_pending_) {
      enqueue_init_flow(stream, b_.u[cur].as());
    } else if (!fused) {
      const Level& c = b_.levels.back();
      zero(stream, b_.u[cur].as(), std::size_t(c.width) * c.height * pair_bytes());
    }
    const float factor = static_cast<float>(1.0 / p.zoom);
    for (int s = int(b_.levels.size()) - 1; s >= 0; --s) {
      const Level& l = b_.levels[std::size_t(s)];
      const std::size_t ln = std::size_t(l.width) * l.height;
      fk::LevelStart start;
      start.zero_p = true;
      if (s == int(b_.levels.size()) - 1) {
        start.flow = init_pending_ ? fk::LevelStart::Flow::keep : fk::LevelStart::Flow::zero;
      } else {
        const Level& coarser = b_.levels[std::size_t(s + 1)];
        start.flow = fk::LevelStart::Flow::zoom_in;
        start.coarse_u = b_.u[cur].as();
        start.coarse_w = coarser.width;
        start.coarse_h = coarser.height;
        start.factor = factor;
        cur = 1 - cur;  // the zoom_in-ed flow goes to the other buffer
      }
      if (!fused) {
        fk::packed_gradient(l.i1.as<float>(), l.width, l.height, b_.i1g.as<float4>(), exec);
        zero(stream, b_.p1.as(), ln * pair_bytes());
        zero(stream, b_.p2.as(), ln * pair_bytes());
        mark(stream, "gradient", s);
      }
      cuda::DeviceFields f;
      f.width = l.width;
      f.height = l.height;
      f.storage = storage_;
      f.grad = b_.grad.as();
      f.rho_c = b_.rho_c.as();
      f.u = b_.u[cur].as();
      f.p1 = b_.p1.as();
      f.p2 = b_.p2.as();
      for (int k = 0; k < p.n_warpings; ++k) {
        if (fused)
          fk::warp_level(f16, l.i0.as<float>(), l.i1.as<float>(), l.width, l.height, f.u, f.grad,
                         f.rho_c, f.p1, f.p2, k == 0 ? start : fk::LevelStart{}, exec,
                         p.warping_interp);
        else
          fk::warp(f16, l.i0.as<float>(), b_.i1g.as<float4>(), l.width, l.height, f.u, f.grad,
                   f.rho_c, exec, p.warping_interp);
        mark(stream, "warping", s);
        const bool resident = resident_ && resident_->fits(l.width, l.height);
        const bool persistent = !resident && persistent_ && persistent_->takes(l.width, l.height);
        const bool tiled = !resident && !persistent && tiled_ && tiled_->takes(l.width, l.height);
        const auto run_iterations = [&](int n_it) {
          if (resident)
            resident_->run(f, n_it, stream);
          else if (tiled)
            tiled_->run(f, n_it, stream);
          else
            schedule_->run(f, n_it, stream);
        };
        if (persistent)  // the stopping test, if any, runs inside the launch (no read-back)
          persistent_->run(f, p.iterations, stream, stop_ ? p.epsilon : 0.0,
                           stop_ ? p.epsilon_check_every : 0);
        else if (stop_)
          stop_->run(f, p.iterations, p.epsilon, p.epsilon_check_every, run_iterations, stream);
        else
          run_iterations(p.iterations);
        mark(stream,
             resident     ? "iterations_resident"
             : persistent ? "iterations_persistent"
             : tiled      ? "iterations_tiled"
                          : "iterations",
             s);
        if (p.median_window > 0) {  // Wedel et al. 2009, sec. 3: into the other flow buffer
          fk::median_flow(f16, b_.u[cur].as(), b_.u[1 - cur].as(), l.width, l.height,
                          p.median_window, exec);
          cur = 1 - cur;
          f.u = b_.u[cur].as();
          mark(stream, "median", s);
        }
        if (p.nl_median_window > 0) {  // Sun, Roth, Black 2010, sec. 4: guided by this level's I0
          if (p.nl_occlusion)  // eq. 10's o(x_j) / o(x_i); grad (dead until the next warping)
            fk::weighted_median_flow_occlusion(  // holds the occlusion cost (n pairs >= n floats)
                f16, b_.u[cur].as(), b_.u[1 - cur].as(), l.i0.as<float>(), l.i1.as<float>(),
                b_.grad.as<float>(), l.width, l.height, p.nl_median_window,
                float(p.nl_sigma_spatial), float(p.nl_sigma_color), float(p.nl_sigma_divergence),
                float(p.nl_sigma_residual), exec);
          else
            fk::weighted_median_flow(f16, b_.u[cur].as(), b_.u[1 - cur].as(), l.i0.as<float>(),
                                     l.width, l.height, p.nl_median_window,
                                     float(p.nl_sigma_spatial), float(p.nl_sigma_color), exec);
          cur = 1 - cur;
          f.u = b_.u[cur].as();
          mark(stream, "nl_median", s);
        }
      }
      if (s == 0 || fused) continue;
      const Level& finer = b_.levels[std::size_t(s - 1)];
      fk::zoom_in_flow(f16, b_.u[cur].as(), l.width, l.height, b_.u[1 - cur].as(), finer.width,
                       finer.height, factor, exec);
      mark(stream, "zoom_in", s - 1);
    }
    fk::flow_to_planar(f16, b_.u[cur].as(), w, h, b_.flow.as<float>(), exec);
    mark(stream, "to_planar", 0);
  }

  /// The initial flow's pyramid (compute_from): init_host_ (planar u, v of the frame size)
  /// into `flow` (free until to_planar), zoom_out level by level in place through tmp and
  /// smooth (as the frames' pyramid), then the coarsest level times zoom^(levels - 1) into u
  /// (tvl1_multiscale scales by zoom at each level: the same up to rounding).
  void enqueue_init_flow(cudaStream_t stream, void* u) {
    FrameBuffers& b_ = cur_->b;
    const fk::Exec exec{stream, options_.host_emulation};
    const std::size_t n = std::size_t(b_.width) * b_.height;
    float* a = b_.flow.as<float>();
    float* tmp = b_.tmp.as<float>();
    float* smooth = b_.smooth.as<float>();
    copy(stream, a, init_host_.data(), 2 * n * sizeof(float));
    for (std::size_t s = 1; s < b_.levels.size(); ++s) {
      const Level& f = b_.levels[s - 1];
      const Level& z = b_.levels[s];
      fk::gaussian_pair(a, a + n, tmp, tmp + n, smooth, smooth + n, f.width, f.height, zoom_taps_,
                        nullptr, exec);
      fk::zoom_out_sample_pair(smooth, smooth + n, f.width, f.height, a, a + n, z.width, z.height,
                               params_.zoom, exec);
    }
    const Level& c = b_.levels.back();
    const double factor = std::pow(params_.zoom, double(b_.levels.size() - 1));
    fk::planar_to_flow(storage_ == cuda::Storage::f16, a, n, c.width, c.height,
                       static_cast<float>(factor), u, exec);
    mark(stream, "init_flow", int(b_.levels.size()) - 1);
  }

  /// Records enqueue_core() of entry e (current) into a graph on the solver's stream; on any
  /// failure leaves the stream usable, remembers the failure and runs e's size without a
  /// graph from then on.
  void capture_graph(SizeEntry& e) {
    check(cudaStreamBeginCapture(stream_, cudaStreamCaptureModeThreadLocal),
          "cudaStreamBeginCapture");
    cudaGraph_t graph = nullptr;
    try {
      enqueue_core(stream_);
    } catch (const std::exception&) {
      cudaStreamEndCapture(stream_, &graph);
      if (graph) cudaGraphDestroy(graph);
      cudaGetLastError();
      e.graph_failed = true;
      return;
    }
    const cudaError_t err = cudaStreamEndCapture(stream_, &graph);
    if (err != cudaSuccess || !graph ||
        cudaGraphInstantiateWithFlags(&e.graph, graph, 0) != cudaSuccess) {
      cudaGetLastError();
      e.graph = nullptr;
      e.graph_failed = true;
    } else {
      ++stats_.graph_builds;
    }
    if (graph) cudaGraphDestroy(graph);
  }

  Config config_;
  Tvl1Params params_;
  std::unique_ptr<cuda::IterationSchedule> schedule_;
  cuda::FrameOptions options_;
  std::unique_ptr<cuda::ResidentLevels> resident_;
  std::unique_ptr<cuda::TiledLevels> tiled_;
  std::unique_ptr<cuda::PersistentLevels> persistent_;
  std::unique_ptr<cuda::HostCopier> copier_;
  std::unique_ptr<cuda::EpsilonStop> stop_;      ///< when params_.epsilon > 0
  std::unique_ptr<cuda::TextureStage> texture_;  ///< when params_.texture_alpha > 0
  cuda::Storage storage_ = cuda::Storage::f32;
  fk::GaussTaps presmooth_taps_, zoom_taps_;
  cudaStream_t stream_ = nullptr;
  cudaEvent_t done_ = nullptr;  ///< recorded after each frame, on the stream it ran on
  bool have_done_ = false;
  cudaStream_t last_stream_ = nullptr;
  std::vector<cudaEvent_t> chunk_events_;  ///< chunked_frame: one per download chunk
  std::vector<std::unique_ptr<SizeEntry>> cache_;
  SizeEntry* cur_ = nullptr;
  unsigned long long tick_ = 0;
  cuda::FrameCacheStats stats_;
  struct Mark {
    std::string stage;
    int level;
    cudaEvent_t event;
  };
  std::vector<Mark> marks_;
  bool profiling_ = false;
  std::vector<float> init_host_;  ///< compute_from: the initial flow, planar, sanitised
  bool init_pending_ = false;     ///< compute_from's frame is being enqueued
};

}  // namespace

std::unique_ptr<FlowSolver> make_cuda_frame_solver(
    const Config& config, std::unique_ptr<cuda::IterationSchedule> schedule,
    const cuda::FrameOptions& options) {
  return std::make_unique<CudaFrameSolver>(config, std::move(schedule), options);
}

}  // namespace flowtune

namespace flowtune::cuda {

FrameTimeline profile_frame(FlowSolver& solver, const Image& i0, const Image& i1, int repeats) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("profile_frame: the solver is not a CUDA frame solver");
  return s->profile(i0, i1, repeats);
}

void compute_flow_device(FlowSolver& solver, const float* i0, const float* i1, int width,
                         int height, float* flow, cudaStream_t stream) {
  auto* s = dynamic_cast<CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("compute_flow_device: the solver is not a CUDA frame solver");
  s->compute_device(i0, i1, width, height, flow, stream);
}

FrameCacheStats frame_cache_stats(const FlowSolver& solver) {
  const auto* s = dynamic_cast<const CudaFrameSolver*>(&solver);
  if (!s) throw std::invalid_argument("frame_cache_stats: the solver is not a CUDA frame solver");
  return s->stats();
}

}  // namespace flowtune::cuda
