// The tuning loop (tuner/tune_run.hpp): ask -> settle or evaluate -> record -> tell.
#include "tuner/tune_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <iomanip>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>

#include "kernels/cancellation.hpp"
#include "select/pareto.hpp"
#include "select/prune_reasons.hpp"
#include "tuner/constraint_domination.hpp"
#include "tuner/dispatch.hpp"
#include "tuner/evaluator.hpp"
#include "tuner/front_energy.hpp"
#include "tuner/point_line.hpp"
#include "tuner/resources_json.hpp"
#include "tuner/time_budget.hpp"
#include "tuner/tune_session.hpp"

namespace flowtune {
namespace {

// After each proposal, the strategy's next few points go to the build threads.
constexpr std::size_t kPrefetchAfterAsk = 4;

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

// The strategy's view of a measured point: its objectives under the request's constraints
// (tuner/constraint_domination.hpp, Deb's rule).
Observation observation_of(const TuneSession& s, std::size_t point, const db::MeasuredConfig& mc) {
  Observation o;
  o.point = point;
  o.outcome = Outcome::measured;
  o.objectives = constrained_objectives(mc, s.objectives, s.constraints);
  for (const Objective& obj : s.objectives) o.values.push_back(oriented_value(mc, obj));
  o.slack = constraint_slacks(mc, s.constraints);
  return o;
}

// Updates the best value of each objective with mc and shows them on the progress bar.
// Adds v to the session's running front; false when a point of it dominates v (or equals it).
bool enters_front(TuneSession& s, const std::vector<double>& v) {
  for (const std::vector<double>& f : s.front_so_far)
    if (f == v || dominates(f, v)) return false;
  auto& front = s.front_so_far;
  front.erase(std::remove_if(front.begin(), front.end(),
                             [&](const std::vector<double>& f) { return dominates(v, f); }),
              front.end());
  front.push_back(v);
  return true;
}

void note_best(TuneSession& s, const db::MeasuredConfig& mc) {
  std::ostringstream text;
  for (const Objective& o : s.objectives) {
    const double v = mc.value(o.name);
    if (std::isfinite(v)) {
      const auto it = s.best.find(o.name);
      if (it == s.best.end() || (o.minimize ? v < it->second : v > it->second)) s.best[o.name] = v;
    }
    const auto it = s.best.find(o.name);
    if (it != s.best.end())
      text << (text.tellp() > 0 ? ", " : "") << o.name << " " << std::setprecision(3) << it->second;
  }
  s.progress->set_best(text.str());
}

// A point whose screen did not promote it: the strategy is told the screen's objectives
// scaled to full fidelity (Screening::surrogate); the DB holds its screen only.
void screened_out(TuneSession& s, std::size_t idx, const std::string& label) {
  ++s.summary.n_screened_out;
  s.progress->step(label, true, s.workload->relative_cost(s.space[idx]));
  s.strategy->tell({idx, Outcome::measured, s.screening->surrogate(idx, kInfeasible), {}, {}});
}

// Settles a point the DB or the constraint checks decide (measured, pruned or failed before;
// a failed build; pruned now): tells the strategy and returns true. Otherwise fills e.
bool settle_without_measuring(TuneSession& s, const TuneOptions& options, std::size_t idx,
                              Evaluation& e) {
  const Config& config = s.space[idx];
  const double cost = s.workload->relative_cost(config);
  e.point = idx;
  e.config = to_config_row(s.board.name, config);
  const std::string& key = e.config.key;
  if (auto it = s.known.find(key); it != s.known.end()) {
    ++s.summary.n_resumed;
    ++s.evaluations;
    note_best(s, it->second);
    s.progress->step(varying_text(config, s.varying) + " (already in the DB)", false, cost);
    const Observation known = observation_of(s, idx, it->second);
    enters_front(s, known.objectives);
    s.strategy->tell(known);
    return true;
  }
  if (s.repo->is_pruned(s.board.name, key)) {
    ++s.summary.n_resumed;
    s.strategy->tell({idx, Outcome::pruned, {}, {}, {}});
    return true;
  }
  const std::string failed_before = s.repo->failure_class(s.board.name, key, s.summary.dataset);
  if (!failed_before.empty() && failed_before != "environment" && !options.retry_failed) {
    ++s.summary.n_resumed;
    ++s.evaluations;
    s.progress->step(varying_text(config, s.varying) + " failed before (" + failed_before + ")",
                     false, cost, true);
    s.strategy->tell({idx, Outcome::failed, {}, {}, {}});
    return true;
  }
  if (s.accuracy) {
    std::vector<double> slack;
    if (s.accuracy->known_infeasible(e.config, s.constraints, options.accuracy_tolerance, &slack)) {
      ++s.summary.n_known_infeasible;
      s.strategy->tell(known_infeasible_observation(idx, s.objectives.size(), slack));
      return true;
    }
  }
  const ConstraintCheck* check = nullptr;
  try {
    check = &s.checks->get(idx);
  } catch (const std::exception& ex) {
    EvaluationOutcome o;
    o.point = idx;
    o.config = e.config;
    o.failure_class = "compile";
    o.message = ex.what();
    o.dataset = s.summary.dataset;
    record_outcome(*s.repo, s.summary.run_id, o);
    ++s.summary.n_failed;
    ++s.evaluations;
    s.progress->step(
        varying_text(config, s.varying) + " failed (compile): " + short_message(ex.what()), true,
        cost, true);
    s.strategy->tell({idx, Outcome::failed, {}, {}, {}});
    return true;
  }
  if (check->prune_reason) {
    s.repo->record_pruned(s.summary.run_id, e.config, *check->prune_reason);
    ++s.summary.n_pruned;
    s.progress->note(varying_text(config, s.varying) + " pruned (" +
                         prune_reason_class(config.label(), *check->prune_reason) + ")",
                     false);
    s.strategy->tell({idx, Outcome::pruned, {}, {}, {}});
    return true;
  }
  if (s.board.target == "cuda") {
    std::vector<KernelResources> kernels;
    for (const KernelOccupancy& k : check->kernels) kernels.push_back(k.resources);
    e.resources_json = resources_json(kernels);
  }
  if (!s.screening) return false;
  e.fidelity = 1;
  const std::optional<db::MeasuredConfig> screened =
      s.repo->measurement_of(s.board.name, key, s.screen.dataset);
  if (!screened) return false;  // screen it
  e.fidelity = 0;
  if (s.screening->screen(idx, observation_of(s, idx, *screened).objectives)) return false;
  ++s.evaluations;
  screened_out(s, idx, varying_text(config, s.varying) + " (screened out before)");
  return true;
}

// A screen's outcome: promoted points go to the evaluator at full fidelity (true), the
// others are settled with their surrogate (false).
bool promote(TuneSession& s, Evaluator& evaluator, const EvaluationOutcome& o) {
  const Config& config = s.space[o.point];
  db::MeasuredConfig mc;
  mc.config = o.config;
  mc.measurement = o.measurement;
  if (s.screening->screen(o.point, observation_of(s, o.point, mc).objectives)) {
    Evaluation full;
    full.point = o.point;
    full.config = o.config;
    full.resources_json = o.measurement.resources_json;
    s.started_at_s[full.point] = s.elapsed_s();
    evaluator.submit(full);
    return true;
  }
  screened_out(s, o.point,
               varying_text(config, s.varying) + ": screened out on " + o.dataset + " (" +
                   figures_text(o.measurement) + ")");
  return false;
}

// "measuring 83%, waiting for builds 9%, otherwise idle 8%, 11.2 points/s": the shares of the
// wall clock so far (the measuring side busy on points; the tuner preparing a point with none
// in flight; the rest: the start, and the tuner's own work with nothing queued), and the
// points collected per second of it.
std::string activity_text(const TuneSession& s) {
  const double elapsed = std::max(s.elapsed_s(), 1e-9);
  const auto share = [elapsed](double x) {
    return std::to_string(int(std::lround(100 * std::min(1.0, std::max(0.0, x) / elapsed)))) + "%";
  };
  std::ostringstream rate;
  rate.setf(std::ios::fixed);
  rate.precision(1);
  rate << double(s.collected) / elapsed;
  return "measuring " + share(s.measuring_s) + ", waiting for builds " + share(s.build_wait_s) +
         ", otherwise idle " + share(elapsed - s.measuring_s - s.build_wait_s) + ", " + rate.str() +
         " points/s";
}

// "timed runs 23%, first runs 4%, ...": the measuring side's time by phase, as shares of the
// time it spent measuring; "other" is what the phases leave out: the waits for points that
// failed (a worker answers its points with its own time, phases included), and in this process
// the evaluator's own steps around a measurement. Empty when no phase was reported.
std::string measuring_phases_text(const TuneSession& s) {
  const MeasurePhases& p = s.measuring_phases;
  if (p.total_s() <= 0 || s.measuring_s <= 0) return "";
  const auto share = [&s](double x) {
    return std::to_string(int(std::lround(100 * x / s.measuring_s))) + "%";
  };
  return "timed runs " + share(p.timed_s) + ", first (scored) runs " + share(p.first_run_s) +
         ", kernel load and set-up " + share(p.build_s) + ", scoring " + share(p.score_s) +
         ", pictures " + share(p.pictures_s) + ", other warm-up runs " + share(p.warmup_s) +
         ", kernel teardown " + share(p.teardown_s) + ", worker protocol " + share(p.protocol_s) +
         ", other " + share(std::max(0.0, s.measuring_s - p.total_s()));
}

// "the tuner's own work: 12 ms a point (...)": the search loop's time outside collect, per
// collected outcome. Empty before the first outcome.
std::string tuner_work_text(const TuneSession& s) {
  if (s.collected == 0) return "";
  const double own_s = std::max(0.0, s.loop_s - s.collect_wait_s);
  std::ostringstream out;
  out << "the tuner's own work: " << std::lround(1000 * own_s / double(s.collected))
      << " ms a point (recording, the strategy, constraint checks; it overlaps the point in "
         "flight), waiting for answers: "
      << std::lround(1000 * s.collect_wait_s / double(s.collected)) << " ms a point";
  return out.str();
}

// Records each outcome, reports it and tells the strategy. Returns false when a stop
// request cancelled a measurement (the run ends as interrupted).
bool take(TuneSession& s, Evaluator& evaluator, std::vector<EvaluationOutcome> outcomes) {
  bool go_on = true;
  for (EvaluationOutcome& o : outcomes) {
    const Config& config = s.space[o.point];
    const double cost = s.workload->relative_cost(config);
    if (o.kind == EvaluationOutcome::Kind::cancelled) {
      if (!past_time_budget(s.elapsed_s(), s.time_budget_s)) {
        go_on = false;  // a stop request
        continue;
      }
      ++s.summary.n_cancelled;
      s.progress->note(varying_text(config, s.varying) +
                       " cancelled at the time budget (not recorded: the same command measures "
                       "it again)");
      continue;
    }
    if (const auto it = s.started_at_s.find(o.point); it != s.started_at_s.end()) {
      const double busy_s = o.busy_s >= 0 ? o.busy_s : s.elapsed_s() - it->second;
      s.point_time.observe(cost, busy_s);
      s.measuring_s += busy_s;
      s.measuring_phases += o.phases;
      s.progress->set_activity(activity_text(s));
      s.started_at_s.erase(it);
    }
    // A config that fails its screen fails: recorded under the full dataset, so a resumed
    // run does not try it again.
    if (o.kind == EvaluationOutcome::Kind::failed) o.dataset = s.summary.dataset;
    // Pictures (the report's flow images) are kept for points on the front when measured
    // only: a measurement dominated on arrival can never be shown, and pictures of every
    // point would multiply the store's size (some 40 KB per measurement).
    if (o.kind != EvaluationOutcome::Kind::failed && o.fidelity != 1 &&
        !o.measurement.images.empty()) {
      db::MeasuredConfig arriving;
      arriving.config = o.config;
      arriving.measurement = o.measurement;
      if (!enters_front(s, observation_of(s, o.point, arriving).objectives))
        o.measurement.images.clear();
    }
    const bool recorded = record_outcome(*s.repo, s.summary.run_id, o);
    if (o.kind == EvaluationOutcome::Kind::failed) {
      ++s.summary.n_failed;
      s.progress->step(varying_text(config, s.varying) + " failed (" + o.failure_class + ")" +
                           (o.message.empty() ? "" : ": " + short_message(o.message)),
                       true, cost, true);
      s.strategy->tell({o.point, Outcome::failed, {}, {}, {}});
      continue;
    }
    if (o.fidelity == 1) {
      promote(s, evaluator, o);
      continue;
    }
    db::MeasuredConfig mc;
    mc.config = o.config;
    mc.measurement = o.measurement;
    note_best(s, mc);
    if (!recorded) {
      ++s.summary.n_resumed;
      s.progress->step(varying_text(config, s.varying) + " measured meanwhile by another process",
                       true, cost);
    } else {
      ++s.summary.n_measured;
      s.progress->step(varying_text(config, s.varying) + ": " + figures_text(o.measurement) +
                           (o.where.empty() ? "" : " (" + o.where + ")"),
                       true, cost);
    }
    const Observation observation = observation_of(s, o.point, mc);
    if (s.screening) s.screening->full_result(o.point, observation.objectives);
    s.strategy->tell(observation);
  }
  return go_on;
}

// The evaluator the options ask for: the store's workers (options.workers >= 0 or auto), a
// worker process (isolate), or this process.
std::unique_ptr<Evaluator> make_evaluator(TuneSession& s, const TuneOptions& options,
                                          std::ostream& log) {
  EvaluationContext context{s.board,
                            {{options.inputs, s.measure, s.summary.dataset}},
                            options.allow_clock_control,
                            options.config_timeout_s};
  std::vector<const InputSet*> loaded = {s.inputs.get()};
  if (s.screening) {
    context.fidelities.push_back(s.screen);
    loaded.push_back(s.screen_inputs.get());
  }
  if (options.workers < 0 && options.workers != kWorkersAuto)
    return options.isolate ? make_worker_process_evaluator(context)
                           : make_in_process_evaluator(context, loaded, s.sensor.get());
  StoreEvaluatorOptions so;
  so.storage = options.db_path;
  so.run_id = s.summary.run_id;
  so.lease_s = options.lease_s;
  so.progress_deadline_s = options.progress_deadline_s;
  if (s.lease) so.run_lost = [lease = s.lease.get()] { return lease->lost(); };
  if (s.board.target == "cuda") so.gpus = visible_gpus();
  so.local_workers =
      options.workers == kWorkersAuto ? std::max(1, int(so.gpus.size())) : options.workers;
  std::size_t n_known = 0;
  // The DB's points that lie in this space (a lookup per known point, no pass over the space).
  for (const auto& [key, mc] : s.known)
    if (s.space.index_of(to_config(mc.config))) ++n_known;
  s.repo->set_planned_points(s.summary.run_id,
                             (long long)(s.budget > n_known ? s.budget - n_known : 0));
  log << "coordinator of run " << s.summary.run_id << ": " << so.local_workers << " local worker(s)"
      << (so.gpus.empty() ? "" : " pinned one per GPU") << "; more may join: tune worker --storage "
      << s.repo->path() << " --run " << s.summary.run_id
      << (s.repo->path() != options.db_path ? " (with the password in PGPASSWORD or ~/.pgpass)"
                                            : "")
      << '\n';
  return make_store_evaluator(*s.repo, context, so);
}

// Raises the cancellation flag (kernels/cancellation.hpp) at cancel_at_s of the run's clock
// (started at started_at_s of it), so that a measurement in this process stops there; 0 =
// never. The destructor ends the watch (and StopSignals' clears the flag).
class BudgetWatch {
 public:
  BudgetWatch(double cancel_at_s, double started_at_s) {
    if (!(cancel_at_s > 0)) return;
    const auto deadline =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
            std::chrono::duration<double>(std::max(0.0, cancel_at_s - started_at_s)));
    thread_ = std::thread([this, deadline] {
      std::unique_lock<std::mutex> lock(mutex_);
      if (!ended_.wait_until(lock, deadline, [this] { return done_; }))
        cancellation_requested().store(true);
    });
  }
  ~BudgetWatch() {
    if (!thread_.joinable()) return;
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    ended_.notify_all();
    thread_.join();
  }
  BudgetWatch(const BudgetWatch&) = delete;
  BudgetWatch& operator=(const BudgetWatch&) = delete;

