#include "variants/cuda/cuda_variant.hpp"

#include <algorithm>
#include <stdexcept>

#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/nvrtc_build.hpp"
#include "variants/cuda/persistent_levels.hpp"
#include "variants/cuda/resident_levels.hpp"
#include "variants/cuda/resource_table.hpp"
#include "variants/cuda/tiled_levels.hpp"
#include "variants/kernel_defines.hpp"
#include "variants/tvl1_params_of.hpp"

#if __has_include("variants/cuda/cuda_frame_solver.hpp")
#include "variants/cuda/cuda_frame_solver.hpp"
#define FLOWTUNE_HAVE_CUDA_FRAME_SOLVER 1
#endif

namespace flowtune::cuda {

std::vector<std::string> nvrtc_defines(const Config& config) {
  const std::string precision = precision_macro(config.precision);
  if (precision.empty())
    throw std::invalid_argument("nvrtc_defines: unknown precision '" + config.precision +
                                "' in config '" + config.label() + "'");
  std::vector<std::string> defines = {precision};
  // The per-level thresholds choose which kernels a frame launches, not their code: they stay
  // out of the scheme's build, so configs that differ only in them share one compile.
  // rows_per_thread = 1 is the kernel's default (absent = 1): left out, so that configs with
  // it and without it (from before it) share one compile of one kernel.
  // staging = 0 likewise (the kernel's default). The tiled levels' shape (tiled_t,
  // tiled_depth, tiled_coarsen) is the tiled kernel's (tiled_kernel_defines), not the scheme's.
  for (const auto& [name, value] : config.tunables)
    if (!is_level_threshold(name) && !is_tiled_shape_tunable(name) &&
        !(name == rows_per_thread_domain().name && value == 1) &&
        !(name == staging_domain().name && value == 0))
      defines.push_back(kernel_define(name, value));
  return defines;
}

bool is_level_threshold(const std::string& tunable) {
  return tunable == resident_px_domain().name || tunable == tiled_px_domain().name ||
         tunable == persistent_px_domain().name;
}

bool is_tiled_shape_tunable(const std::string& tunable) {
  return tunable == "tiled_t" || tunable == "tiled_depth" || tunable == "tiled_coarsen" ||
         tunable == "tiled_median";
}

TunableDomain persistent_px_domain() {
  return {"persistent_px", {0, 1048576}};
}

int persistent_px_of(const Config& config) {
  const auto it = config.tunables.find(persistent_px_domain().name);
  return it == config.tunables.end() ? 0 : it->second;
}

TunableDomain tiled_px_domain() {
  return {"tiled_px", {65536, 1048576}};
}

int tiled_px_of(const Config& config) {
  const auto it = config.tunables.find(tiled_px_domain().name);
  return it == config.tunables.end() ? 0 : it->second;
}

std::vector<TunableDomain> tiled_shape_domains() {
  return {{"tiled_t", {8, 16, 32}, {kTiledThreadsPerSide}},
          {"tiled_depth", {1, 2, 3, 4, 5, 6, 8, 10, 12, 15}, {kTiledDepth}},
          {"tiled_coarsen", {1, 2, 4}, {kTiledCoarsen}}};
}

TunableDomain resident_px_domain() {
  return {"resident_px", {1024, 4096}};
}

int resident_px_of(const Config& config) {
  const auto it = config.tunables.find(resident_px_domain().name);
  return it == config.tunables.end() ? 0 : it->second;
}

std::string device_source_of(const std::string& variant) {
  return "tvl1_" + variant + ".cuh";
}

std::optional<std::string> CudaVariant::invalid_reason(const Config& config) const {
  const auto p = precisions();
  if (std::find(p.begin(), p.end(), config.precision) == p.end())
    return name() + ": unknown precision '" + config.precision + "'";
  for (const auto& domain : tunables()) {
    // The per-level thresholds: 0 = off, absent = 0 (a config or header without them).
    const bool resident = is_level_threshold(domain.name);
    auto it = config.tunables.find(domain.name);
    if (it == config.tunables.end()) {
      if (resident) continue;  // absent = 0 (resident_px_domain)
      if (domain.name == rows_per_thread_domain().name) continue;  // absent = 1
      if (domain.name == staging_domain().name) continue;          // absent = 0
      if (is_tiled_shape_tunable(domain.name)) continue;  // absent = tiled_levels.hpp's default
      return name() + ": tunable '" + domain.name + "' missing";
    }
    // Positive, or 0 where the domain has 0 (a switch such as optin) or 0 means off.
    const bool zero_ok =
        resident || std::find(domain.values.begin(), domain.values.end(), 0) != domain.values.end();
    if (it->second < 0 || (it->second == 0 && !zero_ok))
      return name() + ": tunable '" + domain.name + "' must be positive, got " +
             std::to_string(it->second);
  }
  if (tiled_px_of(config) > 0)
    if (auto why = tiled_shape_invalid_reason(tiled_shape_of(config), config.precision))
      return name() + ": " + *why;
  // epsilon > 0 is supported: the frame solver tests it on the device every
  // epsilon_check_every iterations (variants/cuda/epsilon_stop.hpp).
  return scheme_invalid_reason(config);
}

namespace {

// Grid-wide synchronisation needs cooperative launch: compute capability 6.0 or newer.
void check_cooperative_launch(const std::string& variant, const std::string& arch) {
  if (arch.size() > 3 && arch.compare(0, 3, "sm_") == 0 && std::stoi(arch.substr(3)) < 60)
    throw std::invalid_argument(
        variant + ": persistent_px needs cooperative launch (grid-wide synchronisation), which " +
        arch + " lacks (compute capability 6.0 or newer)");
}

// A build's kernel resources with the block size and dynamic shared memory of the launch
// (neither is in the compiled code's report).
std::vector<KernelResources> with_launch_shape(std::vector<KernelResources> kernels,
                                               const LaunchShape& shape) {
  for (KernelResources& r : kernels) {
    r.threads_per_block = shape.threads_per_block;
    r.dynamic_shared_bytes = shape.dynamic_shared_bytes;
  }
  return kernels;
}

void check_async_copy(const std::string& variant, const Config& config, const std::string& arch) {
  if (auto why = arch_invalid_reason(variant, config, arch)) throw std::invalid_argument(*why);
}

}  // namespace

std::optional<std::string> arch_invalid_reason(const std::string& variant, const Config& config,
                                               const std::string& arch) {
  // cp.async (the pipelines' staging=1): compute capability 8.0 or newer.
  if (staging_of(config) == 1 && arch.size() > 3 && arch.compare(0, 3, "sm_") == 0 &&
      std::stoi(arch.substr(3)) < 80)
    return variant + ": staging=1 needs cp.async, which " + arch +
           " lacks (compute capability 8.0 or newer)";
  return std::nullopt;
}

std::vector<KernelResources> CudaVariant::resources(const Config& config,
                                                    const std::string& arch) const {
  if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
  check_async_copy(name(), config, arch);
  const auto build = nvrtc_build(device_source_of(name()), nvrtc_defines(config), arch);
  std::vector<KernelResources> out = with_launch_shape(build->resources, launch_shape(config));
  // The persistent levels' kernel (persistent_levels.hpp) runs on the board too: the
  // constraint check's occupancy model must give it at least one resident block per SM (a
  // cooperative launch needs every block of its grid resident; the grid is that many per SM).
  if (persistent_px_of(config) > 0) {
    check_cooperative_launch(name(), arch);
    const Config kc = persistent_kernel_config(config.precision, kPersistentSyncsDefault);
    for (KernelResources r :
         nvrtc_build("tvl1_persistent.cuh", nvrtc_defines(kc), arch)->resources) {
      r.threads_per_block = kPersistentThreads;
      r.dynamic_shared_bytes = 0;
      out.push_back(r);
    }
  }
  return out;
}

std::string CudaVariant::compiler_version() const {
  return nvrtc_version();
}

void CudaVariant::build_kernels(const Config& config, const std::string& arch) const {
  (void)resources(config, arch);
  if (resident_px_of(config) > 0)
    (void)nvrtc_build("tvl1_resident.cuh", nvrtc_defines(resident_kernel_config(config.precision)),
                      arch);
  if (tiled_px_of(config) > 0)
    (void)nvrtc_build("tvl1_tiled.cuh",
                      tiled_kernel_defines(config.precision, tiled_shape_of(config)), arch);
}

std::optional<std::vector<KernelResources>> CudaVariant::table_resources(
    const Config& config, const std::string& arch) const {
  if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
  check_async_copy(name(), config, arch);
  const ResourceTable& table = ResourceTable::committed();
  const auto* rows = table.find(name(), config.precision, build_tunables_text(config), arch);
  if (!rows) return std::nullopt;
  std::vector<KernelResources> out = with_launch_shape(*rows, launch_shape(config));
  if (persistent_px_of(config) > 0) {
    check_cooperative_launch(name(), arch);
    const Config kc = persistent_kernel_config(config.precision, kPersistentSyncsDefault);
    const auto* p = table.find("levels", config.precision, build_tunables_text(kc), arch);
    if (!p) return std::nullopt;
    for (KernelResources r : *p) {
      r.threads_per_block = kPersistentThreads;
      r.dynamic_shared_bytes = 0;
      out.push_back(r);
    }
  }
  return out;
}

std::unique_ptr<FlowSolver> CudaVariant::make_solver(const Config& config) const {
  if (auto why = invalid_reason(config)) throw std::invalid_argument(*why);
#ifdef FLOWTUNE_HAVE_CUDA_FRAME_SOLVER
  return make_cuda_frame_solver(config, make_schedule(config));
#else
  throw std::runtime_error(name() + ": the GPU frame pipeline (cuda_frame_solver) is not built in");
#endif
}

}  // namespace flowtune::cuda
