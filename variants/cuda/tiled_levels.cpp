// The tiled kernel's build and launches (see tiled_levels.hpp).
#include "variants/cuda/tiled_levels.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/ping_pong.hpp"
#include "variants/kernel_defines.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune::cuda {

TiledShape tiled_shape_of(const Config& config) {
  TiledShape s;
  const auto get = [&](const char* name, int fallback) {
    const auto it = config.tunables.find(name);
    return it == config.tunables.end() ? fallback : it->second;
  };
  s.threads_per_side = get("tiled_t", kTiledThreadsPerSide);
  s.depth = get("tiled_depth", kTiledDepth);
  s.coarsen = get("tiled_coarsen", kTiledCoarsen);
  return s;
}

int tiled_shared_bytes(const TiledShape& shape, const std::string& precision) {
  const int pair = precision == "f16" ? 4 : 8;
  return 3 * shape.region() * shape.region() * pair;
}

std::optional<std::string> tiled_shape_invalid_reason(const TiledShape& shape,
                                                      const std::string& precision) {
  const int t = shape.threads_per_side;
  if (t != 8 && t != 16 && t != 32) return "tiled_t must be 8, 16 or 32, got " + std::to_string(t);
  if (shape.depth < 1) return "tiled_depth must be >= 1, got " + std::to_string(shape.depth);
  if (shape.coarsen != 1 && shape.coarsen != 2 && shape.coarsen != 4)
    return "tiled_coarsen must be 1, 2 or 4, got " + std::to_string(shape.coarsen);
  if (shape.tile() < 1)
    return "tiled_depth=" + std::to_string(shape.depth) + " leaves no output tile in a region of " +
           std::to_string(shape.region()) + " pixels per side (tiled_t x tiled_coarsen must " +
           "exceed 2 x tiled_depth)";
  const int bytes = tiled_shared_bytes(shape, precision);
  if (bytes > 48 * 1024)
    return "the tiled kernel's region of " + std::to_string(shape.region()) + "^2 pixels needs " +
           std::to_string(bytes) + " bytes of static shared memory in " + precision +
           " (at most 49152)";
  return std::nullopt;
}

Config tiled_kernel_config(const std::string& precision, const TiledShape& shape,
                           int median_window) {
  Config c;
  c.precision = precision;
  c.tunables = {{"tiled_t", shape.threads_per_side}, {"tiled_depth", shape.depth}};
  if (shape.coarsen != 1) c.tunables["tiled_coarsen"] = shape.coarsen;
  if (median_window != 0) c.tunables["tiled_median"] = median_window;
  return c;
}

std::vector<std::string> tiled_kernel_defines(const std::string& precision, const TiledShape& shape,
                                              int median_window) {
  const std::string macro = precision_macro(precision);
  if (macro.empty())
    throw std::invalid_argument("tiled_kernel_defines: unknown precision '" + precision + "'");
  std::vector<std::string> defines = {macro};
  for (const auto& [name, value] : tiled_kernel_config(precision, shape, median_window).tunables)
    defines.push_back(kernel_define(name, value));
  return defines;
}

struct TiledLevels::Impl {
  Storage storage = Storage::f32;
  TiledShape shape;
  int max_pixels = 0;
  struct {
    float lt, theta, taut;
  } prm{};
  std::shared_ptr<const NvrtcBuild> build;
  std::unique_ptr<LoadedModule> module;
  CUfunction kernel = nullptr;
  int median_window = 0;  ///< the window of median_module, 0 = not built
  std::shared_ptr<const NvrtcBuild> median_build;
  std::unique_ptr<LoadedModule> median_module;
  CUfunction median_kernel = nullptr;
  Scratch scratch;
  LaunchOrder order = LaunchOrder::stream;
};

