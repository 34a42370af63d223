#include "model/config_prediction.hpp"

#include <cmath>
#include <stdexcept>

#include "select/config_rows.hpp"
#include "tuner/constraints.hpp"
#include "tuner/resources_json.hpp"

namespace flowtune::model {

ModelInputs load_model_inputs(const Board& board, const Workload& workload,
                              const std::string& calibration_path, double occupancy_to_hide) {
  if (board.target != "cuda")
    throw std::invalid_argument(board.source_file + ": board " + board.name +
                                " is not a GPU board; the model predicts GPU boards");
  if (!board.model.present) throw std::invalid_argument(board.source_file + ": no [model] facts");
  ModelInputs in;
  in.board = board;
  in.workload = &workload;
  in.occupancy_to_hide = occupancy_to_hide;
  in.calibration_path = calibration_path.empty() ? default_calibration_path() : calibration_path;
  in.calibration = load_calibration(in.calibration_path);
  if (in.calibration.empty())
    throw std::runtime_error(in.calibration_path + ": no calibration entries");
  in.calibration_board = load_board(in.calibration.front().board);
  return in;
}

std::optional<IterationPrediction> predict_config(
    const ModelInputs& in, const Config& c, const std::vector<KernelResources>& kernels_board) {
  if (!find_calibration(in.calibration, c.variant, c.precision)) return std::nullopt;
  const Variant* v = find_workload_variant(*in.workload, c.variant);
  if (!v) return std::nullopt;
  std::vector<KernelResources> kernels_cal;
  if (in.board.arch() == in.calibration_board.arch()) {
    kernels_cal = kernels_board;
  } else {
    std::optional<std::vector<KernelResources>> tabled;
    if (in.resources == ResourceSource::table_or_build)
      tabled = v->table_resources(c, in.calibration_board.arch());
    kernels_cal = tabled ? std::move(*tabled) : v->resources(c, in.calibration_board.arch());
  }
  IterationPrediction p = predict_iterations(in.board, in.calibration_board, in.calibration, c,
                                             kernels_board, kernels_cal, in.occupancy_to_hide);
  if (in.refit) p.board_factor = in.refit->factor(c.variant, c.precision);
  return p;
}

PriorModel predicted_time_prior(std::shared_ptr<const ModelInputs> inputs, int width, int height) {
  return
      [inputs, width, height](
          const Config& c, const std::vector<KernelResources>& kernels) -> std::optional<double> {
        try {
          const auto it = predict_config(*inputs, c, kernels);
          if (!it) return std::nullopt;
          return predict_frame(inputs->board, *it, c, width, height).time_ms;
        } catch (const std::exception&) {
          return std::nullopt;
        }
      };
}

std::vector<BoardSample> board_samples(const db::Repository& repo, const ModelInputs& in) {
  std::vector<BoardSample> out;
  for (const std::string& dataset : repo.datasets(in.board.name)) {
    for (const db::MeasuredConfig& m : repo.measured(in.board.name, dataset)) {
      if (m.config.workload != in.workload->name() || !(m.measurement.ns_per_unit > 0)) continue;
      const Config c = to_config(m.config);
      if (!find_calibration(in.calibration, c.variant, c.precision)) continue;
      const Variant* v = find_workload_variant(*in.workload, c.variant);
      if (!v) continue;
      std::vector<KernelResources> kernels = parse_resources_json(m.measurement.resources_json);
      if (kernels.empty())
        for (const KernelOccupancy& k : check_constraints(in.board, *v, c).kernels)
          kernels.push_back(k.resources);
      ModelInputs uncalibrated = in;
      uncalibrated.refit.reset();
      const auto it = predict_config(uncalibrated, c, kernels);
      if (!it) continue;
      const double px = m.measurement.time_ms_median * 1e6 / m.measurement.ns_per_unit;
      const int side = std::max(16, int(std::lround(std::sqrt(px))));
      const FramePrediction f = predict_frame(in.board, *it, c, side, side);
      out.push_back({c.variant, c.precision, m.config.label + " [" + dataset + "]", f.kernel_ms,
                     f.launch_ms, m.measurement.time_ms_median});
    }
  }
  return out;
}

}  // namespace flowtune::model
