// The GPU solver of lk_cuda: one NVRTC build per config, device planes per pyramid level
// (grown on demand, kept between frames); per frame: upload both frames, build both
// pyramids (flow_downsample), then per level coarsest first: in f16 the level's I0 and I1
// as binary16 (lk_to_half), lk_gradients (unless fused)
// and lk_level (initial flow from the coarser level, window solve, iterations); download the
// finest level's flow. No host synchronisation inside a frame except the final download.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <vector>

#include "kernels/cuda/lk_core.cuh"
#include "kernels/localflow/pyramid.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/localflow/cuda/device_buffer.hpp"
#include "variants/localflow/cuda/launch_grid.hpp"
#include "variants/localflow/cuda/lk_cuda_variant.hpp"

namespace flowtune::localflow_cuda {
namespace {

class LkCudaSolver : public FlowSolver {
 public:
  explicit LkCudaSolver(const Config& config)
      : p_(lk_params_of(config)), s_(lk_solver_settings(config)) {
    if (!cuda::device_available()) throw std::runtime_error("lk_cuda: no CUDA device available");
    const std::vector<float> taps = localflow::lk_window_taps(p_);
    for (std::size_t i = 0; i < taps.size(); ++i) weights_.g[i] = taps[i];
    const auto build =
        cuda::nvrtc_build(kLkSource, lk_defines(config), cuda::current_device_arch());
    module_ = std::make_unique<cuda::LoadedModule>(build->cubin);
    level_ = module_->function("lk_level");
    gradients_ = module_->function("lk_gradients");
    downsample_ = module_->function("flow_downsample");
    to_half_ = module_->function("lk_to_half");
    if (s_.shared_bytes > 48 * 1024) module_->set_max_dynamic_shared("lk_level", s_.shared_bytes);
  }

  FlowField compute(const Image& i0, const Image& i1) override {
    localflow::check_frame_pair(i0, i1, "lk_cuda");
    const int levels = p_.levels;
    const std::size_t n_levels = std::size_t(levels);
    std::vector<int> ws(n_levels), hs(n_levels);
    ws[0] = i0.width;
    hs[0] = i0.height;
    for (int l = 1; l < levels; ++l) {
      ws[std::size_t(l)] = ftflow::half_size(ws[std::size_t(l) - 1]);
      hs[std::size_t(l)] = ftflow::half_size(hs[std::size_t(l) - 1]);
    }
    planes_.resize(std::size_t(levels) * 4);  // per level: I0, I1, u, v
    for (int l = 0; l < levels; ++l)
      for (int k = 0; k < 4; ++k)
        planes_[4 * std::size_t(l) + std::size_t(k)].reserve(std::size_t(ws[std::size_t(l)]) *
                                                             hs[std::size_t(l)]);
    const std::size_t n = i0.size();
    ix_.reserve(n);  // float or binary16 elements: room for either
    iy_.reserve(n);
    if (s_.f16) {  // binary16 copies of a level's I0, I1: only (n + 1) / 2 floats each
      h0_.reserve(lk_plane_floats(n, 2));
      h1_.reserve(lk_plane_floats(n, 2));
    }
    cuda::check_cuda(cudaMemcpy(planes_[0].get(), i0.data.data(), n * 4, cudaMemcpyHostToDevice),
                     "upload of I0");
    cuda::check_cuda(cudaMemcpy(planes_[1].get(), i1.data.data(), n * 4, cudaMemcpyHostToDevice),
                     "upload of I1");
    for (int l = 1; l < levels; ++l) {
      const std::size_t L = std::size_t(l);
      for (std::size_t f = 0; f < 2; ++f) {
        const float* in = planes_[4 * (L - 1) + f].get();
        float* out = planes_[4 * L + f].get();
        int w = ws[L - 1], h = hs[L - 1];
        void* args[] = {&in, &w, &h, &out};
        module_->launch(downsample_, dim3(blocks_for((long long)ws[L] * hs[L], 256)), dim3(256), 0,
                        nullptr, args);
      }
    }
    for (int l = levels - 1; l >= 0; --l) {
      const std::size_t L = std::size_t(l);
      const bool coarsest = l == levels - 1;
      const void* a = planes_[4 * L].get();  // float, or binary16 bits (f16)
      const void* b = planes_[4 * L + 1].get();
      void* gx = ix_.get();
      void* gy = iy_.get();
      int w = ws[L], h = hs[L];
      if (s_.f16) {  // this level's I0 and I1 as binary16 (the pyramid itself is float)
        for (int f = 0; f < 2; ++f) {
          const float* in = planes_[4 * L + std::size_t(f)].get();
          long long count = (long long)w * h;
          void* out = f == 0 ? static_cast<void*>(h0_.get()) : static_cast<void*>(h1_.get());
          void* args[] = {&in, &count, &out};
          module_->launch(to_half_, dim3(blocks_for(count, 256)), dim3(256), 0, nullptr, args);
        }
        a = h0_.get();
        b = h1_.get();
      }
      if (!s_.fused) {
        void* args[] = {&a, &w, &h, &gx, &gy};
        module_->launch(gradients_, dim3(blocks_for((long long)w * h, 256)), dim3(256), 0, nullptr,
                        args);
      }
      const float* cu = coarsest ? nullptr : planes_[4 * (L + 1) + 2].get();
      const float* cv = coarsest ? nullptr : planes_[4 * (L + 1) + 3].get();
      int cw = coarsest ? 0 : ws[L + 1], ch = coarsest ? 0 : hs[L + 1];
      float* u = planes_[4 * L + 2].get();
      float* v = planes_[4 * L + 3].get();
      int r = p_.window / 2, iterations = p_.iterations;
      void* args[] = {&a,  &b,  &gx, &gy, &w, &h,          &cu,      &cv,
                      &cw, &ch, &u,  &v,  &r, &iterations, &weights_};
      module_->launch(level_, dim3(blocks_for(w, s_.block_x), blocks_for(h, s_.block_y)),
                      dim3(unsigned(s_.block_x), unsigned(s_.block_y)), unsigned(s_.shared_bytes),
                      nullptr, args);
    }
    FlowField out(i0.width, i0.height);
    // cudaMemcpy on the legacy default stream waits for the kernels and reports their faults.
    cuda::check_cuda(cudaMemcpy(out.u.data(), planes_[2].get(), n * 4, cudaMemcpyDeviceToHost),
                     "download of u (or a fault of a Lucas-Kanade kernel)");
    cuda::check_cuda(cudaMemcpy(out.v.data(), planes_[3].get(), n * 4, cudaMemcpyDeviceToHost),
                     "download of v");
    return out;
  }

 private:
  localflow::LkParams p_;
  // Every launch setting comes from the config, f16 included (f32 configs never run
  // lk_to_half nor hand binary16 buffers to float kernels).
  LkSolverSettings s_;
  ftflow::LkWeights weights_{};
  std::unique_ptr<cuda::LoadedModule> module_;
  CUfunction level_ = nullptr, gradients_ = nullptr, downsample_ = nullptr, to_half_ = nullptr;
  std::vector<DeviceFloats> planes_;
  DeviceFloats ix_, iy_, h0_, h1_;  // h0_, h1_: the level's I0, I1 as binary16 (f16)
};

}  // namespace

std::unique_ptr<FlowSolver> make_lk_cuda_solver(const Config& config) {
  return std::make_unique<LkCudaSolver>(config);
}

}  // namespace flowtune::localflow_cuda
