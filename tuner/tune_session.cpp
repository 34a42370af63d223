// Setting up a tuning run (tuner/tune_session.hpp) and its duration estimate.
#include "tuner/tune_session.hpp"

#include <algorithm>
#include <boost/math/statistics/univariate_statistics.hpp>
#include <cmath>
#include <filesystem>
#include <functional>
#include <iomanip>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "boards/gpu_clocks.hpp"
#include "db/store_url.hpp"
#include "select/config_rows.hpp"
#include "tuner/constraints.hpp"
#include "tuner/coordinator_lease.hpp"
#include "tuner/environment.hpp"
#include "tuner/fixed_params.hpp"
#include "tuner/kernel_store.hpp"
#include "tuner/model_estimate.hpp"

namespace flowtune {
namespace {

// Calls visit with every config of a space of up to 2^22 configs, else with 2^16 configs
// evenly strided over the indices (a generated space of ranges may hold 10^11); returns the
// factor from the visited configs to the whole space (1 when it visits every config).
double for_each_sampled(const ConfigSpace& space, const std::function<void(const Config&)>& visit) {
  constexpr std::size_t kAll = std::size_t(1) << 22, kSample = std::size_t(1) << 16;
  if (space.size() <= kAll) {
    space.for_each([&](std::size_t, const Config& c) { visit(c); });
    return 1;
  }
  const double stride = double(space.size()) / double(kSample);
  for (std::size_t k = 0; k < kSample; ++k) visit(space[std::size_t(double(k) * stride)]);
  return stride;
}

// Rough time per cost unit and work unit when the DB has nothing for this board yet
// (ms per (relative cost x work unit)); measured on the project's machines, see README.
double default_ms_per_cost(const std::string& target) {
  return target == "cuda" ? 2.0e-7 : 7.0e-6;
}

// Time per cost unit measured on this board for the workload: the median over measured
// configs of time / (relative cost x work); 0 when none.
double calibrated_ms_per_cost(const Workload& workload,
                              const std::vector<db::MeasuredConfig>& measured,
                              const InputSet& inputs) {
  std::vector<double> rates;
  for (const db::MeasuredConfig& mc : measured) {
    if (mc.config.workload != workload.name()) continue;
    const double cost = workload.relative_cost(to_config(mc.config));
    if (!(cost > 0) || !(mc.measurement.ns_per_unit > 0)) continue;
    rates.push_back(mc.measurement.ns_per_unit * 1e-6 / cost);
  }
  (void)inputs;
  return rates.empty() ? 0 : boost::math::statistics::median(rates);
}

// Takes the coordinator role of a run in the DB (tuner/coordinator_lease.hpp): resumes the
// run of the same board, workload and dataset whose coordinator is gone, or begins one;
// refuses while another coordinator of them lives, on any host.
void begin_run(TuneSession& s, const TuneOptions& options, std::ostream& log) {
  const Workload& workload = *s.workload;
  s.repo->record_workload(to_workload_row(workload));
  db::RunInfo info = collect_run_info(s.board, options.command, s.summary.dataset);
  info.workload = workload.name();
  const CoordinatorClaim claim = claim_coordinator_role(*s.repo, info, options.lease_s, log);
  s.summary.run_id = claim.run_id;
  s.resumed = claim.resumed;
  s.lease = std::make_unique<CoordinatorLease>(options.db_path, claim.run_id, options.lease_s);
}

// The run's estimated duration, from its budget (the evaluations at the estimated time per
// point, capped by the time budget), as the progress's ETA computes it; with a rate measured
// on this board, also the prior of the time budget's rule (s.point_time).
void log_estimate(TuneSession& s, const TuneOptions& options, std::ostream& log) {
  double rate = calibrated_ms_per_cost(*s.workload, s.repo->measured(s.board.name), *s.inputs);
  const bool calibrated = rate > 0;
  if (!calibrated) rate = default_ms_per_cost(s.board.target);
  const double space_s = estimate_seconds(*s.workload, s.space, *s.inputs, options.measure, rate);
  if (space_s >= 0 && !s.space.empty()) {
    double space_cost = 0;
    const double scale = for_each_sampled(s.space, [&](const Config& c) {
      space_cost += std::max(0.0, s.workload->relative_cost(c));
    });
    space_cost *= scale;
    if (calibrated && space_cost > 0) s.point_time = PointTimeEstimate(space_s / space_cost);
    const double evaluations_s = space_s * double(s.budget) / double(s.space.size());
    const bool time_binds = options.time_budget_s > 0 && options.time_budget_s < evaluations_s;
    log << "estimated duration: "
        << duration_text(time_binds ? options.time_budget_s : evaluations_s) << " (";
    if (time_binds && s.budget == s.space.size() && s.space.size() > ConstraintChecks::kDenseChecks)
      log << "the time budget; about "
          << std::max<long long>(1, llround(options.time_budget_s /
                                            std::max(space_s / double(s.space.size()), 1e-9)))
          << " points fit in it";
    else
      log << (time_binds ? "the time budget; " : "") << s.budget << " evaluations at about "
          << duration_text(evaluations_s);
    log << (calibrated ? ", rate from this board's measurements in the DB"
                       : ", rough default rate; refined once configs are measured")
        << ")\n";
  }
}

// Objectives: what the strategy minimises, and whether energy is worth its long window.
void resolve_objectives(TuneSession& s, const TuneOptions& options, std::ostream& log) {
  const db::WorkloadRow workload_row = to_workload_row(*s.workload);
  std::vector<std::string> names = options.objectives;
  if (!options.objective.empty()) names = {options.objective};
  for (const Constraint& c : options.constraints)
    s.constraints.emplace_back(resolve_objective(workload_row, c.name), c.max);
  if (names.empty()) {
    names.push_back("time_ms");
    for (const std::string& o : s.summary.front_objectives)
      if (o != "time_ms") names.push_back(o);
  }
  for (const std::string& name : names)
    s.objectives.push_back(resolve_objective(workload_row, name));
  // Energy on every point when an objective or a constraint needs it; otherwise the front's
  // points get it after the search (tuner/front_energy.hpp).
  const bool energy = std::any_of(s.objectives.begin(), s.objectives.end(),
                                  [](const Objective& o) { return is_energy_figure(o.name); }) ||
                      std::any_of(s.constraints.begin(), s.constraints.end(),
                                  [](const std::pair<Objective, double>& c) {
                                    return is_energy_figure(c.first.name);
                                  });
  if (energy) s.sensor = make_energy_sensor(s.board);
  s.measure = options.measure;
  s.measure.energy = energy;
  if (s.sensor)
    s.measure.min_window_ms = std::max(s.measure.min_window_ms, s.sensor->min_window_ms());
  log << "objectives: ";
  for (std::size_t k = 0; k < s.objectives.size(); ++k)
    log << (k ? ", " : "") << s.objectives[k].name;
  log << "; energy sensor: "
      << (s.sensor ? s.sensor->name() + " (" + std::to_string(int(s.sensor->min_window_ms())) +
                         " ms windows, every point)"
                   : std::string(
                         energy ? "none (energy stored as NULL)"
                                : "read after the search on the front's points, where the board's "
                                  "sensor is present"))
      << '\n';
}

// A bound or a percentage as the user wrote it (6 significant digits, no trailing zeros).
std::string number_text(double v) {
  std::ostringstream os;
  os << v;
  return os.str();
}

// What --accuracy-from brings and what it will decide.
void log_accuracy_table(const TuneSession& s, const TuneOptions& options, std::ostream& log) {
  std::string boards, bounds;
  for (const std::string& b : s.accuracy->boards()) boards += (boards.empty() ? "" : ", ") + b;
  for (const auto& [figure, max] : s.constraints)
    if (!is_energy_figure(figure.name) && figure.name != "time_ms")
      bounds += (bounds.empty() ? "" : ", ") + figure.name + " <= " + number_text(max);
  log << "accuracy table: " << s.accuracy->size() << " keys (precision and parameters) from "
      << options.accuracy_from << " (boards " << boards << "); ";
  if (bounds.empty())
    log << "the request bounds no metric, so it skips nothing; it is checked against this "
           "board's measurements at the end\n";
  else
    log << "a point it shows breaking " << bounds << " by more than "
        << number_text(options.accuracy_tolerance * 100) << "% is not timed\n";
}

// Kernel builds and constraint checks run ahead on spare cores while the GPU measures; the
// strategy gets the model prior (which needs every check) when it asks for one.
void make_strategy(TuneSession& s, const TuneOptions& options, std::ostream& log) {
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned build_threads = options.build_threads >= 0
                                     ? unsigned(options.build_threads)
                                     : (s.board.target == "cuda" ? std::max(1u, cores - 1) : 0u);
  s.checks = std::make_unique<ConstraintChecks>(s.board, *s.workload, s.space, build_threads);
  // Coordinates computed per point from the space's layout: nothing held per point.
  s.search_space = std::make_unique<SearchSpace>(s.space.layout());
  StrategyOptions so;
  so.seed = options.seed;
  so.n_objectives = s.objectives.size();
  so.kernel_build_cost = s.board.target == "cuda" ? so.kernel_build_cost : 0;
  // The variant's rules, known without a build: kernel sets are drawn among those that run.
  so.kernel_set_allowed = [&s](std::size_t p) {
    return kernel_rules_allow(*s.workload, s.space[p]);
  };
  const bool needs_all_checks =
      choose_strategy(options.strategy, s.space.size(), s.objectives.size()) == "model_guided" ||
      options.budget_fraction > 0;
  std::size_t n_unpruned = s.space.size();
  if (needs_all_checks && s.space.size() > ConstraintChecks::kDenseChecks)
    throw std::invalid_argument(
        "strategy model_guided and a budget in % need the check of every config, and this "
        "space has " +
        std::to_string(s.space.size()) + " configs (at most " +
        std::to_string(ConstraintChecks::kDenseChecks) +
        "): narrow it with --param or --no-default-dimensions, or give the budget as a count");
  if (needs_all_checks) {
    s.checks->wait_all(&log);
    n_unpruned = 0;
    std::vector<std::vector<KernelResources>> kernels(s.space.size());
    for (std::size_t i = 0; i < s.space.size(); ++i) {
      const ConstraintCheck* check = nullptr;
      try {
        check = &s.checks->get(i);
      } catch (const std::exception&) {
      }
      if (!check || !check->prune_reason) ++n_unpruned;
      if (check)
        for (const KernelOccupancy& k : check->kernels) kernels[i].push_back(k.resources);
    }
    so.prior = strategy_prior(*s.workload, s.board, s.space, kernels, options.prior_model);
  }
  std::size_t budget = options.max_evals ? options.max_evals : s.space.size();
  if (options.budget_fraction > 0)
    budget = std::max<std::size_t>(
        1, std::size_t(std::ceil(options.budget_fraction * double(n_unpruned))));
  s.budget = so.budget = std::min(budget, s.space.size());
  s.summary.strategy = choose_strategy(options.strategy, s.space.size(), s.objectives.size());
  s.strategy = flowtune::make_strategy(s.summary.strategy, *s.search_space, so);
  // The builds of the strategy's first kernel sets start now, on every build thread.
  s.checks->prefetch(s.strategy->upcoming(kPrefetchPoints));
  log << "strategy " << s.summary.strategy
      << (s.summary.strategy != options.strategy ? " (" + options.strategy + ")" : "") << " (seed "
      << options.seed << "), budget " << s.budget << " evaluations";
  if (options.time_budget_s > 0)
    log << " or " << duration_text(options.time_budget_s)
        << " of wall clock, builds included (whichever ends first; the same command resumes)";
  log << '\n';
}

// Multi-fidelity: the screen is the first item alone with 3 timed runs and no adaptive
// window; energy needs long windows, so an energy objective turns it off.
void setup_screening(TuneSession& s, const TuneOptions& options, std::ostream& log) {
  if (s.inputs->size() < 2 || s.measure.energy) {
    log << "multi-fidelity off: "
        << (s.measure.energy ? "energy is an objective" : "the inputs have one item") << '\n';
    return;
  }
  InputOptions first = options.inputs;
  first.items = {s.inputs->item_name(0)};
  s.screen_inputs = s.workload->load_inputs(first);
  MeasureOptions quick = s.measure;
  quick.min_rounds = quick.max_rounds = 3;
  quick.ci_fraction = 0;
  quick.min_window_ms = 0;
  s.screen = {first, quick, s.screen_inputs->key() + "#screen"};
  s.screening = std::make_unique<Screening>(3);
  log << "multi-fidelity: every point is screened on " << s.inputs->item_name(0)
      << " (3 timed runs) and measured on all " << s.inputs->size()
      << " items when promoted (asynchronous successive halving, eta 3); screens are stored as "
         "dataset "
      << s.screen.dataset << '\n';
}

void open_run(TuneSession& session, const TuneOptions& options, std::ostream& log);

}  // namespace

double estimate_seconds(const Workload& workload, const ConfigSpace& configs,
                        const InputSet& inputs, const MeasureOptions& measure, double ms_per_cost) {
  double total_ms = 0;
  bool costed = true;
  const double scale = for_each_sampled(configs, [&](const Config& c) {
    const double cost = workload.relative_cost(c);
    if (!(cost > 0)) costed = false;
    if (!costed) return;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const double run_ms = ms_per_cost * cost * inputs.item_work(i);
      total_ms += measure.warmup_rounds * run_ms +
                  std::max(measure.min_rounds * run_ms, measure.min_window_ms);
    }
  });
  return costed ? total_ms * scale / 1000.0 : -1;
}

