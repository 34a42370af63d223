// `tune report`: the Pareto report of a board from the store (reports/report.hpp), and
// with --select the best config under constraints, with its per-item results, into
// DIR/selected.json (and on stdout); with --predicted the predictions of `tune predict` next
// to the measurements.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "reports/report.hpp"
#include "select/objectives.hpp"

namespace flowtune::cli {

namespace fs = std::filesystem;

int run_report(const std::vector<std::string>& raw_args) {
  std::string board = "host", out, select;
  std::vector<std::string> predicted;
  StoreArgs store{"flowtune.db", ""};
  SelectionArgs selection;
  po::options_description desc = command_options("report options");
  desc.add_options()("output,o", po::value(&out)->required(), "output folder")(
      "select", po::value(&select),
      "also select the best config for this objective (time | energy | a metric) under the "
      "--max constraints (selection options), into DIR/selected.json")(
      "predicted", po::value(&predicted)->composing(),
      "a `tune predict --out` file of this board: report.md and index.html show its predictions "
      "next to the measurements, with the error (repeatable)");
  desc.add(board_options(board, "board to report on"))
      .add(store_options(store, "SQLite database"))
      .add(selection_options(selection));
  const std::vector<std::string> args = expand_max_options(raw_args, desc);
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune report --board B -o DIR [--select time --max-METRIC V ...]"))
    return 0;
  if (!selection.max_texts.empty() && select.empty())
    throw UsageError("--max constraints apply to --select; give --select OBJECTIVE");
  const std::vector<Constraint> constraints = selection.constraints();
  const std::string db_path = store_path(store, vm, "tune report");
  const db::Repository repo(db_path, db::OpenMode::read_only);
  board = resolve_board(board);
  reports::write_report(repo, board, out, predicted);
  std::cout << "wrote the report of board " << board << " to " << out << '\n';
  if (select.empty()) return 0;
  std::string dataset = selection.dataset;
  if (dataset.empty()) {
    const std::vector<std::string> datasets = repo.datasets(board);
    if (datasets.empty()) throw std::runtime_error(db_path + ": board " + board + " has no data");
    dataset = datasets.front();
  }
  const std::vector<db::MeasuredConfig> measured = repo.measured(board, dataset);
  if (measured.empty())
    throw std::runtime_error(db_path + ": nothing measured on dataset '" + dataset + "'");
  const db::WorkloadRow workload = repo.workload(measured.front().config.workload);
  const Objective objective = resolve_objective(workload, select);
  const std::vector<db::MeasuredConfig> ok = satisfying(measured, constraints, workload);
  nlohmann::json j = {{"board", board}, {"dataset", dataset}, {"objective", objective.name}};
  for (const Constraint& c : constraints)
    j["constraints"][resolve_objective(workload, c.name).name] = {{"max", c.max}};
  if (ok.empty()) {
    j["selected"] = nullptr;
    j["why"] = "no config satisfies the constraints";
    std::cout << "select: no config of " << measured.size() << " satisfies the constraints\n";
  } else {
    const db::MeasuredConfig best = select_config(ok, objective, objectives_of(workload, measured));
    j["selected"] = nlohmann::json::parse(db::config_json(best.config));
    j["time_ms"] = best.measurement.time_ms_median;
    j["metrics"] = best.measurement.metrics;
    if (best.measurement.energy_mj) j["energy_mj"] = *best.measurement.energy_mj;
    std::cout << "select: " << best.config.label << " (" << ok.size() << " of " << measured.size()
              << " configs satisfy the constraints)\n";
    // Its per-item results: where the selected config is good or bad.
    j["items"] = nlohmann::json::array();
    for (const db::ItemResult& item : best.measurement.items) {
      j["items"].push_back(
          {{"item", item.item}, {"time_ms", item.time_ms}, {"metrics", item.metrics}});
      std::cout << "  " << item.item << ": " << item.time_ms << " ms";
      for (const auto& [name, value] : item.metrics) std::cout << ", " << name << " " << value;
      std::cout << '\n';
    }
  }
  std::ofstream f(fs::path(out) / "selected.json");
  f << j.dump(1) << '\n';
  if (!f) throw std::runtime_error(out + "/selected.json: cannot write");
  return ok.empty() ? 1 : 0;
}

}  // namespace flowtune::cli
