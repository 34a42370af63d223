// The persistent kernel's build and cooperative launch (see persistent_levels.hpp).
#include "variants/cuda/persistent_levels.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/ping_pong.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune::cuda {

Config persistent_kernel_config(const std::string& precision, int syncs, int threads) {
  if (syncs != 1 && syncs != 2)
    throw std::invalid_argument("persistent levels: syncs must be 1 or 2, got " +
                                std::to_string(syncs));
  if (threads != 128 && threads != 256 && threads != 512 && threads != 1024)
    throw std::invalid_argument("persistent levels: threads must be 128, 256, 512 or 1024, got " +
                                std::to_string(threads));
  Config c;
  c.precision = precision;
  c.tunables = {{"persistent_threads", threads}, {"persistent_syncs", syncs}};
  return c;
}

struct PersistentLevels::Impl {
  Storage storage = Storage::f32;
  int max_pixels = 0;
  int syncs = 1;
  int threads = kPersistentThreads;
  int sms = 0;
  int resident_per_sm = 0;
  int per_sm = 0;
  struct {
    float lt, theta, taut;
  } prm{};
  std::shared_ptr<const NvrtcBuild> build;
  std::unique_ptr<LoadedModule> module;
  CUfunction kernel = nullptr;
  Scratch scratch;             ///< the second set of the ping-pong (syncs 1)
  double* partials = nullptr;  ///< one double per block of the largest grid
  ~Impl() {
    if (partials) cudaFree(partials);
  }
};

PersistentLevels::PersistentLevels(const Config& config, int max_pixels, int syncs,
                                   int blocks_per_sm, int threads)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  const Config kc = persistent_kernel_config(config.precision, syncs, threads);
  m.threads = threads;
  if (blocks_per_sm < 0)
    throw std::invalid_argument("persistent levels: blocks_per_sm must be >= 0, got " +
                                std::to_string(blocks_per_sm));
  m.storage = storage_of(config.precision);
  m.max_pixels = max_pixels;
  m.syncs = syncs;
  const Tvl1Params p = tvl1_params_of(config);
  m.prm = {float(p.lambda * p.theta), float(p.theta), float(p.tau / p.theta)};
  if (max_pixels <= 0) return;
  int device = 0, cooperative = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device),
             "cudaDeviceGetAttribute(CooperativeLaunch)");
  if (!cooperative) return;  // no persistent level: the frame falls back
  check_cuda(cudaDeviceGetAttribute(&m.sms, cudaDevAttrMultiProcessorCount, device),
             "cudaDeviceGetAttribute(MultiProcessorCount)");
  m.build = nvrtc_build("tvl1_persistent.cuh", nvrtc_defines(kc), current_device_arch());
  m.module = std::make_unique<LoadedModule>(m.build->cubin);
  m.kernel = m.module->function("ft_persistent");
  m.resident_per_sm = m.module->max_active_blocks_per_sm(m.kernel, threads, 0);
  m.per_sm = blocks_per_sm > 0 ? std::min(blocks_per_sm, m.resident_per_sm) : m.resident_per_sm;
  if (m.per_sm > 0)
    check_cuda(cudaMalloc(reinterpret_cast<void**>(&m.partials),
                          sizeof(double) * std::size_t(m.per_sm) * std::size_t(m.sms)),
               "cudaMalloc (persistent levels' partials)");
}

PersistentLevels::~PersistentLevels() = default;

bool PersistentLevels::takes(int width, int height) const {
  const Impl& m = *impl_;
  return m.kernel && m.per_sm > 0 && width > 0 && height > 0 &&
         std::size_t(width) * std::size_t(height) <= std::size_t(m.max_pixels);
}

int PersistentLevels::blocks_per_sm() const {
  return impl_->kernel ? impl_->per_sm : 0;
}

int PersistentLevels::resident_blocks_per_sm() const {
  return impl_->kernel ? impl_->resident_per_sm : 0;
}

int PersistentLevels::threads() const {
  return impl_->threads;
}

int PersistentLevels::grid_blocks(long long pixels) const {
  const Impl& m = *impl_;
  const long long need = (pixels + m.threads - 1) / m.threads;
  return int(std::max(1LL, std::min(need, (long long)(m.per_sm) * m.sms)));
}

KernelResources PersistentLevels::resources() const {
  if (!impl_->module) throw std::runtime_error("persistent levels: nothing built");
  return impl_->module->resources("ft_persistent", impl_->threads, 0);
}

void PersistentLevels::run(const DeviceFields& f, int iterations, cudaStream_t stream,
                           double epsilon, int check_every, int* done_device) {
  Impl& m = *impl_;
  if (!takes(f.width, f.height))
    throw std::invalid_argument("PersistentLevels::run: a " + std::to_string(f.width) + "x" +
                                std::to_string(f.height) + " level is not a persistent level");
  if (f.storage != m.storage)
    throw std::invalid_argument("PersistentLevels::run: fields' storage is not the config's");
  if (epsilon > 0 && check_every < 1)
    throw std::invalid_argument("PersistentLevels::run: epsilon > 0 needs check_every >= 1, got " +
                                std::to_string(check_every));
  if (iterations <= 0) return;
  const std::size_t pair = m.storage == Storage::f32 ? 8 : 4;
  const std::size_t bytes = pair * std::size_t(f.width) * std::size_t(f.height);
  void* u2 = nullptr;
  void* p12 = nullptr;
  void* p22 = nullptr;
  if (m.syncs == 1) {
    m.scratch.ensure(bytes);
    u2 = m.scratch[0];
    p12 = m.scratch[1];
    p22 = m.scratch[2];
  }
  int w = f.width, h = f.height, its = iterations;
  int every = epsilon > 0 ? check_every : 0;
  double eps2 = epsilon > 0 ? epsilon * epsilon : 0.0;
  void* grad = f.grad;
  void* rho = f.rho_c;
  void* u = f.u;
  void* p1 = f.p1;
  void* p2 = f.p2;
  double* partials = m.partials;
  int* done = done_device;
  void* args[] = {&grad, &rho, &u,     &p1,  &p2,    &u2,   &p12,      &p22,
                  &w,    &h,   &m.prm, &its, &every, &eps2, &partials, &done};
  const int blocks = grid_blocks((long long)(w)*h);
  m.module->launch_cooperative(m.kernel, dim3(unsigned(blocks)), dim3(unsigned(m.threads)), 0,
                               stream, args);
}

}  // namespace flowtune::cuda
