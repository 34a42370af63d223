#include "tuner/replay.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "select/hypervolume.hpp"
#include "select/pareto.hpp"
#include "tuner/constraint_domination.hpp"
#include "tuner/constraints.hpp"
#include "tuner/model_estimate.hpp"
#include "tuner/resources_json.hpp"
#include "tuner/screening.hpp"
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

// Seconds since the epoch of an ISO 8601 UTC time "2024-05-01T12:00:00.123Z" (the DB's
// measured_at); NaN when malformed.
double iso_seconds(const std::string& text) {
  std::tm tm{};
  int ms = 0;
  char sep = 0;
  if (std::sscanf(text.c_str(), "%d-%d-%d%c%d:%d:%d.%d", &tm.tm_year, &tm.tm_mon, &tm.tm_mday, &sep,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &ms) < 7)
    return std::numeric_limits<double>::quiet_NaN();
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return double(timegm(&tm)) + ms / 1000.0;
}

// Seconds of timed runs of a measurement: every item's time per execution times the timed
// runs per item plus its warm-up run.
double timed_seconds(const db::MeasurementRow& m) {
  double ms = 0;
  for (const db::ItemResult& item : m.items) ms += item.time_ms * (m.n_repeats + 1);
  if (m.items.empty()) ms = m.time_ms_median * (m.n_repeats + 1);
  return ms / 1000;
}

// RecordedSpace::overhead_s from the measured points' timestamps.
double median_overhead_s(const std::vector<db::MeasuredConfig>& measured) {
  std::map<std::int64_t, std::vector<std::pair<double, double>>> by_run;  // (time, timed s)
  for (const db::MeasuredConfig& mc : measured)
    by_run[mc.measurement.run_id].push_back(
        {iso_seconds(mc.measured_at), timed_seconds(mc.measurement)});
  std::vector<double> samples;
  for (auto& [run, points] : by_run) {
    std::sort(points.begin(), points.end());
    for (std::size_t i = 1; i < points.size(); ++i) {
      const double gap = points[i].first - points[i - 1].first;
      if (std::isfinite(gap)) samples.push_back(std::max(0.0, gap - points[i].second));
    }
  }
  if (samples.empty()) return 0;
  std::nth_element(samples.begin(), samples.begin() + samples.size() / 2, samples.end());
  return samples[samples.size() / 2];
}

}  // namespace

std::string PickRequest::label() const {
  std::ostringstream os;
  os << objective;
  for (std::size_t i = 0; i < constraints.size(); ++i)
    os << (i ? " and " : " with ") << constraints[i].name << " <= " << constraints[i].max;
  return os.str();
}

std::size_t ReplayResult::n_pick_within(std::size_t k, double within) const {
  const double opt = pick_optimum.at(k);
  return std::size_t(std::count_if(seeds.begin(), seeds.end(), [&](const SeedResult& s) {
    return std::isfinite(opt) && s.picks.at(k) <= opt + within * std::abs(opt);
  }));
}

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
  rs.overhead_s = median_overhead_s(measured);
  for (std::size_t i = 0; i < rs.configs.size(); ++i)
    rs.cost_s.push_back(rs.outcomes[i] == Outcome::measured
                            ? rs.overhead_s + timed_seconds(rs.measurements[i].measurement)
                        : rs.outcomes[i] == Outcome::failed ? rs.overhead_s
                                                            : 0.0);
  return rs;
}

namespace {

// The best oriented value of `objective` over points (indices into rs) satisfying every
// constraint; +inf when none does.
double best_satisfying(const RecordedSpace& rs, const std::vector<std::size_t>& points,
                       const Objective& objective,
                       const std::vector<std::pair<Objective, double>>& constraints) {
  double best = std::numeric_limits<double>::infinity();
  for (std::size_t i : points) {
    if (constraint_violation(rs.measurements[i], constraints) > 0) continue;
    const double v = oriented_value(rs.measurements[i], objective);
    if (v < best) best = v;
  }
  return best;
}

std::vector<std::pair<Objective, double>> resolve_constraints(const RecordedSpace& rs,
                                                              const std::vector<Constraint>& cs) {
  std::vector<std::pair<Objective, double>> out;
  for (const Constraint& c : cs) out.push_back({resolve_objective(rs.workload_row, c.name), c.max});
  return out;
}

}  // namespace

