// The common part of the CUDA variant adaptors (Romera et al. 2023, sec. 3.3): the NVRTC
// defines of a config, resources per arch, the frame solver. Each scheme's adaptor
// (variants/cuda/global.cpp, shared_fusion.cpp, pipeline_variants.cpp) supplies its tunables,
// validity rule, launch shape and iteration schedule; the schemes are listed once, in
// variants/cuda/tvl1_schemes.hpp.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "variants/cuda/tvl1_schemes.hpp"
#include "variants/variant.hpp"

namespace flowtune::cuda {

class IterationSchedule;  // variants/cuda/device_fields.hpp

/// NVRTC defines of config: precision_macro(precision) (FT_PRECISION_F32 | FT_PRECISION_F16 |
/// FT_PRECISION_MIXED) and kernel_define(tunable, value) for every tunable (block_x=32 ->
/// FT_BLOCK_X=32, w -> FT_W, strip_h -> FT_STRIP_H; variants/kernel_defines.hpp) except the
/// per-level thresholds and rows_per_thread = 1 (the kernel's default). Throws
/// std::invalid_argument for an unknown precision.
std::vector<std::string> nvrtc_defines(const Config& config);

/// Embedded device source of a CUDA variant: "tvl1_<variant>.cuh".
std::string device_source_of(const std::string& variant);

/// Threads per block of config's kernels and their dynamic shared memory in bytes.
struct LaunchShape {
  int threads_per_block = 0;
  int dynamic_shared_bytes = 0;
};

/// Base of the CUDA adaptors: target "cuda", precisions f32/f16/mixed, resources through
/// NVRTC (no GPU needed), make_solver through the GPU frame pipeline.
class CudaVariant : public FlowVariant {
 public:
  std::string target() const override { return "cuda"; }
  std::vector<std::string> precisions() const override { return {"f32", "f16", "mixed"}; }
  /// Threads per block and dynamic shared memory of config's kernels (after validation).
  virtual LaunchShape launch_shape(const Config& config) const = 0;
  /// Builds config for arch with NVRTC and returns the ptxas report of every kernel, with
  /// threads_per_block and dynamic_shared_bytes from launch_shape. For archs below sm_75 the
  /// build is for sm_75 and `estimated` is set (nvrtc_target_arch). Throws
  /// std::invalid_argument for an invalid config, std::runtime_error when the build fails.
  std::vector<KernelResources> resources(const Config& config,
                                         const std::string& arch) const override;
  /// resources(config, arch), then the shared per-level kernels a frame of config builds: the
  /// resident-level kernel when resident_px > 0 (resident_kernel_config) and the tiled one
  /// when tiled_px > 0 (tiled_kernel_config), for config's precision. Needs no GPU. Throws
  /// what resources() throws, std::runtime_error when a level kernel's build fails.
  void build_kernels(const Config& config, const std::string& arch) const override;
  /// NVRTC's version (nvrtc_version(), variants/cuda/nvrtc_build.hpp).
  std::string compiler_version() const override;
  /// resources() from the committed table of NVRTC 11.8 reports (ResourceTable::committed(),
  /// variants/cuda/resource_table.hpp), the launch shape and, with persistent_px > 0, the
  /// persistent kernel's row added as resources() adds its build; nullopt when the table
  /// lacks the build for arch. Throws std::invalid_argument for an invalid config or
  /// persistent_px > 0 below sm_60, as resources() does.
  std::optional<std::vector<KernelResources>> table_resources(
      const Config& config, const std::string& arch) const override;
  /// The GPU frame pipeline (cuda_frame_solver) driving this variant's iteration schedule
  /// (make_schedule). Throws std::runtime_error when the frame pipeline is not compiled in or
  /// there is no GPU.
  std::unique_ptr<FlowSolver> make_solver(const Config& config) const override;
  /// The frame solver's compute_from.
  bool takes_initial_flow() const override { return true; }
  /// This scheme's schedule of the inner iterations for config: builds (NVRTC) and loads its
  /// kernels for the current device. Throws std::invalid_argument for an invalid config,
  /// std::runtime_error when there is no device or the build fails.
  virtual std::unique_ptr<IterationSchedule> make_schedule(const Config& config) const = 0;
  /// invalid_reason of the common rules (precision, every tunable present and in its domain),
  /// then scheme_invalid_reason.
  std::optional<std::string> invalid_reason(const Config& config) const override;
  /// The schemes' rules and builds read the precision and tunables only: a config's parameters
  /// (iterations, median_window, ...) change which kernels a frame launches, not their code.
  bool checks_ignore_params() const override { return true; }

