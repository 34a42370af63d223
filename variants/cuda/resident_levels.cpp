// The resident-level kernel's build and launch (see resident_levels.hpp).
#include "variants/cuda/resident_levels.hpp"

#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune::cuda {

Config resident_kernel_config(const std::string& precision) {
  Config c;
  c.precision = precision;
  c.tunables = {{"resident_threads", kResidentThreads}};
  return c;
}

struct ResidentLevels::Impl {
  Storage storage = Storage::f32;
  int max_pixels = 0;
  int optin_bytes = 0;
  struct {
    float lt, theta, taut;
  } prm{};
  std::shared_ptr<const NvrtcBuild> build;
  std::unique_ptr<LoadedModule> module;
  CUfunction kernel = nullptr;
  LaunchOrder order = LaunchOrder::stream;
};

ResidentLevels::ResidentLevels(const Config& config, int max_pixels, LaunchOrder order)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.order = order;
  m.storage = storage_of(config.precision);
  m.max_pixels = max_pixels;
  const Tvl1Params p = tvl1_params_of(config);
  m.prm = {float(p.lambda * p.theta), float(p.theta), float(p.tau / p.theta)};
  if (max_pixels <= 0) return;
  m.build =
      nvrtc_build("tvl1_resident.cuh", nvrtc_defines(resident_kernel_config(config.precision)),
                  current_device_arch());
  m.module = std::make_unique<LoadedModule>(m.build->cubin);
  m.kernel = m.module->function("ft_resident");
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  check_cuda(
      cudaDeviceGetAttribute(&m.optin_bytes, cudaDevAttrMaxSharedMemoryPerBlockOptin, device),
      "cudaDeviceGetAttribute(MaxSharedMemoryPerBlockOptin)");
  m.module->set_max_dynamic_shared("ft_resident", m.optin_bytes);
}

ResidentLevels::~ResidentLevels() = default;

std::size_t ResidentLevels::shared_bytes(int width, int height) const {
  const std::size_t pair = impl_->storage == Storage::f32 ? 8 : 4;
  return std::size_t(width) * std::size_t(height) * (4 * pair + pair / 2);
}

bool ResidentLevels::fits(int width, int height) const {
  const Impl& m = *impl_;
  return m.kernel && width > 0 && height > 0 &&
         std::size_t(width) * std::size_t(height) <= std::size_t(m.max_pixels) &&
         shared_bytes(width, height) <= std::size_t(m.optin_bytes);
}

void ResidentLevels::run(const DeviceFields& f, int iterations, cudaStream_t stream) {
  Impl& m = *impl_;
  if (!fits(f.width, f.height))
    throw std::invalid_argument("ResidentLevels::run: a " + std::to_string(f.width) + "x" +
                                std::to_string(f.height) + " level does not fit one block");
  if (f.storage != m.storage)
    throw std::invalid_argument("ResidentLevels::run: fields' storage is not the config's");
  if (iterations <= 0) return;
  int w = f.width, h = f.height, its = iterations;
  void* grad = f.grad;
  void* rho = f.rho_c;
  void* u = f.u;
  void* p1 = f.p1;
  void* p2 = f.p2;
  void* args[] = {&grad, &rho, &u, &p1, &p2, &w, &h, &m.prm, &its};
  m.module->launch(m.kernel, dim3(1), dim3(32, kResidentThreads / 32), unsigned(shared_bytes(w, h)),
                   stream, args, m.order);
}

}  // namespace flowtune::cuda
