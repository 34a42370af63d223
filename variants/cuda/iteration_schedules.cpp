// IterationSchedule implementations, each launching the NVRTC build of its scheme's
// kernels/cuda/tvl1_<scheme>.cuh (Romera et al. 2023, sec. 3.3); each scheme's adaptor picks
// one in its make_schedule.
#include "variants/cuda/iteration_schedules.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/ping_pong.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune::cuda {
namespace {

/// Host mirror of ft::Params (tvl1_math.cuh): lt = lambda theta, theta, taut = tau / theta.
struct KernelParams {
  float lt, theta, taut;
};

KernelParams kernel_params(const Tvl1Params& p) {
  return {float(p.lambda * p.theta), float(p.theta), float(p.tau / p.theta)};
}

int ceil_div(int a, int b) {
  return (a + b - 1) / b;
}

/// Shared part: build + load, the config, checks of the fields.
class ScheduleBase : public IterationSchedule {
 public:
  ScheduleBase(const CudaVariant& scheme, const Config& config)
      : config_(config),
        storage_(storage_of(config.precision)),
        prm_(kernel_params(tvl1_params_of(config))) {
    if (auto why = scheme.invalid_reason(config))
      throw std::invalid_argument("make_iteration_schedule: " + *why);
    if (!device_available()) throw std::runtime_error("make_iteration_schedule: no CUDA device");
    shape_ = scheme.launch_shape(config);
    build_ =
        nvrtc_build(device_source_of(scheme.name()), nvrtc_defines(config), current_device_arch());
    module_ = std::make_unique<LoadedModule>(build_->cubin);
  }

  std::vector<KernelResources> resources() const override {
    std::vector<KernelResources> out;
    for (const auto& k : build_->resources) {
      KernelResources r =
          module_->resources(k.kernel, shape_.threads_per_block, shape_.dynamic_shared_bytes);
      r.spill_bytes = k.spill_bytes;  // the driver does not report spills: keep ptxas's
      out.push_back(r);
    }
    return out;
  }

 protected:
  void check_fields(const DeviceFields& f, int iterations) const {
    if (f.storage != storage_)
      throw std::invalid_argument(
          "IterationSchedule::run: fields' storage does not match precision '" + config_.precision +
          "'");
    if (f.width <= 0 || f.height <= 0 || !f.grad || !f.rho_c || !f.u || !f.p1 || !f.p2)
      throw std::invalid_argument("IterationSchedule::run: empty or null fields");
    if (iterations < 0) throw std::invalid_argument("IterationSchedule::run: negative iterations");
  }
  std::size_t pair_bytes() const { return storage_ == Storage::f32 ? 8 : 4; }

  Config config_;
  Storage storage_;
  KernelParams prm_;
  LaunchShape shape_;
  std::shared_ptr<const NvrtcBuild> build_;
  std::unique_ptr<LoadedModule> module_;
};

/// Scheme `global`: per iteration ft_<scheme>_u then ft_<scheme>_p, in place.
class TwoKernelSchedule final : public ScheduleBase {
 public:
  TwoKernelSchedule(const CudaVariant& scheme, const Config& c) : ScheduleBase(scheme, c) {
    u_kernel_ = module_->function("ft_" + scheme.name() + "_u");
    p_kernel_ = module_->function("ft_" + scheme.name() + "_p");
  }
  void run(const DeviceFields& f, int iterations, cudaStream_t stream) override {
    check_fields(f, iterations);
    const int bx = config_.tunable("block_x"), by = config_.tunable("block_y");
    const dim3 block{unsigned(bx), unsigned(by), 1};
    const dim3 grid(unsigned(ceil_div(f.width, bx)), unsigned(ceil_div(f.height, by)));
    int w = f.width, h = f.height;
    void* grad = f.grad;
    void* rho = f.rho_c;
    void* u = f.u;
    void* p1 = f.p1;
    void* p2 = f.p2;
    void* u_args[] = {&grad, &rho, &u, &p1, &p2, &w, &h, &prm_};
    void* p_args[] = {&u, &p1, &p2, &w, &h, &prm_};
    for (int it = 0; it < iterations; ++it) {
      module_->launch(u_kernel_, grid, block, 0, stream, u_args, launch_order_);
      module_->launch(p_kernel_, grid, block, 0, stream, p_args, launch_order_);
    }
  }

 private:
  CUfunction u_kernel_ = nullptr, p_kernel_ = nullptr;
};

/// Scheme `shared_fusion`: one ft_<scheme> launch per iteration, ping-pong between the caller's
/// (u, p1, p2) and a scratch set; an odd count ends with a copy back.
class FusedSchedule final : public ScheduleBase {
 public:
  FusedSchedule(const CudaVariant& scheme, const Config& c) : ScheduleBase(scheme, c) {
    kernel_ = module_->function("ft_" + scheme.name());
  }
  void run(const DeviceFields& f, int iterations, cudaStream_t stream) override {
    check_fields(f, iterations);
    if (iterations == 0) return;
    const std::size_t bytes = pair_bytes() * std::size_t(f.width) * std::size_t(f.height);
    scratch_.ensure(bytes);
    const int bx = config_.tunable("block_x"), by = config_.tunable("block_y");
    const dim3 block{unsigned(bx), unsigned(by), 1};
    const dim3 grid(unsigned(ceil_div(f.width, bx - 2)), unsigned(ceil_div(f.height, by - 2)));
    int w = f.width, h = f.height;
    void* grad = f.grad;
    void* rho = f.rho_c;
    const PingPong sets(f, scratch_, bytes);
    for (int it = 0; it < iterations; ++it) {
      auto src = sets.src(it), dst = sets.dst(it);
      void* args[] = {&grad,   &rho,    &src[0], &src[1], &src[2], &dst[0],
                      &dst[1], &dst[2], &w,      &h,      &prm_};
      module_->launch(kernel_, grid, block, 0, stream, args, launch_order_);
    }
    sets.finish(iterations, stream);
  }

