// `tune export`: the config selected from the store (the best of a dataset for an objective,
// under constraints) as a tuned header (reports/export_header.hpp), one header of several
// boards, or the whole space for Kernel Tuner (interop/kernel_tuner.hpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "interop/kernel_tuner.hpp"
#include "reports/text_format.hpp"
#include "select/export_selection.hpp"
#include "select/multi_board_header.hpp"
#include "select/text_file.hpp"
#include "select/tuned_header.hpp"
#include "workloads/frame_size.hpp"

namespace flowtune::cli {

namespace fs = std::filesystem;

namespace {

// The request of the latest `tune` run of board in the store: its --objective and --max
// constraints, read back from the run's recorded command with the same option grammar
// (expand_max_options, parse_constraints). Empty objective when the run asked for none.
struct Request {
  std::int64_t run_id = 0;
  std::string objective;
  std::vector<std::string> max_texts;
};

Request request_of_last_run(const db::Repository& repo, const std::string& board) {
  Request r;
  for (const db::RunRow& run : repo.runs(board)) {
    std::istringstream words(run.info.command);
    std::vector<std::string> tokens;
    for (std::string w; words >> w;) tokens.push_back(w);
    if (tokens.empty() || tokens[0] != "tune") continue;
    if (tokens.size() > 1 && tokens[1].rfind("--", 0) != 0 && tokens[1] != "tune") continue;
    Request candidate;
    candidate.run_id = run.id;
    po::options_description d;
    d.add_options()("objective", po::value<std::string>())(
        "max", po::value<std::vector<std::string>>())("max-evals", po::value<std::string>())(
        "max-rounds", po::value<std::string>())("max-window-ms", po::value<std::string>());
    const std::vector<std::string> expanded = expand_max_options(tokens, d);
    for (std::size_t i = 0; i + 1 < expanded.size(); ++i) {
      if (expanded[i] == "--objective") candidate.objective = expanded[i + 1];
      if (expanded[i] == "--max") candidate.max_texts.push_back(expanded[i + 1]);
      const std::string& t = expanded[i];
      if (t.rfind("--objective=", 0) == 0) candidate.objective = t.substr(12);
      if (t.rfind("--max=", 0) == 0) candidate.max_texts.push_back(t.substr(6));
    }
    if (candidate.run_id > r.run_id) r = candidate;
  }
  return r;
}

}  // namespace

int run_export(const std::vector<std::string>& raw_args) {
  bool json = false;
  std::vector<std::string> boards, resolutions;
  std::string objective = "time", out, format = "header", workload;
  StoreArgs store{"flowtune.db", ""};
  SelectionArgs selection;
  po::options_description desc = command_options("export options");
  // Repeatable, unlike board_options' --board: one header may hold several boards.
  desc.add_options()("board", po::value(&boards)->composing(),
                     "board whose measurements to export (default host; repeat for one header "
                     "of several boards)")(
      "objective", po::value(&objective)->default_value(objective),
      "time | energy | power | edp | a metric of the workload (`tune params` lists them); without "
      "it and "
      "without --max, the request of the board's latest tuning run (its --objective and "
      "--max), else time")("json", po::bool_switch(&json),
                           "print the selected config and its figures as JSON")(
      "format", po::value(&format)->default_value(format),
      "header (the tuned header) | t4 (T4 results, schema 1.0.0) | kt-cache (Kernel Tuner "
      "cache file, which its simulation mode replays); see interop/KERNEL_TUNER.md")(
      "output,o", po::value(&out)->required(), "file to write (folders created)")(
      "resolution", po::value(&resolutions)->composing(),
      "export the config tuned at this frame size (WIDTHxHEIGHT, as `tune --resolution` "
      "measured it; repeat for one header of several sizes, whose for_size() and `tune flow "
      "--tuned` pick the size nearest to the frames)")(
      "workload", po::value(&workload),
      "export the measurements of this workload (`tune params` lists them); needed when the "
      "dataset holds measurements of several");
  desc.add(store_options(store, "SQLite database")).add(selection_options(selection));
  const std::vector<std::string> args = expand_max_options(raw_args, desc);
  po::variables_map vm;
  if (parse(args, desc, {}, vm,
            "tune export --board B [--workload W] --objective time|energy|power|edp|METRIC -o "
            "tuned.h\n"
            "       tune export --board B --format t4|kt-cache -o space.json"))
    return 0;
  if (format != "header" && format != "t4" && format != "kt-cache")
    throw UsageError("--format: '" + format + "' is not header, t4 or kt-cache");
  if (!workload.empty()) {
    try {
      find_workload(workload);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--workload: ") + e.what());
    }
  }
  if (boards.empty()) boards.push_back("host");
  for (std::string& b : boards) b = resolve_board(b);
  const std::string board = boards.front();
  if (boards.size() > 1 && (format != "header" || json))
    throw UsageError("several --board: only for a header (--format header, no --json)");
  for (const std::string& r : resolutions) {
    try {
      parse_resolution(r);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--resolution: ") + e.what());
    }
  }
  if (!resolutions.empty() && (format != "header" || json))
    throw UsageError("--resolution: only for a header (--format header, no --json)");
  if (!resolutions.empty() && !selection.dataset.empty())
    throw UsageError("--resolution picks the dataset measured at that size: not with --dataset");
  const std::string db_path = store_path(store, vm, "tune export");
  const db::Repository repo(db_path, db::OpenMode::read_only);
  if (boards.size() > 1 || !resolutions.empty()) {
    const std::vector<Constraint> constraints = selection.constraints();
    std::vector<BoardChoice> choices;
    Objective o;
    // No --resolution: each board's dataset as select_for_export chooses it, native size.
    const std::vector<std::string> sizes =
        resolutions.empty() ? std::vector<std::string>{""} : resolutions;
    for (const std::string& b : boards) {
      const Board profile = load_board(b);
      for (const std::string& size : sizes) {
        const std::string dataset =
            size.empty() ? selection.dataset : dataset_at_resolution(repo, b, size);
        const ExportSelection sel =
            select_for_export(repo, b, objective, dataset, constraints, workload);
        o = sel.objective;
        BoardChoice c{b, profile.target == "cuda" ? profile.cc_major : 0,
                      profile.target == "cuda" ? profile.cc_minor : 0, sel.config};
        if (!size.empty()) {
          const Resolution r = parse_resolution(size);
          c.width = r.width;
          c.height = r.height;
        }
        choices.push_back(std::move(c));
      }
    }
    write_text_file(out, multi_board_header_text(choices, o));
    std::cout << "wrote " << out << " (" << boards.size() << " board"
              << (boards.size() > 1 ? "s" : "")
              << (resolutions.empty() ? ""
                                      : ", " + std::to_string(resolutions.size()) + " size" +
                                            (resolutions.size() > 1 ? "s" : ""))
              << ")\n";
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
        interop::write_kernel_tuner_cache(file, repo, board, selection.dataset, ko);
    file.close();
    if (!file) throw std::runtime_error(out + ": write failed");
    std::cout << "wrote " << out << " (" << format << "): dataset " << sum.dataset << ", "
              << sum.measured << " measured, " << sum.failed << " failed, " << sum.pruned
              << " pruned; optimum " << sum.best_time_ms << " ms\n";
    return 0;
  }
  std::vector<Constraint> constraints = selection.constraints();
  if (vm["objective"].defaulted() && constraints.empty()) {
    // No request on the command line: the one the latest tuning run was asked for.
    const Request asked = request_of_last_run(repo, board);
    if (!asked.objective.empty() || !asked.max_texts.empty()) {
      if (!asked.objective.empty()) objective = asked.objective;
      constraints = parse_constraints(asked.max_texts);
      std::cerr << "tune export: the request of run " << asked.run_id << " (--objective "
                << objective;
      for (const std::string& m : asked.max_texts) std::cerr << " --max " << m;
      std::cerr << ")\n";
    }
  }
  const ExportSelection chosen =
      select_for_export(repo, board, objective, selection.dataset, constraints, workload);
  write_text_file(out, tuned_header_text(chosen.config, board, chosen.objective));
  if (json) {
    nlohmann::json j = {{"header", out}, {"board", board}, {"objective", objective}};
    j["config"] = nlohmann::json::parse(db::config_json(chosen.config.config));
    std::cout << j.dump(1) << '\n';
  } else {
    std::cout << "wrote " << out << '\n';
  }
  return 0;
}

}  // namespace flowtune::cli
