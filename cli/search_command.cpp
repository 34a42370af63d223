// `tune search`: grid + refinement search of real, integer and categorical parameters,
// trained and held out (tuner/param_search.hpp).
#include <algorithm>
#include <iostream>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "tuner/param_search.hpp"

namespace flowtune::cli {

int run_search(const std::vector<std::string>& args) {
  ParamSearchOptions o;
  SpaceArgs space;
  std::vector<std::string> searched;
  std::string train, test;
  StoreArgs store{o.db_path, ""};
  InputArgs inputs;
  o.measure.min_rounds = 0;  // an accuracy search: the scored run alone, timed once
  o.measure.max_rounds = 0;
  o.measure.min_window_ms = 0;
  po::options_description desc = command_options("search options");
  desc.add_options()(
      "search", po::value(&searched)->composing(),
      "a searched parameter and its initial grid (repeatable): NAME=LO:HI:log:COUNT or, for a "
      "real one, NAME=V1,V2,... (refined around the best); an integer one's list NAME=V1,V2,... "
      "or a categorical one's NAME=CHOICE1,CHOICE2,... is tried value by value, not refined")(
      "refinements", po::value(&o.refinements)->default_value(o.refinements),
      "rounds of refinement around the best cell")(
      "metric", po::value(&o.metric)->required(),
      "the workload metric to optimise (`tune params` lists them)")(
      "train", po::value(&train)->required(), "comma-separated training items")(
      "test", po::value(&test)->required(), "comma-separated held-out items");
  desc.add(board_options(o.board))
      .add(store_options(store, "SQLite database (every evaluation is stored; a search resumes)"))
      .add(input_options(inputs, kInputData))
      .add(space_options(space));
  po::variables_map vm;
  if (parse(args, desc, {}, vm,
            "tune search --board B --workload W --search NAME=LO:HI:log:N ... --metric M --train "
            "A,B --test C,D"))
    return 0;
  if (searched.empty())
    throw UsageError("give at least one --search NAME=LO:HI:log:COUNT or NAME=V1,V2,...");
  o.db_path = store_path(store, vm, "tune search");
  o.board = resolve_board(o.board);
  space.no_default_dimensions = true;
  o.space = to_space_options(space);
  const Workload& workload = find_workload(o.space.workload);
  for (const std::string& s : searched) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0)
      throw UsageError("--search '" + s + "': expected NAME=LO:HI:log:COUNT or NAME=V1,V2,...");
    const std::string name = s.substr(0, eq);
    const ParamSpec* spec = workload.find_param(name);
    if (!spec)
      throw UsageError("--search: unknown parameter '" + name + "' of workload " + workload.name());
    const std::string text = s.substr(eq + 1);
    SearchDimension d{name, {}, true};
    if (spec->type == ParamSpec::Type::real) {
      d.grid = parse_param_values(name, text, false);
      for (double v : d.grid)
        if (auto why = spec->invalid_reason(v)) throw UsageError("--search: " + *why);
    } else {  // integer: a range is refined (rounded), a list is tried as is; categorical: list
      d.grid = parse_spec_values(*spec, text, "--search");
      d.refined = spec->type == ParamSpec::Type::integer && text.find(':') != std::string::npos;
      if (d.refined) std::sort(d.grid.begin(), d.grid.end());
    }
    o.dimensions.push_back(std::move(d));
  }
  o.train.data_dir = o.test.data_dir = inputs.data_dir;
  o.train.items = split_list(train);
  o.test.items = split_list(test);
  o.command = "tune search";
  for (const std::string& a : args) o.command += " " + a;

  const ParamSearchResult r = search_parameters(o, std::cerr);
  std::cout << "\nsearched " << r.trace.size() << " cells on " << r.train_key << "\n"
            << "best:     " << r.best.label() << " " << r.best.params_text() << "\n"
            << "          " << o.metric << " " << r.best_train << " (train), " << r.best_test
            << " (held out: " << r.test_key << ")\n"
            << "baseline: " << r.baseline.params_text() << "\n"
            << "          " << o.metric << " " << r.baseline_train << " (train), "
            << r.baseline_test << " (held out)\n";
  return 0;
}

}  // namespace flowtune::cli
