// The GPU solver of bm_cuda: one NVRTC build per config, device planes per pyramid level
// (grown on demand, kept between frames); per frame: upload both frames, build both
// pyramids (flow_downsample), match every level coarsest first (bm_match_level), densify
// the finest level's block flows (bm_densify), download. No host synchronisation inside a
// frame except the final download.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <vector>

#include "kernels/cuda/flow_core.cuh"
#include "kernels/localflow/pyramid.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/localflow/cuda/bm_cuda_variant.hpp"
#include "variants/localflow/cuda/device_buffer.hpp"
#include "variants/localflow/cuda/launch_grid.hpp"

namespace flowtune::localflow_cuda {
namespace {

class BmCudaSolver : public FlowSolver {
 public:
  explicit BmCudaSolver(const Config& config)
      : p_(bm_params_of(config)),
        threads_(config.tunable("threads")),
        per_tb_(config.tunable("blocks_per_tb")),
        shared_(bm_shared_bytes(p_.block, p_.radius, per_tb_, config.tunable("tile_search"))) {
    if (!cuda::device_available()) throw std::runtime_error("bm_cuda: no CUDA device available");
    const auto build =
        cuda::nvrtc_build(kBmSource, bm_defines(config), cuda::current_device_arch());
    module_ = std::make_unique<cuda::LoadedModule>(build->cubin);
    match_ = module_->function("bm_match_level");
    densify_ = module_->function("bm_densify");
    downsample_ = module_->function("flow_downsample");
    if (shared_ > 48 * 1024) module_->set_max_dynamic_shared("bm_match_level", shared_);
  }

  FlowField compute(const Image& i0, const Image& i1) override {
    localflow::check_frame_pair(i0, i1, "bm_cuda");
    const int levels = p_.levels;
    const std::size_t n_levels = std::size_t(levels);
    std::vector<int> ws(n_levels), hs(n_levels), nbx(n_levels), nby(n_levels);
    ws[0] = i0.width;
    hs[0] = i0.height;
    for (int l = 1; l < levels; ++l) {
      ws[std::size_t(l)] = ftflow::half_size(ws[std::size_t(l) - 1]);
      hs[std::size_t(l)] = ftflow::half_size(hs[std::size_t(l) - 1]);
    }
    planes_.resize(std::size_t(levels) * 4);
    for (int l = 0; l < levels; ++l) {
      const std::size_t L = std::size_t(l);
      nbx[L] = (ws[L] + p_.block - 1) / p_.block;
      nby[L] = (hs[L] + p_.block - 1) / p_.block;
      planes_[4 * L].reserve(std::size_t(ws[L]) * hs[L]);        // I0 of level l
      planes_[4 * L + 1].reserve(std::size_t(ws[L]) * hs[L]);    // I1
      planes_[4 * L + 2].reserve(std::size_t(nbx[L]) * nby[L]);  // block u
      planes_[4 * L + 3].reserve(std::size_t(nbx[L]) * nby[L]);  // block v
    }
    const std::size_t n = i0.size();
    u_.reserve(n);
    v_.reserve(n);
    cuda::check_cuda(cudaMemcpy(planes_[0].get(), i0.data.data(), n * 4, cudaMemcpyHostToDevice),
                     "upload of I0");
    cuda::check_cuda(cudaMemcpy(planes_[1].get(), i1.data.data(), n * 4, cudaMemcpyHostToDevice),
                     "upload of I1");
    for (int l = 1; l < levels; ++l) {
      const std::size_t L = std::size_t(l);
      for (int f = 0; f < 2; ++f) {
        const float* in = planes_[4 * (L - 1) + std::size_t(f)].get();
        float* out = planes_[4 * L + std::size_t(f)].get();
        int w = ws[L - 1], h = hs[L - 1];
        void* args[] = {&in, &w, &h, &out};
        module_->launch(downsample_, dim3(blocks_for((long long)ws[L] * hs[L], 256)), dim3(256), 0,
                        nullptr, args);
      }
    }
    for (int l = levels - 1; l >= 0; --l) {
      const std::size_t L = std::size_t(l);
      const bool coarsest = l == levels - 1;
      const float* a = planes_[4 * L].get();
      const float* b = planes_[4 * L + 1].get();
      const float* cu = coarsest ? nullptr : planes_[4 * (L + 1) + 2].get();
      const float* cv = coarsest ? nullptr : planes_[4 * (L + 1) + 3].get();
      int cnbx = coarsest ? 0 : nbx[L + 1], cnby = coarsest ? 0 : nby[L + 1];
      int cw = coarsest ? 0 : ws[L + 1], ch = coarsest ? 0 : hs[L + 1];
      float* bu = planes_[4 * L + 2].get();
      float* bv = planes_[4 * L + 3].get();
      int w = ws[L], h = hs[L], block = p_.block, radius = p_.radius, sim = p_.similarity,
          sub = p_.subpixel;
      void* args[] = {&a,  &b,  &w,  &h,  &cu,    &cv,     &cnbx, &cnby,
                      &cw, &ch, &bu, &bv, &block, &radius, &sim,  &sub};
      module_->launch(match_, dim3(blocks_for((long long)nbx[L] * nby[L], per_tb_)),
                      dim3(unsigned(threads_ * per_tb_)), unsigned(shared_), nullptr, args);
    }
    {
      const float* bu = planes_[2].get();
      const float* bv = planes_[3].get();
      float* u = u_.get();
      float* v = v_.get();
      int nx = nbx[0], ny = nby[0], block = p_.block, w = ws[0], h = hs[0];
      void* args[] = {&bu, &bv, &nx, &ny, &block, &w, &h, &u, &v};
      module_->launch(densify_, dim3(blocks_for((long long)n, 256)), dim3(256), 0, nullptr, args);
    }
    FlowField out(i0.width, i0.height);
    // cudaMemcpy on the legacy default stream waits for the kernels and reports their faults.
    cuda::check_cuda(cudaMemcpy(out.u.data(), u_.get(), n * 4, cudaMemcpyDeviceToHost),
                     "download of u (or a fault of a block matching kernel)");
    cuda::check_cuda(cudaMemcpy(out.v.data(), v_.get(), n * 4, cudaMemcpyDeviceToHost),
                     "download of v");
    return out;
  }

 private:
  localflow::BmParams p_;
  int threads_, per_tb_, shared_;
  std::unique_ptr<cuda::LoadedModule> module_;
  CUfunction match_ = nullptr, densify_ = nullptr, downsample_ = nullptr;
  std::vector<DeviceFloats> planes_;
  DeviceFloats u_, v_;
};

}  // namespace

std::unique_ptr<FlowSolver> make_bm_cuda_solver(const Config& config) {
  return std::make_unique<BmCudaSolver>(config);
}

}  // namespace flowtune::localflow_cuda
