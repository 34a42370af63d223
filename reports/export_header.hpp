// Choosing a tuned config from the DB and exporting it as a C++17 header for deployment.
#pragma once

#include <string>
#include <vector>

#include "db/repository.hpp"

namespace flowtune::reports {

/// What a tuned config is best at: time per frame (ms), AEPE (px) or energy per frame (mJ).
enum class Objective { time, aepe, energy };

/// "time" | "aepe" | "energy" -> Objective; throws std::invalid_argument naming the bad
/// value and the allowed ones.
Objective parse_objective(const std::string& name);
/// The inverse of parse_objective.
std::string objective_name(Objective objective);
/// The value minimised for the objective: time_ms_median, aepe or energy_mj (NaN when the
/// measurement has no energy).
double objective_value(const db::MeasuredConfig& config, Objective objective);

/// The Pareto front (tuner/pareto.hpp, minimising both) of `measured` over (x, y), sorted by
/// x then y. Configs with a NaN in x or y (e.g. no energy sensor) are never on it.
std::vector<db::MeasuredConfig> pareto_configs(const std::vector<db::MeasuredConfig>& measured,
                                               Objective x, Objective y);

/// The best config for `objective` among the Pareto front of `measured`: for time and aepe
/// the front over (time_ms_median, aepe), for energy the front over (energy_mj, aepe) (the
/// least-energy config, e.g. at a low clock, is often off the time/AEPE front); the minimum
/// of the objective, ties broken by the other objective of the front, then measurement id.
/// All configs must be of one dataset. Throws std::invalid_argument when `measured` is
/// empty, spans several datasets, has no finite point, or (energy) none has an energy figure.
db::MeasuredConfig select_config(const std::vector<db::MeasuredConfig>& measured,
                                 Objective objective);

/// Text of the tuned header for `config` (C++17, #pragma once, namespace flowtune::tuned):
/// constexpr kBoard, kVariant, kPrecision, kConfigKey, one `constexpr int k<Tunable>` per
/// entry of tunables_json (tile_x -> kTileX), kIterations, kNScales, kNWarpings, kZoom,
/// kEpsilon, kTau, kLambda, kTheta, kClockMhz; a `#define FLOWTUNE_TUNED_<TUNABLE> value`
/// per tunable (the -D constants the kernels are compiled with); a comment with the
/// measured figures. Throws std::invalid_argument for a tunable name that is not a
/// lower-case identifier or collides with a fixed constant, or a non-finite parameter.
std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              Objective objective);

/// Selects the config of `board` for `objective` (select_config) on `dataset` ("" = the
/// board's dataset with the most measurements) and writes its header to out_path. Throws
/// std::runtime_error naming the DB when the board has no measurements (on that dataset),
/// and naming out_path when it cannot be written.
void export_tuned_header(const db::Repository& repo, const std::string& board, Objective objective,
                         const std::string& out_path, const std::string& dataset = "");

}  // namespace flowtune::reports
