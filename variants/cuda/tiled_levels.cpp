// The tiled kernel's build and launches (see tiled_levels.hpp).
#include "variants/cuda/tiled_levels.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/ping_pong.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune::cuda {

Config tiled_kernel_config(const std::string& precision) {
  Config c;
  c.precision = precision;
  c.tunables = {{"tiled_t", kTiledThreadsPerSide}, {"tiled_depth", kTiledDepth}};
  return c;
}

struct TiledLevels::Impl {
  Storage storage = Storage::f32;
  int max_pixels = 0;
  struct {
    float lt, theta, taut;
  } prm{};
  std::shared_ptr<const NvrtcBuild> build;
  std::unique_ptr<LoadedModule> module;
  CUfunction kernel = nullptr;
  Scratch scratch;
  LaunchOrder order = LaunchOrder::stream;
};

TiledLevels::TiledLevels(const Config& config, int max_pixels, LaunchOrder order)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.order = order;
  m.storage = storage_of(config.precision);
  m.max_pixels = max_pixels;
  const Tvl1Params p = tvl1_params_of(config);
  m.prm = {float(p.lambda * p.theta), float(p.theta), float(p.tau / p.theta)};
  if (max_pixels <= 0) return;
  m.build = nvrtc_build("tvl1_tiled.cuh", nvrtc_defines(tiled_kernel_config(config.precision)),
                        current_device_arch());
  m.module = std::make_unique<LoadedModule>(m.build->cubin);
  m.kernel = m.module->function("ft_tiled");
}

TiledLevels::~TiledLevels() = default;

bool TiledLevels::takes(int width, int height) const {
  return impl_->kernel && width > 0 && height > 0 &&
         std::size_t(width) * std::size_t(height) <= std::size_t(impl_->max_pixels);
}

void TiledLevels::run(const DeviceFields& f, int iterations, cudaStream_t stream) {
  Impl& m = *impl_;
  if (!takes(f.width, f.height))
    throw std::invalid_argument("TiledLevels::run: a " + std::to_string(f.width) + "x" +
                                std::to_string(f.height) + " level is not a tiled level");
  if (f.storage != m.storage)
    throw std::invalid_argument("TiledLevels::run: fields' storage is not the config's");
  if (iterations <= 0) return;
  const std::size_t pair = m.storage == Storage::f32 ? 8 : 4;
  const std::size_t bytes = pair * std::size_t(f.width) * std::size_t(f.height);
  m.scratch.ensure(bytes);
  const int tile = kTiledThreadsPerSide - 2 * kTiledDepth;
  const dim3 block(kTiledThreadsPerSide, kTiledThreadsPerSide);
  const dim3 grid(unsigned((f.width + tile - 1) / tile), unsigned((f.height + tile - 1) / tile));
  int w = f.width, h = f.height;
  void* grad = f.grad;
  void* rho = f.rho_c;
  const PingPong sets(f, m.scratch, bytes);
  int launches = 0;
  for (int done = 0; done < iterations; ++launches) {
    int k = std::min(kTiledDepth, iterations - done);
    done += k;
    auto src = sets.src(launches), dst = sets.dst(launches);
    void* args[] = {&grad,   &rho,    &src[0], &src[1], &src[2], &dst[0],
                    &dst[1], &dst[2], &w,      &h,      &m.prm,  &k};
    m.module->launch(m.kernel, grid, block, 0, stream, args, m.order);
  }
  sets.finish(launches, stream);
}

}  // namespace flowtune::cuda
