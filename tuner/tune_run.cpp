#include "tuner/tune_run.hpp"

#include <unistd.h>

#include <atomic>
#include <boost/math/statistics/univariate_statistics.hpp>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <map>
#include <new>
#include <sstream>
#include <thread>

#include "boards/board.hpp"
#include "boards/gpu_clocks.hpp"
#include "kernels/cancellation.hpp"
#include "reports/front.hpp"
#include "tuner/constraint_checks.hpp"
#include "tuner/constraints.hpp"
#include "tuner/dispatch.hpp"
#include "tuner/environment.hpp"
#include "tuner/model_estimate.hpp"
#include "tuner/progress.hpp"
#include "tuner/search_space.hpp"
#include "tuner/strategy.hpp"
#include "tuner/worker.hpp"

namespace flowtune {
namespace {

std::atomic<bool> g_stop_requested{false};
std::atomic<int> g_stop_signal{0};
// First SIGINT/SIGTERM: stop (the numerical loops poll cancellation_requested() and throw
// Cancelled, so the current config ends within about one iteration). Second: exit at once
// with 128 + signal; the run stays "running" and the next open of the DB marks it "aborted".
extern "C" void on_stop_signal(int sig) {
  if (g_stop_requested.exchange(true)) _exit(128 + sig);
  g_stop_signal = sig;
  cancellation_requested().store(true);
}

// Installs SIGINT/SIGTERM handlers for the lifetime of a run and restores the old ones.
class StopSignals {
 public:
  StopSignals() {
    g_stop_requested = false;
    g_stop_signal = 0;
    cancellation_requested().store(false);
    old_int_ = std::signal(SIGINT, on_stop_signal);
    old_term_ = std::signal(SIGTERM, on_stop_signal);
  }
  ~StopSignals() {
    std::signal(SIGINT, old_int_);
    std::signal(SIGTERM, old_term_);
    cancellation_requested().store(false);
  }
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

 private:
  void (*old_int_)(int) = SIG_DFL;
  void (*old_term_)(int) = SIG_DFL;
};

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

std::string duration_text(double s) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(0);
  if (s < 120) {
    os << s << " s";
  } else if (s < 7200) {
    os << s / 60 << " min";
  } else {
    os << std::setprecision(1) << s / 3600 << " h";
  }
  return os.str();
}

}  // namespace

db::ConfigRow to_config_row(const std::string& board, const Config& config) {
  db::ConfigRow row;
  row.board = board;
  row.label = config.label();
  row.workload = config.workload;
  row.variant = config.variant;
  row.precision = config.precision;
  row.tunables = config.tunables;
  row.clock_mhz = config.clock_mhz;
  row.params = config.params;
  row.key = db::config_key(row);
  return row;
}

Config to_config(const db::ConfigRow& row) {
  Config c;
  c.workload = row.workload;
  c.variant = row.variant;
  c.precision = row.precision;
  c.tunables = row.tunables;
  c.clock_mhz = row.clock_mhz;
  c.params = row.params;
  return c;
}

db::WorkloadRow to_workload_row(const Workload& workload) {
  db::WorkloadRow row;
  row.name = workload.name();
  row.work_unit = workload.work_unit();
  row.front_objectives = workload.front_objectives();
  for (const MetricSpec& m : workload.metrics())
    row.metrics.push_back({m.name, m.unit, m.doc, m.minimize});
  return row;
}

std::string classify_failure(const std::exception& e) {
  if (dynamic_cast<const CheckFailed*>(&e)) return "accuracy";
  if (dynamic_cast<const std::bad_alloc*>(&e) ||
      dynamic_cast<const std::filesystem::filesystem_error*>(&e) ||
      dynamic_cast<const db::DbError*>(&e))
    return "environment";
  return "runtime";
}

