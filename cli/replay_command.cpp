// `tune replay`: strategies against a recorded run (no GPU), the comparison table.
#include <boost/algorithm/string.hpp>
#include <boost/math/statistics/univariate_statistics.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "tuner/replay.hpp"

namespace flowtune::cli {
namespace {

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

}  // namespace

int run_replay(const std::vector<std::string>& args) {
  std::string board, dataset, strategies = "all", budget_text = "10%", objectives_text, csv;
  StoreArgs store;
  std::size_t seeds = 20;
  std::uint64_t first_seed = 1;
  double within = 0.05;
  po::options_description desc = command_options("replay options");
  desc.add_options()("dataset", po::value(&dataset),
                     "dataset key (default: the board's most measured)")(
      "strategy", po::value(&strategies)->default_value(strategies),
      "a strategy, a comma-separated list, or all")(
      "seeds", po::value(&seeds)->default_value(seeds), "seeds per strategy")(
      "first-seed", po::value(&first_seed)->default_value(first_seed), "first seed")(
      "budget", po::value(&budget_text)->default_value(budget_text),
      "evaluations per seed: N, or P% of the measured + failed points")(
      "objectives", po::value(&objectives_text),
      "comma-separated; the first is minimised by single-objective strategies (default: "
      "time_ms then the workload's front objectives)")(
      "within", po::value(&within)->default_value(within, "0.05"),
      "\"near the optimum\": within this fraction of the exhaustive optimum of objective 1")(
      "csv", po::value(&csv), "also write every seed's result to this CSV file");
  desc.add(board_options(board, "board of the recording (default: the DB's only/first board)"))
      .add(store_options(store, "recorded database (opened read-only)"));
  po::variables_map vm;
  if (parse(args, desc, {}, vm,
            "tune replay --db recorded.db [--strategy S|all] [--seeds 20] [--budget 10%]"))
    return 0;
  const std::string db_path = store_path(store, vm, "tune replay");
  if (seeds < 1) throw UsageError("--seeds must be >= 1");
  if (!(within >= 0)) throw UsageError("--within must be >= 0");
  const db::Repository repo(db_path, db::OpenMode::read_only);
  if (board.empty()) {
    const std::vector<std::string> boards = repo.boards();
    if (boards.empty()) throw std::runtime_error(db_path + ": no measurement to replay");
    board = boards.front();
  }
  const RecordedSpace space = load_recorded_space(repo, board, dataset);
  std::vector<std::string> objectives;
  if (objectives_text.empty()) {
    objectives.push_back("time_ms");
    for (const std::string& o : space.workload_row.front_objectives)
      if (o != "time_ms") objectives.push_back(o);
  } else {
    boost::split(objectives, objectives_text, boost::is_any_of(","));
  }
  std::vector<std::string> names;
  if (strategies == "all")
    names = strategy_names();
  else
    boost::split(names, strategies, boost::is_any_of(","));
  const Budget b = parse_budget("--budget", budget_text);
  const std::size_t budget =
      b.fraction > 0 ? std::max<std::size_t>(
                           1, std::size_t(std::ceil(b.fraction * double(space.n_evaluable()))))
                     : b.evaluations;

  std::cout << "recorded space: board " << space.board << ", workload " << space.workload
            << ", dataset " << space.dataset << ", " << space.configs.size() << " points ("
            << space.n_evaluable() << " measured or failed, "
            << space.configs.size() - space.n_evaluable() << " pruned)\n"
            << "objectives: " << boost::join(objectives, ", ") << "; budget " << budget
            << " evaluations; " << seeds << " seeds; near = within " << within * 100
            << "% of the optimum of " << objectives[0] << "\n\n"
            << "| strategy | seeds near optimum | median evals to near | mean best / optimum "
               "| mean HV fraction | min HV fraction |\n|---|---|---|---|---|---|\n";
  std::ofstream csv_out;
  if (!csv.empty()) {
    csv_out.open(csv);
    if (!csv_out) throw std::runtime_error(csv + ": cannot open for writing");
    csv_out << "strategy,seed,budget,evaluations,evals_to_within,best,optimum,hv_fraction\n";
  }
  for (const std::string& name : names) {
    ReplayOptions ro;
    ro.strategy = name;
    ro.first_seed = first_seed;
    ro.seeds = seeds;
    ro.budget = budget;
    ro.objectives = objectives;
    ro.within = within;
    const ReplayResult r = replay(space, ro);
    std::vector<double> to_near, ratio, hv;
    for (const SeedResult& s : r.seeds) {
      if (s.evals_to_within) to_near.push_back(double(s.evals_to_within));
      ratio.push_back(s.best / r.optimum);
      hv.push_back(s.hypervolume_fraction);
      if (csv_out)
        csv_out << name << ',' << s.seed << ',' << budget << ',' << s.evaluations << ','
                << s.evals_to_within << ',' << s.best << ',' << r.optimum << ','
                << s.hypervolume_fraction << '\n';
    }
    double mean_ratio = 0, mean_hv = 0;
    for (double x : ratio) mean_ratio += x / double(ratio.size());
    for (double x : hv) mean_hv += x / double(hv.size());
    std::cout << "| " << name << " | " << r.n_within() << "/" << r.seeds.size() << " | "
              << (to_near.empty() ? std::string("-")
                                  : fixed(boost::math::statistics::median(to_near), 0))
              << " | " << fixed(mean_ratio, 3) << " | " << fixed(mean_hv, 3) << " | "
              << fixed(*std::min_element(hv.begin(), hv.end()), 3) << " |\n";
  }
  return 0;
}

}  // namespace flowtune::cli
