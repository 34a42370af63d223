// `tune predict`: what `tune --board B` would find on a board nobody measured here, from the
// performance model (model/predict.hpp): the predicted front, the predicted duration of the
// tuning run, the largest frame per time budget. Printed and written to a JSON file marked
// "predicted"; nothing goes into the DB (predictions are never mixed with measurements);
// `tune report --predicted FILE` shows them next to the measurements. --calibrate-from DB
// refits the model on the board's own measurements (model/board_refit.hpp) first.
#include <algorithm>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/predict_prior.hpp"
#include "db/repository.hpp"
#include "model/calibration.hpp"
#include "model/config_prediction.hpp"
#include "model/predict.hpp"
#include "select/config_rows.hpp"
#include "select/pareto.hpp"
#include "tuner/constraints.hpp"
#include "tuner/space.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {
namespace {

struct Predicted {
  Config config;
  model::IterationPrediction it;
  model::FramePrediction frame;
};

struct PredictArgs {
  std::string board = "auto", calibration, out, size = "584x388", budgets = "5,10,20,40";
  std::string calibrate_from;
  double occupancy_to_hide = model::kOccupancyToHide;
  bool calibrated_tunables = false;
  int items = 8;
  int rounds = 10;
};

std::pair<int, int> parse_size(const std::string& text) {
  int w = 0, h = 0;
  char x = 0;
  std::istringstream in(text);
  if (!(in >> w >> x >> h) || x != 'x' || w < 16 || h < 16 || !in.eof())
    throw UsageError("--size: expected WIDTHxHEIGHT (each >= 16), got '" + text + "'");
  return {w, h};
}

// Configs whose tunables are the calibration's (resident_px / tiled_px aside).
bool has_calibrated_tunables(const Config& c, const std::vector<model::CalibrationEntry>& cal) {
  const auto* e = model::find_calibration(cal, c.variant, c.precision);
  if (!e) return false;
  for (const auto& [k, v] : e->tunables) {
    const auto it = c.tunables.find(k);
    if (it == c.tunables.end() || it->second != v) return false;
  }
  return true;
}

void print_row(const Predicted& p) {
  std::cout << "  " << std::left << std::setw(64) << p.config.label() << std::right << std::fixed
            << std::setprecision(3) << std::setw(10) << p.frame.time_ms << " ms" << std::setw(10)
            << p.frame.energy_mj << " mJ   " << std::setprecision(2) << p.it.ns_per_px_10it
            << " ns/px/10it, occupancy " << int(p.it.occupancy * 100 + 0.5) << "% ("
            << p.it.limited_by << ")" << (p.it.estimated_resources ? " [estimated]" : "") << "\n";
}

}  // namespace

