// `tune replay`: strategies against a recorded run (no GPU), the comparison table.
#include <boost/algorithm/string.hpp>
#include <boost/math/statistics/univariate_statistics.hpp>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <optional>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "cli/predict_prior.hpp"
#include "db/repository.hpp"
#include "select/objectives.hpp"
#include "tuner/accuracy_table.hpp"
#include "tuner/replay.hpp"
#include "tuner/resources_json.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {
namespace {

std::string fixed(double v, int digits) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(digits) << v;
  return os.str();
}

}  // namespace

int run_replay(const std::vector<std::string>& args) {
  std::string board, dataset, strategies = "all", budget_text = "10%", budget_s_text,
                              objectives_text, csv;
  std::string prior = "estimate", prior_calibrate_from, accuracy_from;
  double accuracy_tolerance = kAccuracyTolerance;
  std::vector<std::string> max_texts, pick_texts;
  StoreArgs store;
  std::size_t seeds = 20;
  std::uint64_t first_seed = 1;
  double within = 0.05, build_s = 0;
  bool multi_fidelity = false;
  po::options_description desc = command_options("replay options");
  desc.add_options()("dataset", po::value(&dataset),
                     "dataset key (default: the board's most measured)")(
      "strategy", po::value(&strategies)->default_value(strategies),
      "a strategy, a comma-separated list, or all")(
      "seeds", po::value(&seeds)->default_value(seeds), "seeds per strategy")(
      "first-seed", po::value(&first_seed)->default_value(first_seed), "first seed")(
      "budget", po::value(&budget_text)->default_value(budget_text),
      "evaluations per seed: N, or P% of the measured + failed points")(
      "time-budget", po::value(&budget_s_text),
      "measuring time per seed instead of evaluations (90s, 8m, ...): each point costs what "
      "the recording spent measuring it (timed runs of every item + the per-point overhead)")(
      "build-s", po::value(&build_s)->default_value(build_s, "0"),
      "seconds of measuring time charged for the first point of each kernel set (variant, "
      "precision, tunables: its NVRTC build with a cold kernel cache), with --time-budget")(
      "max", po::value(&max_texts)->composing(),
      "a constraint the strategy steers towards, NAME=VALUE (repeatable; also --max-METRIC V, "
      "--max-ms T); objective 1's optimum is then the best feasible point")(
      "pick", po::value(&pick_texts)->composing(),
      "a constrained selection compared with the recording's best on every seed: "
      "OBJECTIVE[:NAME=V...], e.g. time_ms:METRIC=0.25 (the fastest point with METRIC <= "
      "0.25) or METRIC:time_ms=2 (the best METRIC within 2 ms; repeatable)")(
      "objectives", po::value(&objectives_text),
      "comma-separated; the first is minimised by single-objective strategies (default: "
      "time_ms then the workload's front objectives)")(
      "within", po::value(&within)->default_value(within, "0.05"),
      "\"near the optimum\": within this fraction of the exhaustive optimum of objective 1")(
      "csv", po::value(&csv), "also write every seed's result to this CSV file")(
      "prior", po::value(&prior)->default_value(prior),
      "model_guided's ranking: estimate (tuner/model_estimate) | predict (tune predict's model "
      "over each point's recorded resource report)")(
      "prior-calibrate-from", po::value(&prior_calibrate_from),
      "with --prior predict: refit the model on this DB's measurements of the board first "
      "(another DB than the recording, or the replay is no test)")(
      "accuracy-from", po::value(&accuracy_from),
      "as `tune --accuracy-from`: accuracy from this store (another board's or run's) on the "
      "recording's dataset; points it shows breaking a --max constraint are settled at no cost")(
      "accuracy-tolerance",
      po::value(&accuracy_tolerance)->default_value(accuracy_tolerance, "0.01"),
      "with --accuracy-from: the fraction of the bound by which a table value must break it")(
      "multi-fidelity", po::bool_switch(&multi_fidelity),
      "screen each point on the recording's first item first (3 timed runs), as `tune "
      "--multi-fidelity`; only promoted points are measured in full and count in the front");
  desc.add(board_options(board, "board of the recording (default: the DB's only/first board)"))
      .add(store_options(store, "recorded database (opened read-only)"));
  po::variables_map vm;
  if (parse(expand_max_options(args, desc), desc, {}, vm,
            "tune replay --db recorded.db [--strategy S|all] [--seeds 20] [--budget 10% | "
            "--time-budget 8m] [--max NAME=V] [--pick OBJ:NAME=V]"))
    return 0;
  const std::string db_path = store_path(store, vm, "tune replay");
  if (seeds < 1) throw UsageError("--seeds must be >= 1");
  if (!(within >= 0)) throw UsageError("--within must be >= 0");
  if (!(build_s >= 0)) throw UsageError("--build-s must be >= 0");
  check_accuracy_source("--accuracy-from", accuracy_from, accuracy_tolerance);
  const db::Repository repo(db_path, db::OpenMode::read_only);
  if (board.empty()) {
    const std::vector<std::string> boards = repo.boards();
    if (boards.empty()) throw std::runtime_error(db_path + ": no measurement to replay");
    board = boards.front();
  }
  RecordedSpace space = load_recorded_space(repo, board, dataset);
  std::optional<AccuracyTable> accuracy;
  if (!accuracy_from.empty()) {
    const db::Repository source(accuracy_from, db::OpenMode::read_only);
    accuracy = load_accuracy_table(source, accuracy_from, space.workload, space.dataset);
  }
  if (prior == "predict") {
    std::vector<std::vector<KernelResources>> kernels;
    for (const db::MeasuredConfig& m : space.measurements)
      kernels.push_back(parse_resources_json(m.measurement.resources_json));
    space.prior =
        strategy_prior(find_workload(space.workload), load_board(board), space.configs, kernels,
                       predicted_prior(board, space.workload, prior_calibrate_from, std::cout));
  } else if (prior != "estimate") {
    throw UsageError("--prior: estimate or predict, got '" + prior + "'");
  }
  std::vector<std::string> objectives;
  if (objectives_text.empty()) {
    objectives.push_back("time_ms");
    // The recorded dataset's front objectives (ref_aepe for aepe on footage).
    for (const Objective& o : objectives_of(space.workload_row, space.measurements))
      if (o.name != "time_ms") objectives.push_back(o.name);
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
  const double budget_s =
      budget_s_text.empty() ? 0.0 : parse_duration_s("--time-budget", budget_s_text);
  if (!budget_s_text.empty() && !(budget_s > 0)) throw UsageError("--time-budget must be > 0");
  const std::vector<Constraint> constraints = parse_constraints(max_texts);
  std::vector<PickRequest> picks;
  for (const std::string& t : pick_texts) {
    std::vector<std::string> parts;
    boost::split(parts, t, boost::is_any_of(":"));
    if (parts[0].empty()) throw UsageError("--pick: '" + t + "' has no objective");
    PickRequest p;
    p.objective = parts[0];
    p.constraints = parse_constraints({parts.begin() + 1, parts.end()});
    picks.push_back(p);
  }
  double total_cost_s = 0;
  for (double c : space.cost_s) total_cost_s += c;

  std::cout << "recorded space: board " << space.board << ", workload " << space.workload
            << ", dataset " << space.dataset << ", " << space.configs.size() << " points ("
            << space.n_evaluable() << " measured or failed, "
            << space.configs.size() - space.n_evaluable() << " pruned)\n"
            << "objectives: " << boost::join(objectives, ", ") << "; budget "
            << (budget_s > 0 ? fixed(budget_s, 0) + " s of measuring"
                             : std::to_string(budget) + " evaluations")
            << "; " << seeds << " seeds; near = within " << within * 100 << "% of the optimum of "
            << objectives[0] << "\n"
            << "measuring cost: the recording's points take " << fixed(total_cost_s, 1)
            << " s in all (per-point overhead " << fixed(space.overhead_s, 3) << " s)\n";
  if (build_s > 0)
    std::cout << "kernel builds: the first point of each kernel set costs " << fixed(build_s, 2)
              << " s more\n";
  if (multi_fidelity)
    std::cout << "multi-fidelity: every point screened on the first item (3 timed runs); "
                 "promoted points measured in full\n";
  for (const Constraint& c : constraints)
    std::cout << "the strategy steers towards " << c.name << " <= " << c.max << "\n";
  if (accuracy) {
    std::vector<db::MeasuredConfig> measured;
    for (std::size_t i = 0; i < space.configs.size(); ++i)
      if (space.outcomes[i] == Outcome::measured) measured.push_back(space.measurements[i]);
    const AccuracyAgreement a = accuracy_agreement(*accuracy, measured);
    std::cout << "accuracy table: " << accuracy->size() << " keys from " << accuracy_from << "; "
              << a.rows_with_key << " of the recording's " << a.rows
              << " measured points have a key of it";
    std::string sep = ", differing from it by at most ";
    for (const auto& [name, d] : a.max_relative_difference) {
      std::cout << sep << fixed(d * 100, 3) << "% in " << name;
      sep = ", ";
    }
    std::cout << "\n";
  }
  std::cout
      << "\n| strategy | seeds near optimum | median evals to near | mean best / optimum "
         "| mean HV fraction | min HV fraction | median evals | median measuring s | median kernel "
         "sets | median measuring s to near |"
      << (accuracy ? " median points not timed |" : "");
  for (const PickRequest& p : picks)
    std::cout << " seeds: " << p.label() << " within " << within * 100 << "% |";
  std::cout << "\n|---|---|---|---|---|---|---|---|---|---|" << (accuracy ? "---|" : "");
  for (std::size_t k = 0; k < picks.size(); ++k) std::cout << "---|";
  std::cout << "\n";
  std::ofstream csv_out;
  if (!csv.empty()) {
    csv_out.open(csv);
    if (!csv_out) throw std::runtime_error(csv + ": cannot open for writing");
    csv_out << "strategy,seed,budget,evaluations,evals_to_within,best,optimum,hv_fraction,cost_s,"
               "kernel_sets,cost_to_within_s,not_timed";
    for (std::size_t k = 0; k < picks.size(); ++k)
      csv_out << ",pick" << k << ",pick" << k << "_best";
    csv_out << '\n';
  }
  for (const std::string& name : names) {
    ReplayOptions ro;
    ro.strategy = name;
    ro.first_seed = first_seed;
    ro.seeds = seeds;
    ro.budget = budget;
    ro.objectives = objectives;
    ro.within = within;
    ro.budget_s = budget_s;
    ro.build_s = build_s;
    ro.constraints = constraints;
    ro.picks = picks;
    ro.multi_fidelity = multi_fidelity;
    if (accuracy) ro.accuracy = &*accuracy;
    ro.accuracy_tolerance = accuracy_tolerance;
    const ReplayResult r = replay(space, ro);
    std::vector<double> to_near, ratio, hv, evals, cost, kernel_sets, cost_to_near, not_timed;
    for (const SeedResult& s : r.seeds) {
      if (s.evals_to_within) to_near.push_back(double(s.evals_to_within));
      if (s.evals_to_within) cost_to_near.push_back(s.cost_to_within_s);
      not_timed.push_back(double(s.not_timed));
      ratio.push_back(s.best / r.optimum);
      hv.push_back(s.hypervolume_fraction);
      evals.push_back(double(s.evaluations));
      cost.push_back(s.cost_s);
      kernel_sets.push_back(double(s.kernel_sets));
      if (csv_out) {
        csv_out << name << ',' << s.seed << ',' << budget << ',' << s.evaluations << ','
                << s.evals_to_within << ',' << s.best << ',' << r.optimum << ','
                << s.hypervolume_fraction << ',' << s.cost_s << ',' << s.kernel_sets << ','
                << s.cost_to_within_s << ',' << s.not_timed;
        for (std::size_t k = 0; k < picks.size(); ++k)
          csv_out << ',' << s.picks[k] << ',' << r.pick_optimum[k];
        csv_out << '\n';
      }
    }
    double mean_ratio = 0, mean_hv = 0;
    for (double x : ratio) mean_ratio += x / double(ratio.size());
    for (double x : hv) mean_hv += x / double(hv.size());
    const std::string shown = r.strategy == name ? name : name + " (" + r.strategy + ")";
    std::cout << "| " << shown << " | " << r.n_within() << "/" << r.seeds.size() << " | "
              << (to_near.empty() ? std::string("-")
                                  : fixed(boost::math::statistics::median(to_near), 0))
              << " | " << fixed(mean_ratio, 3) << " | " << fixed(mean_hv, 3) << " | "
              << fixed(*std::min_element(hv.begin(), hv.end()), 3) << " | "
              << fixed(boost::math::statistics::median(evals), 0) << " | "
              << fixed(boost::math::statistics::median(cost), 1) << " | "
              << fixed(boost::math::statistics::median(kernel_sets), 0) << " | "
              << (cost_to_near.empty() ? std::string("-")
                                       : fixed(boost::math::statistics::median(cost_to_near), 1))
              << " |"
              << (accuracy ? " " + fixed(boost::math::statistics::median(not_timed), 0) + " |"
                           : std::string());
    for (std::size_t k = 0; k < picks.size(); ++k)
      std::cout << ' ' << r.n_pick_within(k, within) << "/" << r.seeds.size() << " |";
    std::cout << "\n";
  }
  return 0;
}

}  // namespace flowtune::cli
