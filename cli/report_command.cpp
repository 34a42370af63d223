#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "boards/board.hpp"
#include "db/repository.hpp"
#include "interop/kernel_tuner.hpp"
#include "reports/export_header.hpp"
#include "reports/multi_board_header.hpp"
#include "reports/report.hpp"
#include "reports/text_format.hpp"
#include "cli/cli.hpp"
#include "cli/options.hpp"

namespace flowtune::cli {

namespace fs = std::filesystem;

namespace {

// "--max-METRIC 0.25" / "--max-METRIC=0.25" -> "--max METRIC=0.25" (any figure of the workload);
// --max-ms and --max-mj are time_ms and energy_mj.
std::vector<std::string> expand_max_options(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a.rfind("--max-", 0) != 0 || a == "--max-pixels") {
      out.push_back(a);
      continue;
    }
    std::string name = a.substr(6), value;
    if (const auto eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else if (i + 1 < args.size()) {
      value = args[++i];
    } else {
      throw UsageError(a + " needs a value");
    }
    if (name == "ms") name = "time_ms";
    if (name == "mj") name = "energy_mj";
    out.push_back("--max");
    out.push_back(name + "=" + value);
  }
  return out;
}

std::vector<reports::Constraint> parse_constraints(const std::vector<std::string>& texts) {
  std::vector<reports::Constraint> out;
  for (const std::string& t : texts) {
    const auto eq = t.find('=');
    std::size_t used = 0;
    double v = 0;
    try {
      if (eq == std::string::npos) throw std::invalid_argument(t);
      v = std::stod(t.substr(eq + 1), &used);
    } catch (const std::exception&) {
      throw UsageError("--max: '" + t + "' is not NAME=NUMBER (e.g. --max-METRIC 0.25)");
    }
    if (used != t.size() - eq - 1 || !std::isfinite(v))
      throw UsageError("--max: '" + t + "' is not NAME=NUMBER (e.g. --max-METRIC 0.25)");
    out.push_back({t.substr(0, eq), v});
  }
  return out;
}

}  // namespace

int run_export(const std::vector<std::string>& raw_args) {
  const std::vector<std::string> args = expand_max_options(raw_args);
  std::vector<std::string> max_texts;
  bool json = false;
  std::vector<std::string> boards;
  std::string db_path = "flowtune.db", objective = "time", out, dataset, format = "header";
  po::options_description desc("export options");
  desc.add_options()("help,h", "this help")("board", po::value(&boards)->composing(),
                                            "board whose measurements to export (default host; "
                                            "repeat for one header of several boards)")(
      "db", po::value(&db_path)->default_value(db_path), "SQLite database")(
      "dataset", po::value(&dataset),
      "dataset key (default: the board's dataset with the most measurements)")(
      "objective", po::value(&objective)->default_value(objective),
      "time | energy | a metric of the workload (`tune params` lists them)")(
      "max", po::value(&max_texts)->composing(),
      "a constraint NAME=VALUE (repeatable); also --max-ms T, --max-mj E and --max-METRIC V, "
      "e.g. --max-<accuracy metric> 0.25")("json", po::bool_switch(&json),
                                           "print the selected config and its figures as JSON")(
      "format", po::value(&format)->default_value(format),
      "header (the tuned header) | t4 (T4 results, schema 1.0.0) | kt-cache (Kernel Tuner "
      "cache file, which its simulation mode replays); see interop/KERNEL_TUNER.md")(
      "output,o", po::value(&out)->required(), "file to write (folders created)");
  po::variables_map vm;
  if (parse(args, desc, {}, vm,
            "tune export --board B --objective time|energy|METRIC -o tuned.h\n"
            "       tune export --board B --format t4|kt-cache -o space.json"))
    return 0;
  if (format != "header" && format != "t4" && format != "kt-cache")
    throw UsageError("--format: '" + format + "' is not header, t4 or kt-cache");
  if (boards.empty()) boards.push_back("host");
  for (std::string& b : boards) b = resolve_board(b);
  const std::string board = boards.front();
  if (boards.size() > 1 && (format != "header" || json))
    throw UsageError("several --board: only for a header (--format header, no --json)");
  const db::Repository repo(db_path, db::OpenMode::read_only);
  if (boards.size() > 1) {
    const std::vector<reports::Constraint> constraints = parse_constraints(max_texts);
    std::vector<reports::BoardChoice> choices;
    reports::Objective o;
    for (const std::string& b : boards) {
      const Board profile = load_board(b);
      const reports::ExportSelection sel =
          reports::select_for_export(repo, b, objective, dataset, constraints);
      o = sel.objective;
      choices.push_back({b, profile.target == "cuda" ? profile.cc_major : 0,
                         profile.target == "cuda" ? profile.cc_minor : 0, sel.config});
    }
    reports::detail::write_text_file(out, reports::multi_board_header_text(choices, o));
    std::cout << "wrote " << out << " (" << boards.size() << " boards)\n";
    return 0;
  }
  if (format != "header") {
    interop::KernelTunerExportOptions ko;
    ko.format = format == "t4" ? interop::KernelTunerFormat::t4 : interop::KernelTunerFormat::cache;
    const fs::path path(out);
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    std::ofstream file(out);
    if (!file) throw std::runtime_error(out + ": cannot open for writing");
    const interop::KernelTunerExportSummary sum =
        interop::write_kernel_tuner_cache(file, repo, board, dataset, ko);
    file.close();
    if (!file) throw std::runtime_error(out + ": write failed");
    std::cout << "wrote " << out << " (" << format << "): dataset " << sum.dataset << ", "
              << sum.measured << " measured, " << sum.failed << " failed, " << sum.pruned
              << " pruned; optimum " << sum.best_time_ms << " ms\n";
    return 0;
  }
  const std::vector<reports::Constraint> constraints = parse_constraints(max_texts);
  reports::export_tuned_header(repo, board, objective, out, dataset, constraints);
  if (json) {
    std::ifstream in(out);
    std::string line, config;
    while (std::getline(in, line))
      if (line.rfind("// flowtune-config: ", 0) == 0) config = line.substr(20);
    nlohmann::json j = {{"header", out}, {"board", board}, {"objective", objective}};
    j["config"] = nlohmann::json::parse(config);
    std::cout << j.dump(1) << '\n';
  } else {
    std::cout << "wrote " << out << '\n';
  }
  return 0;
}

