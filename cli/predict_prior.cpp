#include "cli/predict_prior.hpp"

#include <iomanip>
#include <memory>

#include "boards/board.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {

std::optional<model::BoardRefit> refit_from_db(const db::Repository& repo,
                                               const model::ModelInputs& inputs,
                                               const std::string& db_label, std::ostream& log,
                                               nlohmann::json* stored) {
  const std::vector<model::BoardSample> samples = model::board_samples(repo, inputs);
  if (samples.empty()) {
    log << "board calibration: " << db_label << " holds no measurement of "
        << inputs.workload->name() << " on board " << inputs.board.name
        << " that the model covers; not refit\n";
    return std::nullopt;
  }
  const model::BoardRefit r = model::refit_board(samples);
  log << std::fixed << std::setprecision(3) << "board calibration from " << db_label << ": " << r.n
      << " measurements of " << inputs.board.name << "; factor per scheme (measured / "
      << "predicted frame time):\n";
  for (const auto& [scheme, f] : r.factors)
    log << "  " << scheme << ": " << f << " (" << r.n_scheme.at(scheme) << " measured)\n";
  log << "  other schemes: " << r.global_factor << " (all measurements)\n"
      << "error before: median |ln(pred/meas)| " << r.before_median_abs_log << ", Spearman "
      << r.before_spearman << "; after, leave-one-out: median |ln| " << r.loo_median_abs_log
      << ", Spearman " << r.loo_spearman << "\n";
  if (stored) {
    nlohmann::json j = {{"db", db_label},
                        {"n", r.n},
                        {"factors", r.factors},
                        {"global_factor", r.global_factor},
                        {"before_median_abs_log", r.before_median_abs_log},
                        {"before_spearman", r.before_spearman},
                        {"loo_median_abs_log", r.loo_median_abs_log},
                        {"loo_spearman", r.loo_spearman}};
    for (std::size_t i = 0; i < samples.size(); ++i)
      j["samples"].push_back({{"label", samples[i].label},
                              {"measured_ms", samples[i].measured_ms},
                              {"predicted_ms", r.predicted_ms[i]},
                              {"loo_predicted_ms", r.loo_predicted_ms[i]}});
    // NaN is not JSON: nlohmann writes null.
    *stored = j;
  }
  return r;
}

PriorModel predicted_prior(const std::string& board, const std::string& workload,
                           const std::string& db_path, std::ostream& log) {
  auto inputs = std::make_shared<model::ModelInputs>(model::load_model_inputs(
      load_board(board), find_workload(workload), "", model::kOccupancyToHide));
  if (!db_path.empty()) {
    try {
      const db::Repository repo(db_path, db::OpenMode::read_only);
      inputs->refit = refit_from_db(repo, *inputs, db_path, log);
    } catch (const std::exception& e) {
      log << "board calibration: " << db_path << " not read (" << e.what() << "); not refit\n";
    }
  }
  log << "prior: tune predict's model (calibration " << inputs->calibration_path << ")\n";
  return model::predicted_time_prior(inputs, 584, 388);
}

}  // namespace flowtune::cli
