#include <iostream>
#include <sstream>

#include "reports/report.hpp"
#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune::cli {

int run_tune(const std::vector<std::string>& args) {
  TuneOptions o;
  SpaceArgs space;
  std::string sequences;
  po::options_description desc("tune options");
  desc.add_options()("help,h", "this help")
      ("board", po::value(&o.board)->default_value(o.board), "board profile name, a .toml path, or auto")
      ("db", po::value(&o.db_path)->default_value(o.db_path), "SQLite database (created if absent; runs resume)")
      ("data", po::value(&o.data_dir), "folder of Middlebury-style sequences (default: the repo's data/middlebury)")
      ("sequences", po::value(&sequences), "comma-separated sequence names (default: all in --data)")
      ("strategy", po::value(&o.strategy)->default_value(o.strategy), "brute_force | random_sample")
      ("max-evals", po::value(&o.max_evals)->default_value(0), "random_sample: configs to measure (0 = all)")
      ("seed", po::value(&o.seed)->default_value(1), "random seed of the strategy")
      ("min-rounds", po::value(&o.measure.min_rounds)->default_value(o.measure.min_rounds), "timed frames per sequence, at least")
      ("min-window-ms", po::value(&o.measure.min_window_ms)->default_value(o.measure.min_window_ms), "timed window per sequence, at least (energy needs >= 200)")
      ("allow-clock-control", po::bool_switch(&o.allow_clock_control), "explore GPU clocks by setting them (needs privileges; never on shared machines)");
  add_space_options(desc, space);
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune [--board B] [--db P] [options]")) return 0;
  o.board = resolve_board(o.board);
  o.space = to_space_options(space);
  if (!sequences.empty()) {
    std::stringstream ss(sequences);
    for (std::string s; std::getline(ss, s, ',');) o.sequences.push_back(s);
  }
  o.command = "tune";
  for (const std::string& a : args) o.command += " " + a;

  const TuneSummary summary = run_tuning(o, std::cerr);
  std::cout << "\nboard " << o.board << ": " << summary.n_space << " configs, " << summary.n_measured
            << " measured now, " << summary.n_resumed << " already in the DB, " << summary.n_pruned
            << " pruned, " << summary.n_failed << " failed" << (summary.interrupted ? " (interrupted)" : "")
            << "\nPareto front (time per frame vs AEPE), dataset " << summary.dataset << ":\n"
            << reports::format_pareto_table(summary.front);
  return summary.interrupted ? 130 : 0;
}

}  // namespace flowtune::cli