std::string choose_strategy(const std::string& requested, std::size_t space_size,
                            std::size_t n_objectives) {
  if (requested != "auto") return requested;
  (void)n_objectives;
  if (space_size <= 256) return "brute_force";
  // A space of ranges (the default dimensions: ~10^11 configs on a CUDA board, ~10^4 kernel
  // sets) is explored on few kernel sets (docs/decisions.md, "the default strategy").
  if (space_size > ConstraintChecks::kDenseChecks) return "kernel_staged";
  return "additive_surrogate";
}

std::unique_ptr<TuneSession> open_session(const TuneOptions& options, std::ostream& log) {
  auto s = std::make_unique<TuneSession>();
  s->time_budget_s = options.time_budget_s;
  s->start = options.start;
  s->board = load_board(options.board);
  // A coordinator without local workers (workers == 0) measures nothing here: any GPU will do.
  if (s->board.target == "cuda" && options.workers != 0) check_board_matches_device(s->board);
  s->workload = &find_workload(options.space.workload);
  // The inputs and the space before the store: a run refused for its data or its options
  // creates no DB file.
  InputOptions inputs = options.inputs;
  inputs.progress = [&log](const std::string& line) { log << line << '\n' << std::flush; };
  s->inputs = s->workload->load_inputs(inputs);
  SpaceOptions space_options = options.space;
  if (options.allow_clock_control && space_options.clocks_mhz.empty() && s->board.target == "cuda")
    space_options.clocks_mhz = supported_gpu_clocks_mhz(s->board);
  s->space = make_space(s->board, space_options);
  s->varying = varying_dimensions(s->space);
  const bool new_db_file =
      !db::is_postgresql_url(options.db_path) && !std::filesystem::exists(options.db_path);
  try {
    open_run(*s, options, log);
  } catch (...) {
    // Nothing was measured: a DB file this run created goes again (an existing one stays).
    if (new_db_file) {
      s->checks.reset();
      s->lease.reset();
      s->repo.reset();
      std::error_code ec;
      for (const char* suffix : {"", "-wal", "-shm", "-journal"})
        std::filesystem::remove(options.db_path + suffix, ec);
    }
    throw;
  }
  return s;
}