 private:
  CUfunction kernel_ = nullptr;
  Scratch scratch_;
};

/// Schemes `global_pipeline` / `shared_pipeline` (tvl1_pipeline.cuh): launches of ft_<scheme>
/// running FT_DEPTH iterations (the last one the remainder), ping-pong between the caller's
/// set and a scratch set as FusedSchedule; with RingMemory::global each block also gets a ring
/// in a device scratch, with RingMemory::shared its ring is dynamic shared memory (with the
/// opt-in above 48 KiB when optin = 1).
class PipelineSchedule final : public ScheduleBase {
 public:
  PipelineSchedule(const CudaVariant& scheme, const Config& c, RingMemory ring)
      : ScheduleBase(scheme, c), global_ring_(ring == RingMemory::global) {
    const std::string name = "ft_" + scheme.name();
    kernel_ = module_->function(name);
    ring_bytes_ = pipeline_ring_bytes(c);
    if (!global_ring_) {
      if (c.tunable("optin") == 1) {
        module_->set_max_dynamic_shared(name, ring_bytes_);
      } else if (ring_bytes_ > 48 * 1024) {
        throw std::invalid_argument("make_iteration_schedule: " + c.label() + " needs " +
                                    std::to_string(ring_bytes_) +
                                    " bytes of shared memory per block > 48 KiB without optin=1");
      }
    }
  }
  void run(const DeviceFields& f, int iterations, cudaStream_t stream) override {
    check_fields(f, iterations);
    if (iterations == 0) return;
    const std::size_t bytes = pair_bytes() * std::size_t(f.width) * std::size_t(f.height);
    scratch_.ensure(bytes);
    const int w = config_.tunable("w"), depth_max = config_.tunable("depth");
    const int strip_h = config_.tunable("strip_h");
    const dim3 block{unsigned(pipeline_threads(config_)), 1, 1};
    const dim3 grid(unsigned(ceil_div(f.width, w - 2 * depth_max)),
                    unsigned(ceil_div(f.height, strip_h)));
    void* rings = nullptr;
    if (global_ring_) {
      const std::size_t need = std::size_t(grid.x) * grid.y * std::size_t(ring_bytes_);
      if (need > rings_bytes_) {
        // Outgrown rings stay allocated: a frame solver's CUDA Graph of a smaller size
        // still launches with them.
        if (rings_) retired_rings_.push_back(rings_);
        rings_ = nullptr;
        rings_bytes_ = 0;
        check_cuda(cudaMalloc(&rings_, need), "cudaMalloc global_pipeline rings");
        rings_bytes_ = need;
      }
      rings = rings_;
    }
    const unsigned shared = global_ring_ ? 0u : unsigned(ring_bytes_);
    int wd = f.width, h = f.height;
    void* grad = f.grad;
    void* rho = f.rho_c;
    const PingPong sets(f, scratch_, bytes);
    int launches = 0;
    for (int done = 0; done < iterations; ++launches) {
      int depth = std::min(depth_max, iterations - done);
      done += depth;
      auto src = sets.src(launches), dst = sets.dst(launches);
      // ft_shared_pipeline takes 12 parameters: cuLaunchKernel reads only those, not `rings`.
      void* args[] = {&grad,   &rho, &src[0], &src[1], &src[2], &dst[0], &dst[1],
                      &dst[2], &wd,  &h,      &prm_,   &depth,  &rings};
      module_->launch(kernel_, grid, block, shared, stream, args, launch_order_);
    }
    sets.finish(launches, stream);
  }
  ~PipelineSchedule() override {
    if (rings_) cudaFree(rings_);
    for (void* r : retired_rings_) cudaFree(r);
  }

 private:
  bool global_ring_;
  CUfunction kernel_ = nullptr;
  int ring_bytes_ = 0;
  Scratch scratch_;
  void* rings_ = nullptr;
  std::size_t rings_bytes_ = 0;
  std::vector<void*> retired_rings_;
};

}  // namespace

Storage storage_of(const std::string& precision) {
  if (precision == "f32") return Storage::f32;
  if (precision == "f16" || precision == "mixed") return Storage::f16;
  throw std::invalid_argument("storage_of: unknown precision '" + precision +
                              "' (f32, f16, mixed)");
}

std::unique_ptr<IterationSchedule> make_two_kernel_schedule(const CudaVariant& scheme,
                                                            const Config& config) {
  return std::make_unique<TwoKernelSchedule>(scheme, config);
}

std::unique_ptr<IterationSchedule> make_fused_schedule(const CudaVariant& scheme,
                                                       const Config& config) {
  return std::make_unique<FusedSchedule>(scheme, config);
}

std::unique_ptr<IterationSchedule> make_pipeline_schedule(const CudaVariant& scheme,
                                                          const Config& config, RingMemory ring) {
  return std::make_unique<PipelineSchedule>(scheme, config, ring);
}

std::unique_ptr<IterationSchedule> make_iteration_schedule(const Config& config) {
  const CudaVariant* scheme = find_tvl1_cuda_scheme(config.variant);
  if (!scheme)
    throw std::runtime_error("make_iteration_schedule: '" + config.variant +
                             "' is not a CUDA variant (" + tvl1_cuda_scheme_list() + ")");
  return scheme->make_schedule(config);
}

}  // namespace flowtune::cuda
