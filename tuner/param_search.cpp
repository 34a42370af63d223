#include "tuner/param_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <stdexcept>

#include "boards/board.hpp"
#include "db/repository.hpp"
#include "kernels/cancellation.hpp"
#include "select/config_rows.hpp"
#include "tuner/constraints.hpp"
#include "tuner/environment.hpp"
#include "tuner/evaluator.hpp"

namespace flowtune {

std::vector<double> refine_around(double best, double ratio, const ParamSpec& spec) {
  if (!(ratio > 1) || !(best > 0))
    throw std::invalid_argument("refine_around: need ratio > 1 and best > 0");
  if (spec.type == ParamSpec::Type::categorical)
    throw std::invalid_argument("refine_around: '" + spec.name + "' is categorical");
  const bool integer = spec.type == ParamSpec::Type::integer;
  std::vector<double> out;
  for (double v : {best / std::sqrt(ratio), best, best * std::sqrt(ratio)}) {
    if (integer) v = std::round(v);
    if (!spec.invalid_reason(v) && std::find(out.begin(), out.end(), v) == out.end())
      out.push_back(v);
  }
  return out;
}

ParamDimensions refinement_grid(const std::vector<SearchDimension>& dimensions,
                                const std::vector<const ParamSpec*>& specs, const ParamValues& best,
                                const std::vector<double>& ratios) {
  if (specs.size() != dimensions.size() || ratios.size() != dimensions.size())
    throw std::invalid_argument("refinement_grid: dimensions, specs and ratios differ in size");
  ParamDimensions local;
  for (std::size_t k = 0; k < dimensions.size(); ++k) {
    const std::string& name = dimensions[k].name;
    const auto it = best.find(name);
    if (it == best.end())
      throw std::invalid_argument("refinement_grid: the best cell has no '" + name + "'");
    local[name] = dimensions[k].refined ? refine_around(it->second, ratios[k], *specs[k])
                                        : std::vector<double>{it->second};
  }
  return local;
}

namespace {

// The metric of config on inputs: read from the DB when measured there, else measured by an
// Evaluator and recorded; +-infinity (the worst value) for a config that fails.
class CellEvaluator {
 public:
  CellEvaluator(db::Repository& repo, const Board& board, const Workload& workload,
                std::int64_t run, const ParamSearchOptions& options)
      : repo_(repo), board_(board), workload_(workload), run_(run), options_(options) {}

  double operator()(const Config& config, const InputSet& inputs, const InputOptions& from) {
    const db::ConfigRow row = to_config_row(board_.name, config);
    if (repo_.is_measured(board_.name, row.key, inputs.key())) {
      for (const db::MeasuredConfig& mc : repo_.measured(board_.name, inputs.key()))
        if (mc.config.key == row.key) return mc.measurement.metric(options_.metric);
    }
    const EvaluationContext context{
        board_, {{from, options_.measure, inputs.key()}}, false, options_.config_timeout_s};
    const std::unique_ptr<Evaluator> evaluator =
        options_.isolate ? make_worker_process_evaluator(context)
                         : make_in_process_evaluator(context, {&inputs}, nullptr);
    Evaluation e;
    e.config = row;
    evaluator->submit(e);
    std::vector<EvaluationOutcome> out = evaluator->collect([] { return false; });
    if (out.empty() || out.front().kind == EvaluationOutcome::Kind::cancelled) throw Cancelled();
    EvaluationOutcome& o = out.front();
    record_outcome(repo_, run_, o);
    if (o.kind == EvaluationOutcome::Kind::failed)
      return worst_ * std::numeric_limits<double>::infinity();
    return o.measurement.metric(options_.metric);
  }
  /// +1 when the metric is minimised, -1 when maximised.
  void set_direction(double sign) { worst_ = sign; }

