// Choosing a tuned config from the DB and exporting it as a C++17 header for deployment.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"
#include "reports/front.hpp"

namespace flowtune::reports {

/// The macro the CUDA kernels (kernels/cuda/tvl1_math.cuh) select a precision with:
/// "f32" -> "FT_PRECISION_F32", "f16" -> "FT_PRECISION_F16", "mixed" -> "FT_PRECISION_MIXED"
/// (as variants/cuda/cuda_variant.cpp nvrtc_defines); "" for any other precision (e.g.
/// APSP's "i32", whose kernels have no precision switch).
std::string kernel_precision_macro(const std::string& precision);

/// Text of the tuned header for `config` (C++17, #pragma once, namespace flowtune::tuned):
/// constexpr kWorkload, kBoard, kVariant, kPrecision, kConfigKey, kConfigJson (the config as
/// JSON, db::config_json), one `constexpr int k<Tunable>` per tunable (tile_x -> kTileX), one
/// constant per parameter (n_warpings -> kNWarpings; `int` for whole values, else `double`),
/// kClockMhz; a `#define FLOWTUNE_TUNED_<TUNABLE> value` per tunable; the macros the CUDA
/// kernels are compiled with, each guarded by #ifndef so that a -D on the command line wins:
/// `FT_<TUNABLE> value` per tunable and, for f32/f16/mixed, kernel_precision_macro(precision)
/// (defined to 1 only when none of the three FT_PRECISION_* is defined), so the header can
/// be included before a kernel .cuh; a comment with the measured figures; and the line
/// `// flowtune-config: <JSON>` that `tune run --tuned` reads back. Throws
/// std::invalid_argument for a tunable or parameter name that is not a lower-case identifier
/// or collides with another constant, or a non-finite parameter.
std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              const Objective& objective);

/// Selects the config of `board` for `objective` (select_config with the workload's front
/// objectives) on `dataset` ("" = the board's dataset with the most measurements) and
/// writes its header to out_path (parent folders created). Throws std::runtime_error naming
/// the DB when the board has no measurements (on that dataset), and naming out_path when it
/// cannot be written; std::invalid_argument for an unknown objective.
/// What select_for_export chose.
struct ExportSelection {
  db::MeasuredConfig config;
  Objective objective;
};

/// The config export_tuned_header writes (same rules and errors), without writing it.
ExportSelection select_for_export(const db::Repository& repo, const std::string& board,
                                  const std::string& objective, const std::string& dataset = "",
                                  const std::vector<Constraint>& constraints = {});

/// Constraints (e.g. aepe <= 0.25) restrict the candidates first; when no config satisfies
/// them, std::runtime_error says so, with the best value of each constrained figure measured.
void export_tuned_header(const db::Repository& repo, const std::string& board,
                         const std::string& objective, const std::string& out_path,
                         const std::string& dataset = "",
                         const std::vector<Constraint>& constraints = {});

}  // namespace flowtune::reports