int run_predict(const std::vector<std::string>& args) {
  PredictArgs a;
  SpaceArgs space;
  auto desc = command_options("tune predict");
  desc.add_options()                                                                          //
      ("board", po::value(&a.board)->default_value(a.board), "board profile to predict")      //
      ("size", po::value(&a.size)->default_value(a.size), "frame WIDTHxHEIGHT of the front")  //
      ("budgets", po::value(&a.budgets)->default_value(a.budgets),
       "time budgets (ms) for the largest frame")                                                 //
      ("calibration", po::value(&a.calibration), "calibration CSV (default: model/calibration)")  //
      ("occupancy-to-hide", po::value(&a.occupancy_to_hide)->default_value(a.occupancy_to_hide),
       "occupancy that hides DRAM latency (model constant)")  //
      ("calibrate-from", po::value(&a.calibrate_from),
       "DB holding measurements of this board: refit the model's per-scheme efficiency from "
       "them and state the leave-one-out error")  //
      ("calibrated-tunables", po::bool_switch(&a.calibrated_tunables),
       "only configs with the calibration's tunables (paper protocol)")  //
      ("items", po::value(&a.items)->default_value(a.items),
       "dataset items per config (duration)")  //
      ("out", po::value(&a.out), "JSON file of the prediction (default predict-<board>.json)");
  desc.add(space_options(space));
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune predict --board B [--workload W] [options]")) return 0;
  const Board board = load_board(resolve_board(a.board));
  if (board.target != "cuda")
    throw UsageError("tune predict: board " + board.name + " is not a GPU board");
  if (!board.model.present)
    throw UsageError("tune predict: " + board.source_file + " has no [model] facts");
  const auto [width, height] = parse_size(a.size);
  const double frame_px = double(width) * height;
  const std::vector<int> budgets = parse_int_list("--budgets", a.budgets);
  if (!(a.occupancy_to_hide > 0 && a.occupancy_to_hide <= 1))
    throw UsageError("--occupancy-to-hide: must be in (0, 1]");
  SpaceOptions options = to_space_options(space);
  const Workload& workload = find_workload(options.workload);
  // The model costs the solver's iterations, not the accuracy additions of the default
  // dimensions (flow medians, structure-texture decomposition): they stay off here
  // unless asked for with --param, so the default GPU space predicts what the model knows
  // (no duplicates that differ only in what it does not cost). Off
  // with --no-default-dimensions too, where median_window would otherwise take its default
  // (5): the model predicts the frame without the additions.
  // The decomposition's ROF iterations too: without the decomposition they change nothing.
  // Each is kept at its absent value (off; rof_iterations 100).
  std::vector<std::string> pinned;
  for (const char* name : {"median_window", "nl_median_window", "texture_alpha", "rof_iterations"})
    if (const ParamSpec* spec = workload.find_param(name);
        spec && !options.param_values.count(name)) {
      options.param_values[name] = {spec->absent_value.value_or(0)};
      pinned.push_back(name);
    }
  if (!pinned.empty()) {
    std::cout << "not costed by the model, kept off (--param to vary):";
    for (const std::string& name : pinned) std::cout << ' ' << name;
    std::cout << '\n';
  }
  model::ModelInputs inputs =
      model::load_model_inputs(board, workload, a.calibration, a.occupancy_to_hide);
  const std::string& cal_path = inputs.calibration_path;
  const auto& cal = inputs.calibration;
  const Board& cal_board = inputs.calibration_board;
  nlohmann::json refit_json;
  if (!a.calibrate_from.empty()) {
    const db::Repository repo(a.calibrate_from, db::OpenMode::read_only);
    inputs.refit = refit_from_db(repo, inputs, a.calibrate_from, std::cout, &refit_json);
    if (!inputs.refit)
      throw std::runtime_error(a.calibrate_from + ": nothing to calibrate board " + board.name +
                               " from");
  }

  std::vector<Predicted> kept;
  std::map<std::string, std::size_t> pruned;
  std::size_t total = 0;
  for (const Config& c : make_space(board, options)) {
    if (a.calibrated_tunables && !has_calibrated_tunables(c, cal)) continue;
    ++total;
    const Variant* v = find_workload_variant(workload, c.variant);
    const ConstraintCheck check = check_constraints(board, *v, c);
    if (check.prune_reason) {
      ++pruned["pruned: " + *check.prune_reason];
      continue;
    }
    if (!model::find_calibration(cal, c.variant, c.precision)) {
      ++pruned["no calibration for " + c.variant + " " + c.precision];
      continue;
    }
    std::vector<KernelResources> kb;
    for (const auto& k : check.kernels) kb.push_back(k.resources);
    Predicted p{c, *model::predict_config(inputs, c, kb), {}};
    p.frame = model::predict_frame(board, p.it, c, width, height);
    kept.push_back(p);
  }
  std::cout << "PREDICTED (model, not measured): workload " << workload.name() << ", board "
            << board.name << " (" << board.arch() << "), calibration " << cal_path << " on "
            << cal_board.name << ", frame " << width << "x" << height << "\n"
            << total << " configs, " << kept.size() << " predicted, " << (total - kept.size())
            << " not\n";
  for (const auto& [why, n] : pruned) std::cout << "  " << n << " x " << why << "\n";
  if (kept.empty())
    throw std::runtime_error("tune predict: no config of the space can be predicted");

  std::vector<std::vector<double>> points;
  for (const auto& p : kept) points.push_back({p.frame.time_ms, p.frame.energy_mj});
  const auto front = pareto_front(points);
  std::cout << "predicted front (time_ms, energy_mj):\n";
  for (std::size_t i : front) print_row(kept[i]);

  // Duration of `tune --board B` with its default budget (480 s on a GPU board): per config a
  // build (build_seconds per distinct kernel build) and items x (1 warm-up + rounds) frames.
  std::map<std::string, bool> builds;
  double space_s = 0;
  for (const auto& p : kept) {
    std::string key = p.config.variant + p.config.precision;
    for (const auto& [k, v] : p.config.tunables) key += k + std::to_string(v);
    if (!builds[key]) space_s += board.model.build_seconds.value;
    builds[key] = true;
    space_s += a.items * (1 + a.rounds) * p.frame.time_ms * 1e-3;
  }
  const double budget_s = 480;
  std::cout << std::setprecision(0) << "tune --board " << board.name << ": the space needs ~"
            << space_s << " s (" << builds.size() << " builds x " << board.model.build_seconds.value
            << " s, " << a.items << " items x " << (1 + a.rounds)
            << " frames per config); with the default budget " << budget_s
            << " s: predicted duration " << std::min(space_s, budget_s) << " s, "
            << int(std::min(1.0, budget_s / space_s) * 100) << "% of the space\n";

  nlohmann::json out = {{"kind", "predicted"},
                        {"board", board.name},
                        {"workload", workload.name()},
                        {"calibration", cal_path},
                        {"calibration_board", cal_board.name},
                        {"occupancy_to_hide", a.occupancy_to_hide},
                        {"frame", {width, height}},
                        {"tune_duration_s", std::min(space_s, budget_s)},
                        {"space_duration_s", space_s}};
  if (inputs.refit) out["board_calibration"] = refit_json;
  std::cout << "largest square frame per budget (best config per precision):\n";
  for (int budget : budgets) {
    std::map<std::string, std::pair<int, const Predicted*>> best;
    for (const auto& p : kept) {
      const int side = model::largest_square_side(board, p.it, p.config, budget);
      auto& b = best[p.config.precision];
      if (side > b.first || !b.second) b = {side, &p};
    }
    for (const auto& [precision, b] : best) {
      std::cout << "  " << budget << " ms " << precision << ": " << b.first << "x" << b.first
                << "  (" << b.second->config.label() << ")\n";
      out["largest_frame"].push_back({{"budget_ms", budget},
                                      {"precision", precision},
                                      {"side", b.first},
                                      {"config", b.second->config.label()}});
    }
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const auto& p = kept[i];
    out["configs"].push_back(
        {{"key", to_config_row(board.name, p.config).key},
         {"label", p.config.label()},
         {"variant", p.config.variant},
         {"precision", p.config.precision},
         {"tunables", p.config.tunables},
         {"params", p.config.params},
         {"time_ms", p.frame.time_ms},
         {"energy_mj", p.frame.energy_mj},
         {"ns_per_px", p.frame.time_ms * 1e6 / frame_px},
         {"nj_per_px", p.frame.energy_mj * 1e6 / frame_px},
         {"board_factor", p.it.board_factor},
         {"launch_ms", p.frame.launch_ms},
         {"ns_per_px_10it", p.it.ns_per_px_10it},
         {"occupancy", p.it.occupancy},
         {"occupancy_calibration", p.it.occupancy_calibration},
         {"blocks_per_sm", p.it.blocks_per_sm},
         {"limited_by", p.it.limited_by},
         {"bound", p.it.bound},
         {"estimated_resources", p.it.estimated_resources},
         {"on_front", std::find(front.begin(), front.end(), i) != front.end()}});
  }
  const std::string path = a.out.empty() ? "predict-" + board.name + ".json" : a.out;
  std::ofstream f(path);
  if (!(f << out.dump(1) << "\n")) throw std::runtime_error("cannot write " + path);
  std::cout << "written (marked predicted): " << path << "\n";
  return 0;
}

}  // namespace flowtune::cli
