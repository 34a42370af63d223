#include "tuner/replay.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <stdexcept>

#include "select/hypervolume.hpp"
#include "select/pareto.hpp"
#include "tuner/model_estimate.hpp"
#include "tuner/resources_json.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {
namespace {

// Normalised (to [0,1] by the measured range) oriented objective vectors of points; NaN where
// a figure is missing.
struct Normaliser {
  std::vector<double> lo, hi;
  std::vector<double> operator()(const std::vector<double>& v) const {
    std::vector<double> out(v.size());
    for (std::size_t k = 0; k < v.size(); ++k)
      out[k] = hi[k] > lo[k] ? (v[k] - lo[k]) / (hi[k] - lo[k]) : 0.0;
    return out;
  }
};

double front_hypervolume(const std::vector<std::vector<double>>& normalised) {
  std::vector<std::vector<double>> finite;
  for (const auto& v : normalised)
    if (std::all_of(v.begin(), v.end(), [](double x) { return std::isfinite(x); }))
      finite.push_back(v);
  std::vector<std::vector<double>> front;
  for (std::size_t i : pareto_front(finite)) front.push_back(finite[i]);
  return hypervolume(front,
                     std::vector<double>(normalised.empty() ? 0 : normalised[0].size(), 1.1));
}

}  // namespace

std::size_t RecordedSpace::n_evaluable() const {
  return std::size_t(std::count_if(outcomes.begin(), outcomes.end(),
                                   [](Outcome o) { return o != Outcome::pruned; }));
}

std::size_t ReplayResult::n_within() const {
  return std::size_t(std::count_if(seeds.begin(), seeds.end(),
                                   [](const SeedResult& s) { return s.evals_to_within > 0; }));
}

RecordedSpace load_recorded_space(const db::Repository& repo, const std::string& board,
                                  const std::string& dataset) {
  RecordedSpace rs;
  rs.board = board;
  rs.dataset = dataset;
  if (rs.dataset.empty()) {
    const std::vector<std::string> datasets = repo.datasets(board);
    if (datasets.empty())
      throw std::invalid_argument("board " + board + " has no measurement in " + repo.path());
    rs.dataset = datasets.front();
  }
  std::vector<db::MeasuredConfig> measured = repo.measured(board, rs.dataset);
  if (measured.empty())
    throw std::invalid_argument("board " + board + " has no measurement on dataset '" + rs.dataset +
                                "' in " + repo.path());
  rs.workload = measured.front().config.workload;
  rs.workload_row = repo.workload(rs.workload);
  const Workload* workload = nullptr;
  try {
    workload = &find_workload(rs.workload);
  } catch (const std::exception&) {
  }
  Board b;
  bool have_board = true;
  try {
    b = load_board(board);
  } catch (const std::exception&) {
    have_board = false;
  }
  std::set<std::string> keys;
  auto add = [&](const db::ConfigRow& row, Outcome outcome, const db::MeasuredConfig* mc) {
    if (row.workload != rs.workload || !keys.insert(row.key).second) return;
    Config c = to_config(row);
    double prior = 1;
    if (workload) {
      try {  // a config the workload cannot cost (an older schema) gets the neutral estimate
        std::vector<KernelResources> kernels;
        if (mc && have_board) kernels = parse_resources_json(mc->measurement.resources_json);
        prior = have_board ? model_estimate(*workload, c, kernels, b) : workload->relative_cost(c);
      } catch (const std::exception&) {
        prior = 1;
      }
    }
    rs.configs.push_back(std::move(c));
    rs.outcomes.push_back(outcome);
    rs.measurements.push_back(mc ? *mc : db::MeasuredConfig{});
    rs.prior.push_back(prior);
  };
  for (const db::MeasuredConfig& mc : measured) add(mc.config, Outcome::measured, &mc);
  for (const db::FailureRow& f : repo.failures(board))
    if (f.dataset == rs.dataset) add(f.config, Outcome::failed, nullptr);
  for (const db::PrunedRow& p : repo.pruned(board)) add(p.config, Outcome::pruned, nullptr);
  return rs;
}

ReplayResult replay(const RecordedSpace& rs, const ReplayOptions& options) {
  if (options.budget == 0) throw std::invalid_argument("replay: the budget must be >= 1");
  if (options.objectives.empty()) throw std::invalid_argument("replay: no objective");
  std::vector<Objective> objectives;
  for (const std::string& name : options.objectives)
    objectives.push_back(resolve_objective(rs.workload_row, name));
  const std::size_t n = rs.configs.size(), m = objectives.size();
  std::vector<std::vector<double>> values(n);
  Normaliser norm{std::vector<double>(m, std::numeric_limits<double>::infinity()),
                  std::vector<double>(m, -std::numeric_limits<double>::infinity())};
  for (std::size_t i = 0; i < n; ++i) {
    if (rs.outcomes[i] != Outcome::measured) continue;
    for (const Objective& o : objectives)
      values[i].push_back(oriented_value(rs.measurements[i], o));
    for (std::size_t k = 0; k < m; ++k)
      if (std::isfinite(values[i][k])) {
        norm.lo[k] = std::min(norm.lo[k], values[i][k]);
        norm.hi[k] = std::max(norm.hi[k], values[i][k]);
      }
  }
  ReplayResult result;
  result.strategy = options.strategy;
  result.budget = options.budget;
  result.n_evaluable = rs.n_evaluable();
  if (!std::isfinite(norm.lo[0]))
    throw std::invalid_argument("replay: no measured point has a value of " +
                                options.objectives[0]);
  result.optimum = norm.lo[0];
  std::vector<std::vector<double>> all;
  for (std::size_t i = 0; i < n; ++i)
    if (rs.outcomes[i] == Outcome::measured) all.push_back(norm(values[i]));
  const double hv_all = front_hypervolume(all);
  const double threshold = result.optimum + options.within * std::abs(result.optimum);

  const SearchSpace space(rs.configs);
  for (std::size_t s = 0; s < options.seeds; ++s) {
    StrategyOptions so;
    so.seed = options.first_seed + s;
    so.budget = options.budget;
    so.n_objectives = m;
    so.prior = rs.prior;
    std::unique_ptr<Strategy> strategy = make_strategy(options.strategy, space, so);
    SeedResult sr;
    sr.seed = so.seed;
    sr.best = std::numeric_limits<double>::infinity();
    std::vector<std::vector<double>> found;
    while (sr.evaluations < options.budget) {
      const std::optional<std::size_t> p = strategy->ask();
      if (!p) break;
      Observation o;
      o.point = *p;
      o.outcome = rs.outcomes[*p];
      if (o.outcome == Outcome::measured) o.objectives = values[*p];
      strategy->tell(o);
      if (o.outcome == Outcome::pruned) continue;
      ++sr.evaluations;
      if (o.outcome != Outcome::measured) continue;
      found.push_back(norm(values[*p]));
      if (values[*p][0] < sr.best) sr.best = values[*p][0];
      if (sr.evals_to_within == 0 && sr.best <= threshold) sr.evals_to_within = sr.evaluations;
    }
    sr.hypervolume_fraction = hv_all > 0 ? front_hypervolume(found) / hv_all : 0;
    result.seeds.push_back(sr);
  }
  return result;
}

}  // namespace flowtune
