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
#include <set>
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
#include "model/space_prediction.hpp"
#include "select/config_rows.hpp"
#include "select/pareto.hpp"
#include "select/prune_reasons.hpp"
#include "tuner/constraint_checks.hpp"
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

// The most configs the JSON file lists one by one (else one parameter point per kernel config).
constexpr std::size_t kListedConfigs = 200000;

// True when --param names the parameter (then its values are the user's).
bool space_asks_for(const SpaceArgs& space, const std::string& name) {
  for (const std::string& p : space.params)
    if (p.compare(0, name.size() + 1, name + "=") == 0) return true;
  return false;
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
  // The model costs four parameters (model::costed_params: iterations, n_scales, n_warpings,
  // zoom). Every other parameter dimension of several values is held at one value, so that
  // no two predicted configs differ only in what the model does not cost: the optional stages
  // (median filters, structure-texture decomposition, its ROF iterations) at their absent
  // value (off) unless --param names them, any other at its first value.
  const ParamDimensions all_dims = parameter_dimensions(workload, board, options);
  const std::vector<std::string>& costed = model::costed_params();
  const std::set<std::string> stages = {"median_window", "nl_median_window", "texture_alpha",
                                        "rof_iterations"};
  std::vector<std::string> held;
  for (const auto& [name, dim] : all_dims) {
    if (std::find(costed.begin(), costed.end(), name) != costed.end()) continue;
    const ParamSpec* spec = workload.find_param(name);
    std::ostringstream v;
    if (stages.count(name) && !space_asks_for(space, name) && spec && spec->absent_value) {
      if (dim.size() == 1 && dim.front() == *spec->absent_value) continue;
      options.param_values[name] = {*spec->absent_value};
      v << *spec->absent_value;
      held.push_back(name + " (" + std::to_string(dim.size()) + " value" +
                     (dim.size() > 1 ? "s" : "") + ") at " + v.str() + ", off");
    } else if (dim.size() > 1) {
      options.param_values[name] = {dim.front()};
      v << dim.front();
      held.push_back(name + " (" + std::to_string(dim.size()) + " values) at " + v.str());
    }
  }
  if (!held.empty()) {
    std::cout << "not costed by the model (it predicts the same for each of their values), each "
                 "held at one value (--param to choose it):\n";
    for (const std::string& h : held) std::cout << "  " << h << '\n';
  }
  model::ModelInputs inputs =
      model::load_model_inputs(board, workload, a.calibration, a.occupancy_to_hide);
  inputs.resources = ResourceSource::table_or_build;
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

  const ConfigSpace configs = make_space(board, options);
  // One constraint check per kernel config, its resources from the committed NVRTC table (a
  // build where the table has none), asked for by predict_space only: no thread checking
  // ahead, which in a space of few configs would check every config, not only kernel configs.
  ConstraintChecks checks(board, workload, configs, 0, ResourceSource::table_or_build);
  const model::SpacePrediction sp = model::predict_space(
      inputs, configs, checks,
      [&](const Config& c) { return !a.calibrated_tunables || has_calibrated_tunables(c, cal); },
      width, height, &std::cerr);
  const std::size_t n_points = sp.points.size();
  std::cout << "PREDICTED (model, not measured): workload " << workload.name() << ", board "
            << board.name << " (" << board.arch() << "), calibration " << cal_path << " on "
            << cal_board.name << ", frame " << width << "x" << height << "\n"
            << sp.kernel_configs << " kernel configs x " << n_points
            << " parameter points = " << sp.kernel_configs * n_points
            << " configs (computed, not listed); " << sp.predicted_kernel_configs
            << " kernel configs predicted (" << sp.predicted_configs() << " configs), "
            << (sp.kernel_configs - sp.predicted_kernel_configs) << " not; " << sp.classes.size()
            << " distinct iteration predictions (kernel configs the model tells apart)\n";
  const std::vector<PruneClass> classes = group_prune_reasons(sp.pruned);
  std::cout << pruned_kernel_configs_text(classes);
  for (const auto& [why, n] : sp.not_predicted)
    std::cout << "  " << n << " kernel configs: " << why << "\n";
  if (const std::string t = sp.resources.text(); !t.empty()) std::cout << t << '\n';
  if (sp.classes.empty())
    throw std::runtime_error("tune predict: no config of the space can be predicted");

  // The front: each row one prediction; configs predicted the same are one row, with what
  // they differ in.
  std::cout << "predicted front (time_ms, energy_mj; the model predicts no accuracy, so fewer "
               "iterations, warpings and scales always look cheaper):\n";
  for (const model::FrontRow& row : sp.front) {
    const auto [u, j] = row.ties.front();
    const Config c = sp.config(u, 0, j);
    print_row(Predicted{c, sp.classes[u].it, row.frame});
    std::string at;
    for (const std::string& name : costed)
      if (const auto it = c.params.find(name); it != c.params.end()) {
        std::ostringstream v;
        v << it->second;
        at += (at.empty() ? "" : ", ") + name + "=" + v.str();
      }
    if (!at.empty()) std::cout << "      at " << at << '\n';
    const std::size_t n = sp.configs_of(row);
    if (n > 1) {
      std::string names;
      for (const std::string& d : sp.differing(row)) names += (names.empty() ? "" : ", ") + d;
      std::cout << "      and " << (n - 1) << " more config" << (n > 2 ? "s" : "")
                << " with the same prediction, differing only in " << names << '\n';
    }
  }

  // Duration of `tune --board B` with its default budget (480 s on a GPU board): per config a
  // build (build_seconds per distinct kernel build) and items x (1 warm-up + rounds) frames.
  const double space_s = double(sp.distinct_builds) * board.model.build_seconds.value +
                         a.items * (1 + a.rounds) * sp.sum_time_ms * 1e-3;
  const double budget_s = 480;
  std::cout << std::setprecision(0) << "tune --board " << board.name << ": the space needs ~"
            << space_s << " s (" << sp.distinct_builds << " builds x "
            << board.model.build_seconds.value << " s, " << a.items << " items x " << (1 + a.rounds)
            << " frames per config); with the default budget " << budget_s
            << " s: predicted duration " << std::min(space_s, budget_s) << " s, "
            << std::setprecision(2) << std::min(100.0, budget_s / space_s * 100)
            << "% of the space\n";

  nlohmann::json out = {{"kind", "predicted"},
                        {"board", board.name},
                        {"workload", workload.name()},
                        {"calibration", cal_path},
                        {"calibration_board", cal_board.name},
                        {"occupancy_to_hide", a.occupancy_to_hide},
                        {"frame", {width, height}},
                        {"tune_duration_s", std::min(space_s, budget_s)},
                        {"space_duration_s", space_s},
                        {"predicted_configs", sp.predicted_configs()}};
  if (inputs.refit) out["board_calibration"] = refit_json;
  const ParamValues& rep = sp.points[sp.representative];
  std::string rep_text;
  for (const std::string& name : costed)
    if (const auto it = rep.find(name); it != rep.end()) {
      std::ostringstream v;
      v << it->second;
      rep_text += (rep_text.empty() ? "" : ", ") + name + "=" + v.str();
    }
  std::cout << "largest square frame per budget (best config per precision, at " << rep_text
            << "):\n";
  for (int budget : budgets) {
    std::map<std::string, std::pair<int, Config>> best;
    for (std::size_t u = 0; u < sp.classes.size(); ++u) {
      const Config c = sp.config(u, 0, sp.representative);
      const int side = model::largest_square_side(board, sp.classes[u].it, c, budget);
      auto it = best.find(c.precision);
      if (it == best.end() || side > it->second.first) best[c.precision] = {side, c};
    }
    for (const auto& [precision, b] : best) {
      std::cout << "  " << budget << " ms " << precision << ": " << b.first << "x" << b.first
                << "  (" << b.second.label() << ")\n";
      out["largest_frame"].push_back({{"budget_ms", budget},
                                      {"precision", precision},
                                      {"side", b.first},
                                      {"config", b.second.label()}});
    }
  }
  // Every predicted config when there are few enough to list; else each predicted kernel
  // config at the representative point. The front's configs always.
  const bool all_points = sp.predicted_configs() <= kListedConfigs;
  out["configs_listed"] =
      all_points ? "every predicted config"
                 : "every predicted kernel config at " + rep_text + ", and the front's configs";
  std::set<std::pair<std::size_t, std::size_t>> on_front;  // (class, point)
  for (const model::FrontRow& row : sp.front)
    for (const auto& t : row.ties) on_front.insert(t);
  out["configs"] = nlohmann::json::array();
  auto add = [&](std::size_t u, std::size_t m, std::size_t j) {
    const Config c = sp.config(u, m, j);
    const model::IterationPrediction& it = sp.classes[u].it;
    const model::FramePrediction f = model::predict_frame(board, it, c, width, height);
    out["configs"].push_back({{"key", to_config_row(board.name, c).key},
                              {"label", c.label()},
                              {"variant", c.variant},
                              {"precision", c.precision},
                              {"tunables", c.tunables},
                              {"params", c.params},
                              {"time_ms", f.time_ms},
                              {"energy_mj", f.energy_mj},
                              {"ns_per_px", f.time_ms * 1e6 / frame_px},
                              {"nj_per_px", f.energy_mj * 1e6 / frame_px},
                              {"board_factor", it.board_factor},
                              {"launch_ms", f.launch_ms},
                              {"ns_per_px_10it", it.ns_per_px_10it},
                              {"occupancy", it.occupancy},
                              {"occupancy_calibration", it.occupancy_calibration},
                              {"blocks_per_sm", it.blocks_per_sm},
                              {"limited_by", it.limited_by},
                              {"bound", it.bound},
                              {"estimated_resources", it.estimated_resources},
                              {"on_front", on_front.count({u, j}) > 0}});
  };
  for (std::size_t u = 0; u < sp.classes.size(); ++u)
    for (std::size_t m = 0; m < sp.classes[u].members.size(); ++m) {
      if (all_points) {
        for (std::size_t j = 0; j < n_points; ++j) add(u, m, j);
      } else {
        add(u, m, sp.representative);
        for (std::size_t j = 0; j < n_points; ++j)
          if (j != sp.representative && on_front.count({u, j})) add(u, m, j);
      }
    }
  const std::string path = a.out.empty() ? "predict-" + board.name + ".json" : a.out;
  std::ofstream f(path);
  if (!(f << out.dump(1) << "\n")) throw std::runtime_error("cannot write " + path);
  std::cout << "written (marked predicted): " << path << "\n";
  return 0;
}

}  // namespace flowtune::cli
