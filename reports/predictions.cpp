#include "reports/predictions.hpp"

#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "select/prediction_error.hpp"

namespace flowtune::reports {

Predictions load_predictions(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error(path + ": cannot read the prediction file");
  nlohmann::json j;
  try {
    in >> j;
  } catch (const std::exception& e) {
    throw std::runtime_error(path + ": not a JSON prediction file (" + e.what() + ")");
  }
  if (!j.is_object() || j.value("kind", "") != "predicted")
    throw std::runtime_error(path +
                             ": not marked \"kind\": \"predicted\" (write it with tune "
                             "predict --out)");
  Predictions p;
  p.path = path;
  try {
    p.board = j.at("board").get<std::string>();
    p.workload = j.value("workload", "");
    p.calibration = j.value("calibration", "");
    p.width = j.at("frame").at(0).get<int>();
    p.height = j.at("frame").at(1).get<int>();
    if (j.contains("board_calibration")) {
      const auto& b = j.at("board_calibration");
      p.refit_loo_median_abs_log = b.at("loo_median_abs_log").get<double>();
      p.refit_db = b.value("db", "");
    }
    for (const auto& c : j.at("configs")) {
      PredictedConfig pc;
      pc.key = c.at("key").get<std::string>();
      pc.label = c.at("label").get<std::string>();
      pc.variant = c.value("variant", "");
      pc.precision = c.value("precision", "");
      pc.time_ms = c.at("time_ms").get<double>();
      pc.ns_per_px = c.at("ns_per_px").get<double>();
      if (c.contains("nj_per_px")) pc.nj_per_px = c.at("nj_per_px").get<double>();
      p.configs.push_back(std::move(pc));
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error(path + ": missing or malformed field (" + e.what() +
                             "); a file of an older tune predict has no config keys: run it again");
  }
  return p;
}

PredictionComparison compare_predictions(const Predictions& p,
                                         const std::vector<db::MeasuredConfig>& measured) {
  PredictionComparison out;
  out.predictions = p;
  std::map<std::string, const PredictedConfig*> by_key;
  for (const PredictedConfig& c : p.configs) by_key[c.key] = &c;
  std::vector<double> pred, meas, pred_e, meas_e;
  for (const db::MeasuredConfig& m : measured) {
    if (!(m.measurement.ns_per_unit > 0)) continue;
    ++out.n_measured;
    const auto it = by_key.find(m.config.key);
    if (it == by_key.end()) continue;
    const PredictedConfig& c = *it->second;
    PredictionRow r{m.measurement.dataset,
                    m.config.label,
                    m.config.variant,
                    m.config.precision,
                    c.ns_per_px,
                    m.measurement.ns_per_unit,
                    std::log(c.ns_per_px / m.measurement.ns_per_unit),
                    c.nj_per_px,
                    m.measurement.nj_per_unit};
    pred.push_back(r.predicted_ns_per_px);
    meas.push_back(r.measured_ns_per_px);
    if (r.predicted_nj_per_px && r.measured_nj_per_px) {
      pred_e.push_back(*r.predicted_nj_per_px);
      meas_e.push_back(*r.measured_nj_per_px);
    }
    out.rows.push_back(std::move(r));
  }
  out.median_abs_log = median_abs_log_ratio(pred, meas);
  out.spearman = spearman(pred, meas);
  out.energy_median_abs_log = median_abs_log_ratio(pred_e, meas_e);
  out.n_energy = pred_e.size();
  return out;
}

}  // namespace flowtune::reports