double estimate_seconds(const Workload& workload, const std::vector<Config>& configs,
                        const InputSet& inputs, const MeasureOptions& measure, double ms_per_cost) {
  double total_ms = 0;
  for (const Config& c : configs) {
    const double cost = workload.relative_cost(c);
    if (!(cost > 0)) return -1;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const double run_ms = ms_per_cost * cost * inputs.item_work(i);
      total_ms += measure.warmup_rounds * run_ms +
                  std::max(measure.min_rounds * run_ms, measure.min_window_ms);
    }
  }
  return total_ms / 1000.0;
}

TuneSummary run_tuning(const TuneOptions& options, std::ostream& log) {
  const Board board = load_board(options.board);
  if (board.target == "cuda") check_board_matches_device(board);
  const Workload& workload = find_workload(options.space.workload);
  db::Repository repo(options.db_path);
  const std::unique_ptr<InputSet> inputs = workload.load_inputs(options.inputs);

  SpaceOptions space_options = options.space;
  if (options.allow_clock_control && space_options.clocks_mhz.empty() && board.target == "cuda")
    space_options.clocks_mhz = supported_gpu_clocks_mhz(board);
  const std::vector<Config> space = enumerate_space(board, space_options);

  TuneSummary summary;
  summary.n_space = space.size();
  summary.dataset = inputs->key();
  summary.front_objectives = workload.front_objectives();
  repo.record_workload(to_workload_row(workload));
  db::RunInfo info = collect_run_info(board, options.command, summary.dataset);
  info.workload = workload.name();
  summary.run_id = repo.begin_run(info);
  // Two `tune` processes on one DB, board and dataset would race for the same configs: the
  // run with the lowest id goes on, any later one refuses (coordinated workers are the
  // distributed-tuning issue's).
  for (const db::RunRow& other :
       repo.active_runs(board.name, workload.name(), summary.dataset, summary.run_id)) {
    if (other.id > summary.run_id) continue;
    repo.end_run(summary.run_id, "failed");
    throw std::runtime_error(options.db_path + ": run " + std::to_string(other.id) + " (pid " +
                             std::to_string(other.pid) + ") is already tuning board " + board.name +
                             ", workload " + workload.name() + ", dataset " + summary.dataset +
                             " in this database; wait for it to end, or use another --db");
  }
  log << "run " << summary.run_id << ": workload " << workload.name() << ", board " << board.name
      << ", " << space.size() << " configs, dataset " << summary.dataset << ", DB "
      << options.db_path << '\n';
  {
    double rate = calibrated_ms_per_cost(workload, repo.measured(board.name), *inputs);
    const bool calibrated = rate > 0;
    if (!calibrated) rate = default_ms_per_cost(board.target);
    const double s = estimate_seconds(workload, space, *inputs, options.measure, rate);
    if (s >= 0)
      log << "estimated duration of the whole space: " << duration_text(s)
          << (calibrated ? " (rate from this board's measurements in the DB)"
                         : " (rough default rate; refined once configs are measured)")
          << ", before pruning and resume\n";
  }
  if (board.target == "cuda" && !options.allow_clock_control)
    log << "clock dimension not explored (no --allow-clock-control): the observed clock is "
           "recorded\n";

  // Objectives: what the strategy minimises, and whether energy is worth its long window.
  const db::WorkloadRow workload_row = to_workload_row(workload);
  std::vector<std::string> objective_names = options.objectives;
  if (objective_names.empty()) {
    objective_names.push_back("time_ms");
    for (const std::string& o : workload.front_objectives())
      if (o != "time_ms") objective_names.push_back(o);
  }
  std::vector<reports::Objective> objectives;
  for (const std::string& name : objective_names)
    objectives.push_back(reports::resolve_objective(workload_row, name));
  const bool energy_objective =
      std::any_of(objectives.begin(), objectives.end(),
                  [](const reports::Objective& o) { return o.name == "energy_mj"; });
  const std::unique_ptr<EnergySensor> sensor =
      energy_objective ? make_energy_sensor(board) : nullptr;
  MeasureOptions measure = options.measure;
  measure.energy = energy_objective;
  if (sensor) measure.min_window_ms = std::max(measure.min_window_ms, sensor->min_window_ms());
  log << "objectives: ";
  for (std::size_t k = 0; k < objectives.size(); ++k) log << (k ? ", " : "") << objectives[k].name;
  log << "; energy sensor: "
      << (sensor ? sensor->name() + " (" + std::to_string(int(sensor->min_window_ms())) +
                       " ms windows)"
                 : std::string(energy_objective ? "none (energy stored as NULL)"
                                                : "not read (energy_mj is not an objective)"))
      << '\n';

  // Kernel builds and constraint checks run ahead on spare cores while the GPU measures.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const unsigned build_threads = options.build_threads >= 0
                                     ? unsigned(options.build_threads)
                                     : (board.target == "cuda" ? std::max(1u, cores - 1) : 0u);
  ConstraintChecks checks(board, workload, space, build_threads);

  const SearchSpace search_space(space);
  StrategyOptions so;
  so.seed = options.seed;
  so.n_objectives = objectives.size();
  const bool needs_all_checks = options.strategy == "model_guided" || options.budget_fraction > 0;
  if (needs_all_checks) checks.wait_all();
  std::size_t n_unpruned = space.size();
  if (needs_all_checks) {
    n_unpruned = 0;
    for (std::size_t i = 0; i < space.size(); ++i) {
      const ConstraintCheck* check = nullptr;
      try {
        check = &checks.get(i);
      } catch (const std::exception&) {
      }
      if (!check || !check->prune_reason) ++n_unpruned;
      std::vector<KernelResources> kernels;
      if (check)
        for (const KernelOccupancy& k : check->kernels) kernels.push_back(k.resources);
      so.prior.push_back(model_estimate(workload, space[i], kernels, board));
    }
  }
  std::size_t budget = options.max_evals ? options.max_evals : space.size();
  if (options.budget_fraction > 0)
    budget = std::max<std::size_t>(
        1, std::size_t(std::ceil(options.budget_fraction * double(n_unpruned))));
  budget = std::min(budget, space.size());
  so.budget = budget;
  const std::unique_ptr<Strategy> strategy = make_strategy(options.strategy, search_space, so);
  log << "strategy " << options.strategy << " (seed " << options.seed << "), budget " << budget
      << " evaluations\n";

  // What the DB already knows of this board and dataset: told to the strategy without
  // measuring, so a resumed run replays its own history and goes on where it stopped.
  std::map<std::string, db::MeasuredConfig> known;
  for (db::MeasuredConfig& mc : repo.measured(board.name, summary.dataset))
    known.emplace(mc.config.key, std::move(mc));
  double mean_cost = 0;
  for (const Config& c : space) mean_cost += std::max(0.0, workload.relative_cost(c));
  mean_cost = space.empty() ? 1 : std::max(mean_cost / double(space.size()), 1e-300);
  Progress progress(budget, mean_cost * double(budget), log);
  StopSignals signals;
  WorkerProcess worker;
  std::size_t evaluations = 0;
  // Distributed: points go to workers through the store, results come back from it.
  std::unique_ptr<Dispatcher> dispatcher;
  std::size_t window = 0;  // points published ahead of their results
  std::map<std::size_t, double> cost_of;
  if (options.workers >= 0 || options.workers == kWorkersAuto) {
    dispatcher =
        std::make_unique<Dispatcher>(repo, summary.run_id, options.db_path, options.lease_s);
    const std::vector<std::string> gpus =
        board.target == "cuda" ? visible_gpus() : std::vector<std::string>();
    const int n_workers =
        options.workers == kWorkersAuto ? std::max(1, int(gpus.size())) : options.workers;
    dispatcher->start_local_workers(n_workers, gpus);
    window = n_workers == 0 ? 64 : 2 * std::size_t(n_workers);
    std::size_t n_known = 0;
    for (const Config& c : space) n_known += known.count(to_config_row(board.name, c).key);
    repo.set_planned_points(summary.run_id, (long long)(budget > n_known ? budget - n_known : 0));
    log << "coordinator of run " << summary.run_id << ": " << n_workers << " local worker(s)"
        << (gpus.empty() ? "" : " pinned one per GPU") << "; more may join: tune worker --storage "
        << options.db_path << " --run " << summary.run_id << '\n';
  }
  auto observation_of = [&](std::size_t idx, const db::MeasuredConfig& mc) {
    Observation o;
    o.point = idx;
    o.outcome = Outcome::measured;
    for (const reports::Objective& obj : objectives) {
      const double v = reports::oriented_value(mc, obj);
      o.objectives.push_back(std::isnan(v) ? std::numeric_limits<double>::infinity() : v);
    }
    return o;
  };
  // A finished task of the store: its result is told to the strategy.
  const auto take_finished = [&](const std::vector<Dispatcher::Finished>& finished) {
    for (const Dispatcher::Finished& f : finished) {
      const Config& config = space[f.point];
      const db::ConfigRow row = to_config_row(board.name, config);
      const double cost = cost_of[f.point];
      std::optional<db::MeasuredConfig> mc;
      if (f.task.state == "done") mc = repo.measurement_of(board.name, row.key, summary.dataset);
      if (!mc) {
        ++summary.n_failed;
        progress.step(config.label() + " failed (" +
                          repo.failure_class(board.name, row.key, summary.dataset) + ")",
                      true, cost);
        strategy->tell({f.point, Outcome::failed, {}});
        continue;
      }
      ++summary.n_measured;
      std::ostringstream label;
      label << config.label() << " " << config.params_text() << ": "
            << mc->measurement.time_ms_median << " ms";
      for (const auto& [name, value] : mc->measurement.metrics)
        label << ", " << name << " " << value;
      label << " (worker " << f.task.worker_id << (f.task.attempts > 1 ? ", claimed again" : "")
            << ")";
      progress.step(label.str(), true, cost);
      strategy->tell(observation_of(f.point, *mc));
    }
  };
  const auto stop_requested = [] { return g_stop_requested.load(); };
  try {
    while (evaluations < budget) {
      if (g_stop_requested) {
        summary.interrupted = true;
        break;
      }
      if (dispatcher && dispatcher->outstanding() >= window) {
        take_finished(dispatcher->wait(stop_requested));
        continue;
      }
      const std::optional<std::size_t> next = strategy->ask();
      if (!next && dispatcher && dispatcher->outstanding() > 0) {
        take_finished(dispatcher->wait(stop_requested));  // the strategy may need them first
        continue;
      }
      if (!next) break;
      const std::size_t idx = *next;
      const Config& config = space[idx];
      const double cost = workload.relative_cost(config);
      const db::ConfigRow row = to_config_row(board.name, config);
      Observation failed_obs;
      failed_obs.point = idx;
      failed_obs.outcome = Outcome::failed;
      if (auto it = known.find(row.key); it != known.end()) {
        ++summary.n_resumed;
        ++evaluations;
        progress.step(config.label() + " " + config.params_text() + " (already in the DB)", false,
                      cost);
        strategy->tell(observation_of(idx, it->second));
        continue;
      }
      if (repo.is_pruned(board.name, row.key)) {
        ++summary.n_resumed;
        strategy->tell({idx, Outcome::pruned, {}});
        continue;
      }
      const std::string failed_before = repo.failure_class(board.name, row.key, summary.dataset);
      if (!failed_before.empty() && failed_before != "environment" && !options.retry_failed) {
        ++summary.n_resumed;
        ++evaluations;
        progress.step(config.label() + " failed before (" + failed_before + ")", false, cost);
        strategy->tell(failed_obs);
        continue;
      }
      const ConstraintCheck* check = nullptr;
      try {
        check = &checks.get(idx);
      } catch (const std::exception& e) {
        repo.record_failure(summary.run_id, row, summary.dataset, "compile", e.what());
        ++summary.n_failed;
        ++evaluations;
        progress.step(config.label() + " failed (compile): " + e.what(), true, cost);
        strategy->tell(failed_obs);
        continue;
      }
      if (check->prune_reason) {
        repo.record_pruned(summary.run_id, row, *check->prune_reason);
        ++summary.n_pruned;
        strategy->tell({idx, Outcome::pruned, {}});
        continue;
      }
      std::vector<KernelResources> kernels;
      for (const KernelOccupancy& k : check->kernels) kernels.push_back(k.resources);
      ++evaluations;
      if (dispatcher) {
        TaskRequest task;
        task.request = {board.name, row, options.inputs, measure};
        task.dataset = summary.dataset;
        if (board.target == "cuda") task.resources_json = resources_json(kernels);
        task.allow_clock_control = options.allow_clock_control;
        task.config_timeout_s = options.config_timeout_s;
        cost_of[idx] = cost;
        dispatcher->publish(idx, row.key, task);
        continue;
      }
      db::MeasurementRow m;
      std::string failure_class, failure_message;
      if (options.isolate) {
        ClockGuard clock_guard(board, config.clock_mhz, options.allow_clock_control);
        const WorkerResult r =
            worker.measure({board.name, row, options.inputs, measure}, options.config_timeout_s,
                           [] { return g_stop_requested.load(); });
        if (r.cancelled) {
          summary.interrupted = true;
          break;
        }
        if (r.ok) {
          m = r.measurement;
        } else {
          failure_class = r.failure_class;
          failure_message = r.message;
        }
      } else {
        std::string stage = "compile";
        try {
          ClockGuard clock_guard(board, config.clock_mhz, options.allow_clock_control);
          std::unique_ptr<Runner> runner = workload.make_runner(config, *inputs);
          stage = "run";
          m = measure_runner(*runner, *inputs, sensor.get(), measure);
        } catch (const Cancelled&) {
          summary.interrupted = true;  // a signal, not a failure of the config
          break;
        } catch (const std::exception& e) {
          failure_class = stage == "compile" && !dynamic_cast<const std::bad_alloc*>(&e)
                              ? "compile"
                              : classify_failure(e);
          failure_message = e.what();
        }
      }
      if (!failure_class.empty()) {
        repo.record_failure(summary.run_id, row, summary.dataset, failure_class, failure_message);
        ++summary.n_failed;
        progress.step(config.label() + " failed (" + failure_class + "): " + failure_message, true,
                      cost);
        strategy->tell(failed_obs);
        continue;
      }
      m.run_id = summary.run_id;
      m.clock_mhz_observed = observed_gpu_clock_mhz(board);
      if (board.target == "cuda") m.resources_json = resources_json(kernels);
      if (repo.is_measured(board.name, row.key, summary.dataset)) {
        ++summary.n_resumed;
        progress.step(config.label() + " measured meanwhile by another process", true, cost);
      } else {
        repo.record_measurement(row, m);
        ++summary.n_measured;
        std::ostringstream label;
        label << config.label() << " " << config.params_text() << ": " << m.time_ms_median << " ms";
        for (const auto& [name, value] : m.metrics) label << ", " << name << " " << value;
        progress.step(label.str(), true, cost);
      }
      db::MeasuredConfig mc;
      mc.config = row;
      mc.measurement = m;
      strategy->tell(observation_of(idx, mc));
    }
    while (dispatcher && dispatcher->outstanding() > 0 && !g_stop_requested)
      take_finished(dispatcher->wait(stop_requested));
    if (dispatcher && g_stop_requested) summary.interrupted = true;
    if (dispatcher) dispatcher->shut_down();
  } catch (...) {
    dispatcher.reset();
    repo.end_run(summary.run_id, "failed");
    throw;
  }
  repo.end_run(summary.run_id, summary.interrupted ? "interrupted" : "done");
  summary.stop_signal = g_stop_signal;
  std::vector<db::MeasuredConfig> measured;
  for (db::MeasuredConfig& mc : repo.measured(board.name, summary.dataset))
    if (mc.config.workload == workload.name()) measured.push_back(std::move(mc));
  summary.front =
      reports::pareto_configs(measured, reports::objectives_of(to_workload_row(workload)));
  return summary;
}

}  // namespace flowtune