namespace {

// The store's part of open_session: the run in the DB, its header lines, the objectives,
// the strategy and the progress.
void open_run(TuneSession& session, const TuneOptions& options, std::ostream& log) {
  TuneSession* s = &session;
  s->repo = std::make_unique<db::Repository>(options.db_path);
  s->summary.n_space = s->space.size();
  s->summary.dataset = s->inputs->key();
  // Inputs without ground truth: each front objective gives way to its ref_ metric, the error
  // against the reference output (select/objectives.hpp).
  const bool truth = s->inputs->has_ground_truth();
  s->summary.front_objectives = front_objective_names(
      to_workload_row(*s->workload), [truth](const std::string&) { return truth; });
  // Read before the run is begun: a store that cannot give accuracy stops the run with
  // nothing written.
  if (!options.accuracy_from.empty()) {
    const db::Repository source(options.accuracy_from, db::OpenMode::read_only);
    s->accuracy = std::make_unique<AccuracyTable>(load_accuracy_table(
        source, options.accuracy_from, s->workload->name(), s->summary.dataset));
    s->summary.accuracy_from = options.accuracy_from;
    s->summary.accuracy_keys = s->accuracy->size();
  }
  begin_run(*s, options, log);
  log << "run " << s->summary.run_id << ": workload " << s->workload->name() << ", board "
      << s->board.name << ", " << s->space.size() << " configs, dataset " << s->summary.dataset
      << ", DB " << s->repo->path() << '\n';
  if (const std::string what = s->inputs->description(); !what.empty())
    log << "inputs: " << what << '\n';
  if (!truth) {
    const std::vector<std::string> usual = s->workload->front_objectives();
    for (std::size_t k = 0; k < usual.size() && k < s->summary.front_objectives.size(); ++k)
      if (usual[k] != s->summary.front_objectives[k])
        log << "no ground truth: " << s->summary.front_objectives[k] << " stands in for "
            << usual[k] << " in the front and the default request\n";
  }
  if (const std::string fixed = fixed_params_text(*s->workload, s->space.param_dimensions());
      !fixed.empty())
    log << fixed << '\n';
  // Before the build threads start: they publish and fetch through it.
  log << use_kernel_store(resolve_kernel_store(options.kernel_store, options.db_path)) << '\n';
  s->builds_at_start = kernel_build_counters().get();
  resolve_objectives(*s, options, log);
  if (s->accuracy) log_accuracy_table(*s, options, log);
  if (options.multi_fidelity) setup_screening(*s, options, log);
  make_strategy(*s, options, log);
  log_estimate(*s, options, log);
  if (s->board.target == "cuda" && !options.allow_clock_control)
    log << "clock dimension not explored (no --allow-clock-control): the observed clock is "
           "recorded\n";
  // What the DB already knows of this board and dataset is told to the strategy without
  // measuring, so a resumed run replays its own history and goes on where it stopped.
  for (db::MeasuredConfig& mc : s->repo->measured(s->board.name, s->summary.dataset))
    s->known.emplace(mc.config.key, std::move(mc));
  double mean_cost = 0;
  const double scale = for_each_sampled(s->space, [&](const Config& c) {
    mean_cost += std::max(0.0, s->workload->relative_cost(c));
  });
  mean_cost = s->space.empty() ? 1 : std::max(mean_cost * scale / double(s->space.size()), 1e-300);
  // A time budget over a space larger than any run (no --max-evals): the time alone binds,
  // and the progress counts points without a total.
  const bool time_alone = options.time_budget_s > 0 && s->budget == s->space.size() &&
                          s->space.size() > ConstraintChecks::kDenseChecks;
  s->progress = std::make_unique<Progress>(
      time_alone ? 0 : s->budget, mean_cost * double(s->budget), log, options.progress,
      options.progress_columns, [s] { return s->elapsed_s(); });
  s->progress->set_time_budget(options.time_budget_s);
}

}  // namespace

std::vector<db::MeasuredConfig> session_front(const TuneSession& s) {
  std::vector<db::MeasuredConfig> measured;
  for (db::MeasuredConfig& mc : s.repo->measured(s.board.name, s.summary.dataset))
    if (mc.config.workload == s.workload->name()) measured.push_back(std::move(mc));
  return pareto_configs(measured, objectives_of(to_workload_row(*s.workload), measured));
}

}  // namespace flowtune
