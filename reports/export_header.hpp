// Choosing a tuned config from the DB and exporting it as a C++17 header for deployment.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"
#include "reports/front.hpp"

namespace flowtune::reports {

/// Text of the tuned header for `config` (C++17, #pragma once, namespace flowtune::tuned):
/// constexpr kWorkload, kBoard, kVariant, kPrecision, kConfigKey, one `constexpr int
/// k<Tunable>` per tunable (tile_x -> kTileX), one constant per parameter (n_warpings ->
/// kNWarpings; `int` for whole values, else `double`), kClockMhz; a `#define
/// FLOWTUNE_TUNED_<TUNABLE> value` per tunable (the -D constants the kernels are compiled
/// with); a comment with the measured figures; and the line `// flowtune-config: <JSON>`
/// (db::config_json) that `tune run --tuned` reads back. Throws std::invalid_argument for a
/// tunable or parameter name that is not a lower-case identifier or collides with another
/// constant, or a non-finite parameter.
std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              const Objective& objective);

/// Selects the config of `board` for `objective` (select_config with the workload's front
/// objectives) on `dataset` ("" = the board's dataset with the most measurements) and
/// writes its header to out_path (parent folders created). Throws std::runtime_error naming
/// the DB when the board has no measurements (on that dataset), and naming out_path when it
/// cannot be written; std::invalid_argument for an unknown objective.
/// Constraints (e.g. aepe <= 0.25) restrict the candidates first; when no config satisfies
/// them, std::runtime_error says so, with the best value of each constrained figure measured.
void export_tuned_header(const db::Repository& repo, const std::string& board,
                         const std::string& objective, const std::string& out_path,
                         const std::string& dataset = "",
                         const std::vector<Constraint>& constraints = {});

}  // namespace flowtune::reports
