// The GPU solver of feat_cuda: per frame, the corners and their KLT tracks on the host
// (kernels/localflow/features.hpp, the CPU reference's functions), the hypothesis space
// (method 2) on the host, then one feat_dense launch over the frame and the download of the
// flow and the unclassified flags. Device buffers grow on demand and are kept between frames.
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <vector>

#include "kernels/localflow/features.hpp"
#include "kernels/localflow/pyramid.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/localflow/cuda/device_buffer.hpp"
#include "variants/localflow/cuda/feat_cuda_variant.hpp"
#include "variants/localflow/cuda/launch_grid.hpp"

namespace flowtune::localflow_cuda {
namespace {

void upload(DeviceFloats& d, const void* host, std::size_t bytes, const char* what) {
  d.reserve((bytes + 3) / 4 + 1);
  if (bytes) cuda::check_cuda(cudaMemcpy(d.get(), host, bytes, cudaMemcpyHostToDevice), what);
}

class FeatCudaSolver : public FeatureSolver {
 public:
  explicit FeatCudaSolver(const Config& config)
      : p_(feat_params_of(config)),
        bx_(config.tunable("block_x")),
        by_(config.tunable("block_y")),
        shared_(feat_shared_bytes(config.tunable("shared_features"),
                                  config.tunable("features_per_tb"))) {
    if (!cuda::device_available()) throw std::runtime_error("feat_cuda: no CUDA device available");
    const auto build =
        cuda::nvrtc_build(kFeatSource, feat_defines(config), cuda::current_device_arch());
    module_ = std::make_unique<cuda::LoadedModule>(build->cubin);
    dense_ = module_->function("feat_dense");
  }

  FlowField compute(const Image& i0, const Image& i1) override {
    localflow::check_frame_pair(i0, i1, "feat_cuda");
    const std::vector<ftflow::Feature> fs =
        localflow::track_corners(i0, i1, localflow::shi_tomasi_corners(i0, p_.features));
    const localflow::HypothesisSpace hs =
        p_.method == 2 ? localflow::hypothesis_space(fs, p_) : localflow::HypothesisSpace{};
    const std::size_t n = i0.size();
    upload(i0_, i0.data.data(), n * 4, "upload of I0");
    upload(i1_, i1.data.data(), n * 4, "upload of I1");
    upload(features_, fs.data(), fs.size() * sizeof(ftflow::Feature), "upload of the features");
    upload(fu_, hs.fu.data(), hs.fu.size() * 4, "upload of fu");
    upload(fv_, hs.fv.data(), hs.fv.size() * 4, "upload of fv");
    if (p_.method == 2) scores_.reserve(n * std::size_t(hs.nu) * std::size_t(hs.nv));
    u_.reserve(n);
    v_.reserve(n);
    flags_.reserve(n / 4 + 1);
    int method = p_.method, nf = int(fs.size()), nu = hs.nu, nv = hs.nv, w = i0.width,
        h = i0.height, tested = p_.hypotheses;
    float u0 = hs.u0, v0 = hs.v0, step = hs.step;
    float inv2ss = float(1 / (2 * p_.sigma_space * p_.sigma_space));
    float inv2sc = float(1 / (2 * p_.sigma_color * p_.sigma_color));
    float cutoff = localflow::kVoteCutoff, threshold = float(p_.change_threshold);
    const void* f = features_.get();
    const float* fu = fu_.get();
    const float* fv = fv_.get();
    const float* a = i0_.get();
    const float* b = i1_.get();
    float* scores = scores_.get();
    float* u = u_.get();
    float* v = v_.get();
    void* flags = flags_.get();
    void* args[] = {&method, &f,      &nf,        &fu,     &fv, &nu, &nv,     &u0,
                    &v0,     &step,   &a,         &b,      &w,  &h,  &inv2ss, &inv2sc,
                    &cutoff, &tested, &threshold, &scores, &u,  &v,  &flags};
    module_->launch(dense_, dim3(blocks_for(w, bx_), blocks_for(h, by_)),
                    dim3(unsigned(bx_), unsigned(by_)), unsigned(shared_), nullptr, args);
    FlowField out(w, h);
    std::vector<unsigned char> unclassified(n);
    // cudaMemcpy on the legacy default stream waits for the kernel and reports its faults.
    cuda::check_cuda(cudaMemcpy(out.u.data(), u_.get(), n * 4, cudaMemcpyDeviceToHost),
                     "download of u (or a fault of feat_dense)");
    cuda::check_cuda(cudaMemcpy(out.v.data(), v_.get(), n * 4, cudaMemcpyDeviceToHost),
                     "download of v");
    cuda::check_cuda(cudaMemcpy(unclassified.data(), flags_.get(), n, cudaMemcpyDeviceToHost),
                     "download of the unclassified flags");
    std::size_t count = 0;
    for (unsigned char c : unclassified) count += c;
    unclassified_ = n ? double(count) / double(n) : 0;
    return out;
  }
  double last_unclassified_fraction() const override { return unclassified_; }

 private:
  localflow::FeatParams p_;
  int bx_, by_, shared_;
  std::unique_ptr<cuda::LoadedModule> module_;
  CUfunction dense_ = nullptr;
  DeviceFloats i0_, i1_, features_, fu_, fv_, scores_, u_, v_, flags_;
  double unclassified_ = 0;
};

}  // namespace

std::unique_ptr<FlowSolver> make_feat_cuda_solver(const Config& config) {
  return std::make_unique<FeatCudaSolver>(config);
}

}  // namespace flowtune::localflow_cuda