 private:
  std::mutex mutex_;
  std::condition_variable ended_;
  bool done_ = false;
  std::thread thread_;
};

}  // namespace

TuneSummary run_tuning(const TuneOptions& requested, std::ostream& log) {
  // The handlers first: open_session marks the run "running", and a signal from then on must
  // reach on_stop_signal (stop, or exit 128 + signal), never the default action.
  StopSignals signals;
  // The search's share of the time budget; the front's energy pass has the rest.
  const TuneOptions options = search_options(requested);
  const std::unique_ptr<TuneSession> session = open_session(options, log);
  TuneSession& s = *session;
  const auto elapsed_s = [&s] { return s.elapsed_s(); };
  const auto run_lost = [&s] { return s.lease && s.lease->lost(); };
  const std::function<bool()> stop = [&] { return g_stop_requested.load() || run_lost(); };
  // What the evaluator polls: a stop request, or the points in flight past the time budget
  // (they are cancelled, tuner/time_budget.hpp).
  const std::function<bool()> stop_measuring = [&] {
    return stop() || past_time_budget(elapsed_s(), options.time_budget_s);
  };
  // A measurement in this process polls the cancellation flag only: this watch raises it when
  // the time budget is spent.
  const bool measures_here = !options.isolate && options.workers == -1;
  BudgetWatch watch(measures_here ? options.time_budget_s * kTimeBudgetPointsFraction : 0,
                    elapsed_s());
  // Another process took the coordinator role over (this one was stopped, or cut off from
  // the store, for longer than --lease-s): the run is its now, nothing of it is touched.
  const auto throw_if_lost = [&] {
    if (s.lease && s.lease->lost_now())
      throw std::runtime_error(s.repo->path() + ": run " + std::to_string(s.summary.run_id) +
                               ": another process took this run over or closed it (this process "
                               "kept no lease for --lease-s " +
                               std::to_string(int(options.lease_s)) +
                               " s: was it stopped or cut off from the store?); stopping "
                               "without touching the run");
  };
  const auto budget_spent = [&] { return past_time_budget(elapsed_s(), options.time_budget_s); };
  std::unique_ptr<Evaluator> evaluator;
  try {
    evaluator = make_evaluator(s, options, log);
    bool go_on = true;
    bool next_does_not_fit = false;
    const double loop_from_s = elapsed_s();
    // Evaluator::collect, with its wait and its outcomes counted (tuner_work_text).
    const auto collect = [&] {
      const double from_s = elapsed_s();
      std::vector<EvaluationOutcome> outcomes = evaluator->collect(stop_measuring);
      s.collect_wait_s += elapsed_s() - from_s;
      s.collected += outcomes.size();
      return outcomes;
    };
    while (go_on && s.evaluations < s.budget && !stop() && !budget_spent()) {
      if (evaluator->in_flight() >= evaluator->capacity()) {
        go_on = take(s, *evaluator, collect());
        continue;
      }
      const std::optional<std::size_t> next = s.strategy->ask();
      s.checks->prefetch(s.strategy->upcoming(kPrefetchAfterAsk));
      if (!next && evaluator->in_flight() > 0) {
        // the strategy may need them first
        go_on = take(s, *evaluator, collect());
        continue;
      }
      if (!next) break;
      Evaluation e;
      const bool idle = evaluator->in_flight() == 0;
      const double prepare_from_s = elapsed_s();
      const bool settled = settle_without_measuring(s, options, *next, e);
      if (idle) s.build_wait_s += elapsed_s() - prepare_from_s;
      if (settled) continue;
      // A point that cannot finish in the time left is not started (the run ends as if its
      // budget were spent; the same command with more budget measures it).
      const double cost = s.workload->relative_cost(s.space[*next]);
      const std::optional<double> expected_s = s.point_time.seconds(cost);
      if (!point_fits_time_budget(elapsed_s(), options.time_budget_s, expected_s)) {
        s.progress->note("time budget: the next point (" + varying_text(s.space[*next], s.varying) +
                         ", about " + duration_text(expected_s.value_or(0)) +
                         ") does not fit in the " +
                         duration_text(std::max(0.0, options.time_budget_s - elapsed_s())) +
                         " left; it is not started");
        next_does_not_fit = true;
        break;
      }
      ++s.evaluations;
      s.started_at_s[e.point] = elapsed_s();
      evaluator->submit(e);
    }
    while (go_on && evaluator->in_flight() > 0 && !stop_measuring())
      go_on = take(s, *evaluator, collect());
    s.loop_s = elapsed_s() - loop_from_s;
    throw_if_lost();
    s.summary.interrupted = !go_on || stop();
    s.summary.time_budget_spent =
        !s.summary.interrupted && (budget_spent() || next_does_not_fit || s.summary.n_cancelled);
    evaluator->shut_down();
  } catch (...) {
    evaluator.reset();
    s.progress->finish();
    if (run_lost()) throw;  // the run belongs to another coordinator now
    try {
      s.repo->end_run(s.summary.run_id, "failed");
    } catch (const std::exception&) {
      // The store is away (the error being thrown says so): the run stays "running" until
      // the next read-write open finds its process gone and marks it aborted; the error
      // that stopped the run is the one to report, not this one.
    }
    throw;
  }
  s.progress->finish();
  s.summary.front_energy = measure_front_energy(s, requested, log);
  s.repo->end_run(s.summary.run_id, s.summary.interrupted ? "interrupted" : "done");
  s.summary.stop_signal = g_stop_signal;
  s.summary.front = session_front(s);
  s.summary.elapsed_s = elapsed_s();
  const ConstraintChecks::Stats checks = s.checks->stats();
  log << "run " << s.summary.run_id << ": " << s.summary.elapsed_s << " s wall; constraint checks "
      << "(kernel builds, NVRTC or its disk cache): " << checks.checked << " configs, "
      << checks.seconds << " s summed over the build threads; the wall clock: " << activity_text(s)
      << "\n";
  if (const std::string phases = measuring_phases_text(s); !phases.empty())
    log << "where the measuring time went: " << phases << "\n";
  if (const std::string own = tuner_work_text(s); !own.empty()) log << own << "\n";
  s.summary.builds_here = kernel_build_counters().get() - s.builds_at_start;
  s.summary.builds_measuring = evaluator->kernel_builds();
  log << "kernel builds of run " << s.summary.run_id << ": this process "
      << kernel_build_counts_text(s.summary.builds_here);
  if (options.workers >= 0 || options.workers == kWorkersAuto)
    log << "; workers: each prints its own line when it ends\n";
  else if (options.isolate)
    log << "; measuring process " << kernel_build_counts_text(s.summary.builds_measuring) << '\n';
  else
    log << " (measured in this process)\n";
  if (s.screening)
    log << "multi-fidelity: " << s.screening->screened() << " points screened, "
        << s.screening->promoted() << " promoted to all items, " << s.summary.n_screened_out
        << " settled by their screen\n";
  if (s.accuracy) {
    // The board's re-check of the reused accuracy: its own measurements of the dataset
    // (this run's and the DB's earlier ones) against the table.
    s.summary.accuracy_check =
        accuracy_agreement(*s.accuracy, s.repo->measured(s.board.name, s.summary.dataset));
    const AccuracyAgreement& a = s.summary.accuracy_check;
    log << "accuracy table: " << s.summary.n_known_infeasible
        << " points not timed (their accuracy broke the request); " << a.rows_with_key << " of "
        << a.rows << " measured points of " << s.board.name << " have a key of the table";
    std::string sep = ", differing from it by at most ";
    for (const auto& [name, d] : a.max_relative_difference) {
      std::ostringstream pct;
      pct << std::setprecision(3) << d * 100;
      log << sep << pct.str() << "% in " << name;
      sep = ", ";
    }
    log << "\n";
  }
  if (s.summary.time_budget_spent)
    log << "time budget spent (" << s.summary.elapsed_s
        << " s): the same command with a larger --time-budget goes on where this run stopped\n";
  return s.summary;
}

}  // namespace flowtune
