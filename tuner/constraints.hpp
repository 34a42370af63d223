// Pruning: which configs cannot run on a board, and why (before anything is measured).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "tuner/occupancy.hpp"
#include "variants/config.hpp"
#include "variants/variant.hpp"

namespace flowtune {

class Workload;

/// Bytes per element pair of the Shared_pipeline buffers: 8 for float2 (f32), 4 for half2
/// (f16 and mixed, which store f16). Throws std::invalid_argument for another precision.
int qfloat_bytes(const std::string& precision);

/// Dynamic shared memory of Shared_pipeline, Romera et al. 2023 eq. 4:
/// Q = Qfloat * 6 * w * (P + 1) bytes, with qfloat_bytes 8 (float2) or 4 (half2), w the
/// threads of the 1D block and P = depth the pipeline depth. Example: f32, w = 128, P = 5:
/// 36864 bytes (36 KiB). Throws std::invalid_argument for w <= 0, depth < 0 or qfloat <= 0.
std::int64_t shared_pipeline_shared_bytes(int qfloat_bytes, int w, int depth);

/// Occupancy of one kernel of a config on a board.
struct KernelOccupancy {
  KernelResources resources;
  OccupancyResult occupancy;
};

/// Everything the constraint check found for one config.
struct ConstraintCheck {
  std::optional<std::string> prune_reason;  ///< nullopt = keep
  std::vector<KernelOccupancy> kernels;     ///< per kernel (cuda configs that got resources)
};

/// Where a cuda config's kernel resources come from.
enum class ResourceSource {
  build,           ///< variant.resources(): an NVRTC build (cached) for the board's arch
  table_or_build,  ///< variant.table_resources() (the committed reports), else a build
};

/// The constraint check of prune_reason(), with the per-kernel occupancy kept for reports.
ConstraintCheck check_constraints(const Board& board, const Variant& variant, const Config& config,
                                  ResourceSource source = ResourceSource::build);

/// The checks of check_constraints() after the workload and parameter checks: the variant's
/// rules, the target, and for cuda the resources and occupancy. When
/// variant.checks_ignore_params(), the result is the same for every config of the same
/// variant, precision and tunables (the reasons start with config.label(), which names only
/// those).
/// With ResourceSource::table_or_build the resources come from the committed table where it
/// holds the config's build for board.arch() (KernelResources::from_table set), else from a
/// build.
ConstraintCheck check_kernel_constraints(const Board& board, const Variant& variant,
                                         const Config& config,
                                         ResourceSource source = ResourceSource::build);

/// True unless the variant's own rules reject config's kernel config (Variant::invalid_reason),
/// for a variant whose checks ignore the parameters (Variant::checks_ignore_params: the answer
/// is then the same for every config of that variant, precision and tunables). A variant
/// the workload lacks, or whose checks read the parameters, is allowed here: the full check
/// (check_constraints) decides. No build, no exception; a few microseconds per config.
bool kernel_rules_allow(const Workload& workload, const Config& config);

/// Where the resources of the kernel configs checked so far came from, for the line that says
/// so: `table` (the committed NVRTC reports), `built` (an NVRTC build here for the board's
/// arch), `estimated` (a build for a stand-in arch, see nvrtc_target_arch) or `failed` (the
/// build failed: the config is pruned). Checks that needed no resources (a rule pruned the
/// config first, a cpu board) count in none.
struct ResourceTally {
  std::size_t table = 0, built = 0, estimated = 0, failed = 0;
  /// Counts one check by its kernels' from_table / estimated flags and its prune reason.
  void add(const ConstraintCheck& check);
  /// "kernel resources of 4410 kernel configs: 4410 from the committed NVRTC 11.8 table
  /// (variants/cuda/kernel_resources.csv), 0 built here", with the estimated and failed
  /// counts when there are any; "" when nothing was counted.
  std::string text() const;
};

/// nullopt = keep; else the human-readable reason, prefixed by config.label(), e.g.
/// "shared_pipeline f32 w=256 depth=7: needs 96 KiB shared memory > 48 KiB per block on agx".
/// Checks, in order: the variant belongs to config.workload; the workload's parameter
/// schema (Workload::check_params); variant.invalid_reason(config); the target (a cpu variant on a
/// cuda board and vice versa); then, for cuda, variant.resources(config, board.arch()) (a build
/// failure is a reason) and occupancy() of every kernel on board.limits with the config's
/// "optin" tunable (0 when absent). Resources estimated on a stand-in arch are flagged
/// in the reason ("resources estimated from an sm_75 build").
std::optional<std::string> prune_reason(const Board& board, const Variant& variant,
                                        const Config& config);

}  // namespace flowtune