 private:
  db::Repository& repo_;
  const Board& board_;
  const Workload& workload_;
  std::int64_t run_;
  const ParamSearchOptions& options_;
  double worst_ = 1;
};

}  // namespace

ParamSearchResult search_parameters(const ParamSearchOptions& o, std::ostream& log) {
  const Board board = load_board(o.board);
  if (board.target == "cuda") check_board_matches_device(board);
  const Workload& workload = find_workload(o.space.workload);
  const auto metric_it = std::find_if(workload.metrics().begin(), workload.metrics().end(),
                                      [&](const MetricSpec& m) { return m.name == o.metric; });
  if (metric_it == workload.metrics().end())
    throw std::invalid_argument("metric '" + o.metric + "' is not a metric of workload " +
                                workload.name());
  const double sign = metric_it->minimize ? 1.0 : -1.0;
  if (o.dimensions.empty()) throw std::invalid_argument("no parameter to search");
  std::vector<double> ratio;
  std::vector<const ParamSpec*> specs;
  for (const SearchDimension& d : o.dimensions) {
    const ParamSpec* spec = workload.find_param(d.name);
    if (!spec) throw std::invalid_argument("unknown parameter '" + d.name + "'");
    specs.push_back(spec);
    if (d.grid.empty()) throw std::invalid_argument("the grid of '" + d.name + "' is empty");
    for (double v : d.grid)
      if (auto why = spec->invalid_reason(v)) throw std::invalid_argument(*why);
    if (!d.refined) {
      ratio.push_back(0);
      continue;
    }
    if (spec->type == ParamSpec::Type::categorical)
      throw std::invalid_argument("parameter '" + d.name +
                                  "' is categorical: its values are listed, not refined");
    if (d.grid.size() < 2 || !std::is_sorted(d.grid.begin(), d.grid.end()) || !(d.grid.front() > 0))
      throw std::invalid_argument("the grid of '" + d.name +
                                  "' needs >= 2 ascending positive values");
    ratio.push_back(std::pow(d.grid.back() / d.grid.front(), 1.0 / double(d.grid.size() - 1)));
  }

  // The base config: the first runnable point of the (single-valued) space.
  Config base;
  bool found = false;
  for (const Config& c : make_space(board, o.space)) {
    if (prune_reason(board, *find_workload_variant(workload, c.variant), c)) continue;
    base = c;
    found = true;
    break;
  }
  if (!found) throw std::invalid_argument("the base space has no runnable config on " + board.name);
  for (const SearchDimension& d : o.dimensions)
    for (double v : d.grid) {  // rules between parameters, e.g. median_window in {0, 3, 5}
      Config c = base;
      c.params[d.name] = v;
      if (auto why = workload.check_params(c))
        throw std::invalid_argument("searched " + d.name + ": " + *why);
    }

  const std::unique_ptr<InputSet> train = workload.load_inputs(o.train);
  const std::unique_ptr<InputSet> test = workload.load_inputs(o.test);
  db::Repository repo(o.db_path);
  repo.record_workload(to_workload_row(workload));
  db::RunInfo info = collect_run_info(board, o.command, train->key());
  info.workload = workload.name();
  const std::int64_t run = repo.begin_run(info);
  CellEvaluator evaluate(repo, board, workload, run, o);
  evaluate.set_direction(sign);

  ParamSearchResult r;
  r.train_key = train->key();
  r.test_key = test->key();
  r.baseline = base;
  std::map<ParamValues, double> seen;
  const auto config_of = [&](const ParamValues& values) {
    Config c = base;
    for (const auto& [name, v] : values) c.params[name] = v;
    return c;
  };
  const auto visit = [&](const std::vector<ParamValues>& cells) {
    for (const ParamValues& cell : cells) {
      if (seen.count(cell)) continue;
      const double value = evaluate(config_of(cell), *train, o.train);
      seen[cell] = value;
      r.trace.push_back({cell, value});
      log << "[" << r.trace.size() << "] " << config_of(cell).params_text() << ": " << o.metric
          << " " << value << " on " << r.train_key << '\n';
    }
  };
  const auto best_cell = [&] {
    return std::min_element(r.trace.begin(), r.trace.end(),
                            [&](const SearchPoint& a, const SearchPoint& b) {
                              return sign * a.train < sign * b.train;
                            })
        ->values;
  };
  try {
    ParamDimensions grid;
    for (const SearchDimension& d : o.dimensions) grid[d.name] = d.grid;
    visit(parameter_points(grid));
    for (int round = 0; round < o.refinements; ++round) {
      const ParamValues best = best_cell();
      const ParamDimensions local = refinement_grid(o.dimensions, specs, best, ratio);
      for (double& step : ratio) step = std::sqrt(step);
      log << "refinement " << round + 1 << " around " << config_of(best).params_text() << '\n';
      visit(parameter_points(local));
    }
    const ParamValues best = best_cell();
    r.best = config_of(best);
    r.best_train = seen.at(best);
    r.best_test = evaluate(r.best, *test, o.test);
    r.baseline_train = evaluate(base, *train, o.train);
    r.baseline_test = evaluate(base, *test, o.test);
  } catch (...) {
    repo.end_run(run, "failed");
    throw;
  }
  repo.end_run(run, "done");
  return r;
}

}  // namespace flowtune