 protected:
  /// The scheme's own rules on the precision and tunables (never the parameters: see
  /// checks_ignore_params).
  virtual std::optional<std::string> scheme_invalid_reason(const Config& config) const = 0;
};

/// The per-level choice every TV-L1 CUDA scheme shares: `resident_px`, the largest pyramid
/// level (pixels) that runs all the iterations of a warping resident in one block
/// (kernels/cuda/tvl1_resident.cuh) instead of on the scheme; 0 = every level on the scheme.
/// Domain {1024, 4096}: on an H200 the best for global / shared_fusion and for the pipelines
/// (docs/decisions.md, "resident_px domain"). A config without it (e.g. from a header that lacks
/// it) means 0.
TunableDomain resident_px_domain();
/// config's resident_px, 0 when absent.
int resident_px_of(const Config& config);
/// The second per-level choice: `tiled_px`, the largest level (pixels) that, when not
/// resident, runs tiled_depth (default 4) iterations per launch by temporal tiling
/// (kernels/cuda/tvl1_tiled.cuh, shape tunables is_tiled_shape_tunable) instead of on the
/// scheme; 0 = none. Domain {65536, 1048576} (a 256x256 level, or every level up to
/// 1024x1024); absent means 0.
TunableDomain tiled_px_domain();
/// config's tiled_px, 0 when absent.
int tiled_px_of(const Config& config);
/// The third per-level choice: `persistent_px`, the largest level (pixels) that, when not
/// resident, runs all the iterations of a warping in one cooperative launch with grid-wide
/// synchronisation (kernels/cuda/tvl1_persistent.cuh, variants/cuda/persistent_levels.hpp)
/// instead of tiled or on the scheme; 0 = none. Domain {0, 1048576} (off, or every level up to
/// 1024x1024): the tuner decides per board. Absent means 0. When > 0, resources() also reports
/// the persistent kernel (ft_persistent), so that pruning checks its occupancy; for an arch
/// below sm_60 (no cooperative launch) it throws, so such a config is pruned there.
TunableDomain persistent_px_domain();
/// config's persistent_px, 0 when absent.
int persistent_px_of(const Config& config);
/// True for the per-level thresholds (resident_px, tiled_px, persistent_px): they choose
/// which kernels a frame launches, not their code, so they are not NVRTC defines and 0 / absent
/// means off.
bool is_level_threshold(const std::string& tunable);
/// True for the tunables of the tiled levels' kernel shape (tiled_t, tiled_depth,
/// tiled_coarsen; variants/cuda/tiled_levels.hpp's TiledShape, each absent = its default):
/// they shape the tiled kernel, not the scheme's, so no scheme build has them.
bool is_tiled_shape_tunable(const std::string& tunable);
/// The tiled levels' kernel shape as tunables of every TV-L1 CUDA scheme: tiled_t {8, 16, 32},
/// tiled_depth {1, ..., 15}, tiled_coarsen {1, 2, 4}; a search enumerates only the default
/// (32, 4, 1: docs/decisions.md, "Tiled levels' kernel shape") unless the command line widens
/// it (`tune --tunable tiled_depth=4,5`). A config without them (a header from before them)
/// means the default; a shape that tiled_shape_invalid_reason rejects makes a config with
/// tiled_px > 0 invalid.
std::vector<TunableDomain> tiled_shape_domains();

/// The adaptors, one per scheme of FLOWTUNE_TVL1_CUDA_SCHEMES: `const CudaVariant&
/// <scheme>_variant()`, e.g. global_variant(), shared_pipeline_variant() (defined in
/// variants/cuda/global.cpp, shared_fusion.cpp, pipeline_variants.cpp).
#define FLOWTUNE_TVL1_SCHEME_DECLARE_(scheme) const CudaVariant& scheme##_variant();
FLOWTUNE_TVL1_CUDA_SCHEMES(FLOWTUNE_TVL1_SCHEME_DECLARE_)
#undef FLOWTUNE_TVL1_SCHEME_DECLARE_

/// The adaptors of FLOWTUNE_TVL1_CUDA_SCHEMES in listing order (variants/cuda/tvl1_schemes.cpp;
/// also what all_variants() lists after kokkos_global).
const std::vector<const CudaVariant*>& tvl1_cuda_schemes();
/// The scheme of tvl1_cuda_schemes() called name, or nullptr.
const CudaVariant* find_tvl1_cuda_scheme(const std::string& name);

/// Bytes of one block's ring of lines in the pipelined schemes (kernels/cuda/tvl1_pipeline.cuh):
/// 4 pair planes (u, p1, p2, grad) and one scalar plane (rho_c) of skew * depth +
/// rows_per_thread lines of w elements, i.e. 4.5 * Qfloat * w * (skew * depth +
/// rows_per_thread) with Qfloat 8 (f32) or 4 (f16, mixed). Romera et al. 2023 eq. 4 (skew 1,
/// one row per thread) counts 6 pairs per pixel line (tuner/constraints.hpp); this schedule
/// needs 4.5. staging = 1 with skew 1 adds one line (the row copied in by cp.async a step
/// ahead). Example: f32, w = 128, depth = 5, skew = 1: 27648 bytes (32256 with staging). Throws
/// std::invalid_argument for an unknown precision, a skew other than 1 or 2, or
/// rows_per_thread < 1 (or != 1 with skew 2).
int pipeline_ring_bytes(const std::string& precision, int w, int depth, int skew,
                        int rows_per_thread = 1, int staging = 0);
/// The same for a pipeline config (tunables w, depth, skew, rows_per_thread, staging).
int pipeline_ring_bytes(const Config& config);
/// The pipelines' register blocking: `rows_per_thread`, the rows each thread updates per
/// pipeline step and half-step (FT_ROWS_PER_THREAD in kernels/cuda/tvl1_pipeline.cuh; more
/// independent work per thread, (2 depth + 1) / rows barriers per row, depth + rows ring
/// lines). Domain {1, 2, 4}; > 1 needs skew = 1. Absent means 1 (a config or DB row from
/// before it): the same kernel, as is the value 1 (nvrtc_defines leaves its define out).
TunableDomain rows_per_thread_domain();
/// config's rows_per_thread, 1 when absent.
int rows_per_thread_of(const Config& config);
/// shared_pipeline's staging of the ring (kernels/cuda/tvl1_pipeline.cuh, FT_STAGING): 0 = the
/// next row through registers (LDG, then STS), 1 = cp.async straight into the ring (sm_80 and
/// newer, f32 and mixed, rows_per_thread 1; one more ring line with skew 1). Absent = 0, the
/// same kernel (left out of the build's defines and of the resource table's key).
TunableDomain staging_domain();
/// config's staging, 0 when absent.
int staging_of(const Config& config);
/// Why config cannot run on arch ("sm_XY") though it is valid elsewhere: staging=1 below
/// sm_80 (no cp.async). nullopt when it can (persistent_px's cooperative launch is checked by
/// resources()).
std::optional<std::string> arch_invalid_reason(const std::string& variant, const Config& config,
                                               const std::string& arch);
/// Pixels per thread column of the pipelines: 2 in f16 (half2 across two adjacent pixels,
/// MathF16Pair in kernels/cuda/tvl1_math.cuh), 1 in f32 and mixed.
int pixels_per_thread_column(const std::string& precision);
/// Threads per block of a pipeline config: w / pixels_per_thread_column / parts.
int pipeline_threads(const Config& config);

}  // namespace flowtune::cuda