TiledLevels::TiledLevels(const Config& config, int max_pixels, LaunchOrder order, int median_window)
    : impl_(std::make_unique<Impl>()) {
  Impl& m = *impl_;
  m.order = order;
  m.storage = storage_of(config.precision);
  m.max_pixels = max_pixels;
  m.shape = tiled_shape_of(config);
  if (auto why = tiled_shape_invalid_reason(m.shape, config.precision))
    throw std::invalid_argument("TiledLevels: " + *why);
  const Tvl1Params p = tvl1_params_of(config);
  m.prm = {float(p.lambda * p.theta), float(p.theta), float(p.tau / p.theta)};
  if (max_pixels <= 0) return;
  m.build = nvrtc_build("tvl1_tiled.cuh", tiled_kernel_defines(config.precision, m.shape),
                        current_device_arch());
  m.module = std::make_unique<LoadedModule>(m.build->cubin);
  m.kernel = m.module->function("ft_tiled");
  if ((median_window == 3 || median_window == 5) && m.shape.depth > median_window / 2) {
    m.median_window = median_window;
    m.median_build = nvrtc_build("tvl1_tiled.cuh",
                                 tiled_kernel_defines(config.precision, m.shape, median_window),
                                 current_device_arch());
    m.median_module = std::make_unique<LoadedModule>(m.median_build->cubin);
    m.median_kernel = m.median_module->function("ft_tiled");
  }
}

TiledLevels::~TiledLevels() = default;

bool TiledLevels::takes(int width, int height) const {
  return impl_->kernel && width > 0 && height > 0 &&
         std::size_t(width) * std::size_t(height) <= std::size_t(impl_->max_pixels);
}

bool TiledLevels::fuses_median(int median_window) const {
  return impl_->median_kernel && median_window != 0 && median_window == impl_->median_window;
}

void TiledLevels::run(const DeviceFields& f, int iterations, cudaStream_t stream,
                      int median_window) {
  Impl& m = *impl_;
  if (!takes(f.width, f.height))
    throw std::invalid_argument("TiledLevels::run: a " + std::to_string(f.width) + "x" +
                                std::to_string(f.height) + " level is not a tiled level");
  if (f.storage != m.storage)
    throw std::invalid_argument("TiledLevels::run: fields' storage is not the config's");
  if (median_window != 0 && !fuses_median(median_window))
    throw std::invalid_argument("TiledLevels::run: median_window " + std::to_string(median_window) +
                                " cannot run in the tiled kernel of depth " +
                                std::to_string(m.shape.depth) +
                                " (3 or 5 as built, and depth > median_window / 2)");
  if (iterations <= 0) return;
  const std::size_t pair = m.storage == Storage::f32 ? 8 : 4;
  const std::size_t bytes = pair * std::size_t(f.width) * std::size_t(f.height);
  m.scratch.ensure(bytes);
  const int tile = m.shape.tile();
  const dim3 block(unsigned(m.shape.threads_per_side), unsigned(m.shape.threads_per_side));
  const dim3 grid(unsigned((f.width + tile - 1) / tile), unsigned((f.height + tile - 1) / tile));
  int w = f.width, h = f.height;
  void* grad = f.grad;
  void* rho = f.rho_c;
  const PingPong sets(f, m.scratch, bytes);
  // Without the median: depth iterations per launch, the remainder last. With it, the last
  // launch runs at most depth - radius iterations (its tile and the median's ring exact), the
  // others depth each, the remainder first.
  const int depth = m.shape.depth;
  const int last = median_window ? std::min(depth - median_window / 2, iterations) : 0;
  const int before = iterations - last;
  const int first = before % depth == 0 ? depth : before % depth;
  int launches = 0;
  for (int done = 0; done < iterations; ++launches) {
    int k = !median_window   ? std::min(depth, iterations - done)
            : done == before ? last
            : done == 0      ? first
                             : depth;
    done += k;
    const bool median = median_window != 0 && done == iterations;
    auto src = sets.src(launches), dst = sets.dst(launches);
    void* args[] = {&grad,   &rho,    &src[0], &src[1], &src[2], &dst[0],
                    &dst[1], &dst[2], &w,      &h,      &m.prm,  &k};
    if (median)
      m.median_module->launch(m.median_kernel, grid, block, 0, stream, args, m.order);
    else
      m.module->launch(m.kernel, grid, block, 0, stream, args, m.order);
  }
  sets.finish(launches, stream);
}

}  // namespace flowtune::cuda