int run_report(const std::vector<std::string>& raw_args) {
  const std::vector<std::string> args = expand_max_options(raw_args);
  std::string board = "host", db_path = "flowtune.db", out, select, dataset;
  std::vector<std::string> max_texts;
  po::options_description desc("report options");
  desc.add_options()("help,h", "this help")("board", po::value(&board)->default_value(board),
                                            "board to report on")(
      "db", po::value(&db_path)->default_value(db_path), "SQLite database")(
      "output,o", po::value(&out)->required(), "output folder")(
      "select", po::value(&select),
      "also select the best config for this objective (time | energy | a metric) under the "
      "--max constraints, into DIR/selected.json")(
      "dataset", po::value(&dataset), "--select: dataset key (default: the most measured)")(
      "max", po::value(&max_texts)->composing(),
      "--select: a constraint NAME=VALUE (repeatable; also --max-ms, --max-mj, --max-METRIC)");
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune report --board B -o DIR [--select time --max-METRIC V ...]"))
    return 0;
  if (!max_texts.empty() && select.empty())
    throw UsageError("--max constraints apply to --select; give --select OBJECTIVE");
  const std::vector<reports::Constraint> constraints = parse_constraints(max_texts);
  const db::Repository repo(db_path, db::OpenMode::read_only);
  board = resolve_board(board);
  reports::write_report(repo, board, out);
  std::cout << "wrote the report of board " << board << " to " << out << '\n';
  if (select.empty()) return 0;
  if (dataset.empty()) {
    const std::vector<std::string> datasets = repo.datasets(board);
    if (datasets.empty()) throw std::runtime_error(db_path + ": board " + board + " has no data");
    dataset = datasets.front();
  }
  const std::vector<db::MeasuredConfig> measured = repo.measured(board, dataset);
  if (measured.empty())
    throw std::runtime_error(db_path + ": nothing measured on dataset '" + dataset + "'");
  const db::WorkloadRow workload = repo.workload(measured.front().config.workload);
  const reports::Objective objective = reports::resolve_objective(workload, select);
  const std::vector<db::MeasuredConfig> ok = reports::satisfying(measured, constraints, workload);
  nlohmann::json j = {{"board", board}, {"dataset", dataset}, {"objective", objective.name}};
  for (const reports::Constraint& c : constraints)
    j["constraints"][reports::resolve_objective(workload, c.name).name] = {{"max", c.max}};
  if (ok.empty()) {
    j["selected"] = nullptr;
    j["why"] = "no config satisfies the constraints";
    std::cout << "select: no config of " << measured.size() << " satisfies the constraints\n";
  } else {
    const db::MeasuredConfig best =
        reports::select_config(ok, objective, reports::objectives_of(workload));
    j["selected"] = nlohmann::json::parse(db::config_json(best.config));
    j["time_ms"] = best.measurement.time_ms_median;
    j["metrics"] = best.measurement.metrics;
    if (best.measurement.energy_mj) j["energy_mj"] = *best.measurement.energy_mj;
    std::cout << "select: " << best.config.label << " (" << ok.size() << " of " << measured.size()
              << " configs satisfy the constraints)\n";
  }
  std::ofstream f(fs::path(out) / "selected.json");
  f << j.dump(1) << '\n';
  if (!f) throw std::runtime_error(out + "/selected.json: cannot write");
  return ok.empty() ? 1 : 0;
}

}  // namespace flowtune::cli