namespace {

// A measurement reduced to its first item: what the live run's screen measures.
db::MeasuredConfig screen_of(const db::MeasuredConfig& full) {
  db::MeasuredConfig s = full;
  const db::ItemResult& first = full.measurement.items.front();
  s.measurement.items = {first};
  s.measurement.time_ms_median = s.measurement.time_ms_min = s.measurement.time_ms_max =
      first.time_ms;
  s.measurement.metrics = first.metrics;
  s.measurement.energy_mj.reset();
  s.measurement.nj_per_unit.reset();
  return s;
}

}  // namespace

ReplayResult replay(const RecordedSpace& rs, const ReplayOptions& options) {
  if (options.multi_fidelity)
    for (std::size_t i = 0; i < rs.configs.size(); ++i)
      if (rs.outcomes[i] == Outcome::measured && rs.measurements[i].measurement.items.empty())
        throw std::invalid_argument(
            "replay: --multi-fidelity needs per-item results, and a measurement of the "
            "recording has none");
  if (options.budget == 0 && !(options.budget_s > 0))
    throw std::invalid_argument("replay: the budget must be >= 1");
  if (options.objectives.empty()) throw std::invalid_argument("replay: no objective");
  std::vector<Objective> objectives;
  for (const std::string& name : options.objectives)
    objectives.push_back(resolve_objective(rs.workload_row, name));
  const auto constraints = resolve_constraints(rs, options.constraints);
  const std::size_t n = rs.configs.size(), m = objectives.size();
  std::vector<std::vector<double>> values(n), steer(n);
  std::vector<std::size_t> measured;
  Normaliser norm{std::vector<double>(m, std::numeric_limits<double>::infinity()),
                  std::vector<double>(m, -std::numeric_limits<double>::infinity())};
  for (std::size_t i = 0; i < n; ++i) {
    if (rs.outcomes[i] != Outcome::measured) continue;
    measured.push_back(i);
    for (const Objective& o : objectives)
      values[i].push_back(oriented_value(rs.measurements[i], o));
    steer[i] = constrained_objectives(rs.measurements[i], objectives, constraints);
    for (std::size_t k = 0; k < m; ++k)
      if (std::isfinite(values[i][k])) {
        norm.lo[k] = std::min(norm.lo[k], values[i][k]);
        norm.hi[k] = std::max(norm.hi[k], values[i][k]);
      }
  }
  ReplayResult result;
  result.strategy = choose_strategy(options.strategy, rs.n_evaluable(), m);
  result.budget = options.budget;
  result.n_evaluable = rs.n_evaluable();
  result.optimum = best_satisfying(rs, measured, objectives[0], constraints);
  if (!std::isfinite(result.optimum))
    throw std::invalid_argument("replay: no measured point has a feasible value of " +
                                options.objectives[0]);
  std::vector<std::pair<Objective, std::vector<std::pair<Objective, double>>>> picks;
  for (const PickRequest& p : options.picks) {
    picks.push_back(
        {resolve_objective(rs.workload_row, p.objective), resolve_constraints(rs, p.constraints)});
    result.pick_optimum.push_back(
        best_satisfying(rs, measured, picks.back().first, picks.back().second));
  }
  std::vector<std::vector<double>> all;
  for (std::size_t i : measured) all.push_back(norm(values[i]));
  const double hv_all = front_hypervolume(all);
  const double threshold = result.optimum + options.within * std::abs(result.optimum);

  const SearchSpace space(rs.configs);
  const Workload* workload = nullptr;  // the recorded workload, where this build has it
  try {
    workload = &find_workload(rs.workload);
  } catch (const std::exception&) {
  }
  std::vector<std::string> kernel_set(n);
  for (std::size_t i = 0; i < n; ++i) kernel_set[i] = rs.configs[i].label();
  for (std::size_t s = 0; s < options.seeds; ++s) {
    StrategyOptions so;
    so.seed = options.first_seed + s;
    so.budget = options.budget_s > 0 ? rs.n_evaluable() : options.budget;
    so.n_objectives = m;
    so.prior = rs.prior;
    if (workload)
      so.kernel_set_allowed = [workload, &rs](std::size_t p) {
        return kernel_rules_allow(*workload, rs.configs[p]);
      };
    std::unique_ptr<Strategy> strategy = make_strategy(result.strategy, space, so);
    std::unique_ptr<Screening> screening;
    if (options.multi_fidelity) screening = std::make_unique<Screening>(3);
    SeedResult sr;
    sr.seed = so.seed;
    sr.best = std::numeric_limits<double>::infinity();
    std::vector<std::vector<double>> found;
    std::vector<std::size_t> found_points;
    std::set<std::string> kernel_sets;
    auto within_budget = [&] {
      return options.budget_s > 0 ? sr.cost_s < options.budget_s : sr.evaluations < options.budget;
    };
    while (within_budget()) {
      const std::optional<std::size_t> p = strategy->ask();
      if (!p) break;
      if (options.accuracy && rs.outcomes[*p] != Outcome::pruned) {
        // As the live run: told infeasible from the table, neither built nor timed, at no cost.
        std::vector<double> slack;
        if (options.accuracy->known_infeasible(to_config_row(rs.board, rs.configs[*p]), constraints,
                                               options.accuracy_tolerance, &slack)) {
          strategy->tell(known_infeasible_observation(*p, objectives.size(), slack));
          ++sr.not_timed;
          continue;
        }
      }
      // The first evaluation of a kernel set pays its build (pruned points are never built).
      const double build_s =
          rs.outcomes[*p] != Outcome::pruned && !kernel_sets.count(kernel_set[*p]) ? options.build_s
                                                                                   : 0.0;
      if (options.budget_s > 0 && sr.cost_s + build_s + rs.cost_s[*p] > options.budget_s) break;
      Observation o;
      o.point = *p;
      o.outcome = rs.outcomes[*p];
      if (o.outcome == Outcome::measured) {
        o.objectives.assign(steer[*p].begin(), steer[*p].end());
        o.values = values[*p];
        o.slack = constraint_slacks(rs.measurements[*p], constraints);
      }
      if (o.outcome == Outcome::measured && screening) {
        // The screen: the first item alone; promoted points are then measured in full.
        const db::MeasuredConfig screen = screen_of(rs.measurements[*p]);
        const double screen_cost = rs.overhead_s + screen.measurement.time_ms_median *
                                                       (options.screen_repeats + 1) / 1000.0;
        if (options.budget_s > 0 && sr.cost_s + build_s + screen_cost > options.budget_s) break;
        if (!screening->screen(*p, constrained_objectives(screen, objectives, constraints))) {
          strategy->tell({*p, Outcome::measured, screening->surrogate(*p, kInfeasible), {}, {}});
          ++sr.evaluations;
          ++sr.screened_out;
          kernel_sets.insert(kernel_set[*p]);
          sr.cost_s += build_s + screen_cost;
          continue;
        }
        if (options.budget_s > 0 &&
            sr.cost_s + build_s + screen_cost + rs.cost_s[*p] > options.budget_s)
          break;
        sr.cost_s += screen_cost;
        screening->full_result(*p, o.objectives);
      }
      strategy->tell(o);
      if (o.outcome == Outcome::pruned) continue;
      ++sr.evaluations;
      kernel_sets.insert(kernel_set[*p]);
      sr.cost_s += build_s + rs.cost_s[*p];
      if (o.outcome != Outcome::measured) continue;
      found.push_back(norm(values[*p]));
      found_points.push_back(*p);
      if (steer[*p][0] < sr.best) sr.best = steer[*p][0];
      if (sr.evals_to_within == 0 && sr.best <= threshold) {
        sr.evals_to_within = sr.evaluations;
        sr.cost_to_within_s = sr.cost_s;
      }
    }
    sr.kernel_sets = kernel_sets.size();
    sr.hypervolume_fraction = hv_all > 0 ? front_hypervolume(found) / hv_all : 0;
    for (const auto& [objective, cs] : picks)
      sr.picks.push_back(best_satisfying(rs, found_points, objective, cs));
    result.seeds.push_back(sr);
  }
  return result;
}

}  // namespace flowtune
