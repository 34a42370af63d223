// The model of `tune predict` where other commands use it: the refit from the board's own
// measurements (`tune predict --calibrate-from DB`) and the model_guided prior of
// `tune --prior predict`.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "db/repository.hpp"
#include "model/config_prediction.hpp"
#include "tuner/model_estimate.hpp"

namespace flowtune::cli {

/// Refits inputs' model on the measurements of inputs.board in repo (model::board_samples,
/// model::refit_board); prints the factors per scheme and the error before and leave-one-out
/// after, naming db_label; fills *stored (when given) with the same as JSON. nullopt when
/// the DB holds no usable measurement of the board (printed).
std::optional<model::BoardRefit> refit_from_db(const db::Repository& repo,
                                               const model::ModelInputs& inputs,
                                               const std::string& db_label, std::ostream& log,
                                               nlohmann::json* stored = nullptr);

/// The prior of `tune --prior predict` (and `tune replay --prior predict`): the model's
/// predicted frame time (584x388, the Middlebury frame), refit from db_path's measurements of
/// the board when it holds some ("" = no refit).
/// Throws what model::load_model_inputs throws (not a GPU board, no [model] facts).
PriorModel predicted_prior(const std::string& board, const std::string& workload,
                           const std::string& db_path, std::ostream& log);

}  // namespace flowtune::cli
