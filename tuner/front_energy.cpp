// The energy pass after the search (tuner/front_energy.hpp).
#include "tuner/front_energy.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "boards/energy_sensor.hpp"
#include "kernels/cancellation.hpp"
#include "select/config_rows.hpp"
#include "select/export_selection.hpp"
#include "tuner/evaluator.hpp"
#include "tuner/point_line.hpp"
#include "tuner/progress.hpp"
#include "tuner/time_budget.hpp"
#include "tuner/tune_session.hpp"

namespace flowtune {
namespace {

// Whether the request's objectives or constraints need energy on every point.
bool energy_requested(const TuneOptions& run) {
  std::vector<std::string> names = run.objectives;
  names.push_back(run.objective);
  for (const Constraint& c : run.constraints) names.push_back(c.name);
  return std::any_of(names.begin(), names.end(), is_energy_figure);
}

// The points to measure, in order: the request's pick, the front's two ends (fastest,
// most accurate), then the rest of the front from the fastest; only those without energy.
std::vector<db::MeasuredConfig> points_to_measure(const TuneSession& s, const TuneOptions& run) {
  std::vector<db::MeasuredConfig> front = session_front(s);  // sorted by its first objective
  std::vector<db::MeasuredConfig> order;
  try {
    const db::Repository& repo = *s.repo;
    order.push_back(select_for_export(repo, s.board.name,
                                      run.objective.empty() ? "time" : run.objective,
                                      s.summary.dataset, run.constraints, s.workload->name())
                        .config);
  } catch (const std::exception&) {
    // No config satisfies the request: the front alone.
  }
  if (!front.empty()) {
    order.push_back(front.front());
    order.push_back(front.back());
  }
  order.insert(order.end(), front.begin(), front.end());
  std::vector<db::MeasuredConfig> out;
  for (db::MeasuredConfig& mc : order) {
    if (mc.measurement.energy_mj) continue;
    const bool seen = std::any_of(out.begin(), out.end(), [&](const db::MeasuredConfig& o) {
      return o.config.key == mc.config.key;
    });
    if (!seen) out.push_back(std::move(mc));
  }
  return out;
}

std::string seconds_text(double s) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << s << " s";
  return os.str();
}

std::string percent_text(double part, double whole) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(1) << 100.0 * part / whole << "%";
  return os.str();
}

}  // namespace

bool plans_front_energy(const TuneOptions& run) {
  if (energy_requested(run) || run.workers == 0) return false;
  return make_energy_sensor(load_board(run.board)) != nullptr;
}

TuneOptions search_options(const TuneOptions& run) {
  TuneOptions o = run;
  if (run.time_budget_s > 0 && plans_front_energy(run))
    o.time_budget_s = run.time_budget_s * (1 - kFrontEnergyBudgetFraction);
  return o;
}

FrontEnergySummary measure_front_energy(TuneSession& s, const TuneOptions& run, std::ostream& log) {
  FrontEnergySummary sum;
  sum.time_budget_s = run.time_budget_s;
  const auto began = std::chrono::steady_clock::now();
  const auto pass_s = [&] {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
  };
  try {
    if (s.summary.interrupted) {
      sum.why_not = "the run was interrupted";
    } else if (energy_requested(run)) {
      sum.why_not = "the search measured energy on every point (the request needs it)";
    } else if (run.workers == 0) {
      sum.why_not = "the points are measured by workers elsewhere (a run on the board measures it)";
    }
    std::unique_ptr<EnergySensor> sensor;
    if (sum.why_not.empty()) {
      sensor = make_energy_sensor(s.board);
      if (!sensor)
        sum.why_not =
            "no energy sensor found for board " + s.board.name + " (" + s.board.power.kind +
            (s.board.power.paths.empty() ? std::string() : ": " + s.board.power.paths.front()) +
            " not present or not readable); energy is not measured";
    }
    if (!sum.why_not.empty()) {
      log << front_energy_text(sum) << '\n';
      return sum;
    }
    sum.ran = true;
    sum.sensor = sensor->name();
    sum.window_ms = sensor->min_window_ms();
    const std::vector<db::MeasuredConfig> points = points_to_measure(s, run);
    sum.n_points = points.size();
    // The pass's share: at most its fraction of the budget, and never past the budget's end.
    const double left_s = run.time_budget_s * kTimeBudgetPointsFraction - s.elapsed_s();
    sum.share_s =
        run.time_budget_s > 0
            ? std::max(0.0, std::min(run.time_budget_s * kFrontEnergyBudgetFraction, left_s))
            : 0;
    MeasureOptions measure = s.measure;
    measure.energy = true;
    measure.min_window_ms = std::max(measure.min_window_ms, sensor->min_window_ms());
    measure.ci_fraction = 0;  // the energy window sets the repeats
    measure.picture_max_side = 0;
    EvaluationContext context{s.board,
                              {{run.inputs, measure, s.summary.dataset}},
                              run.allow_clock_control,
                              run.config_timeout_s};
    std::unique_ptr<Evaluator> evaluator =
        run.isolate ? make_worker_process_evaluator(context)
                    : make_in_process_evaluator(context, {s.inputs.get()}, sensor.get());
    // A point's expected wall time: the slowest so far, else the windows of its items.
    double slowest_s = 0;
    const double windows_s = double(s.inputs->size()) * sensor->min_window_ms() / 1000.0;
    // A stop request (SIGINT/SIGTERM raise the cancellation flag) or the end of the share.
    const auto over_share = [&] {
      return cancellation_requested().load() || (run.time_budget_s > 0 && pass_s() >= sum.share_s);
    };
    for (std::size_t k = 0; k < points.size(); ++k) {
      const db::MeasuredConfig& mc = points[k];
      const double expected_s = std::max(slowest_s, windows_s);
      if (run.time_budget_s > 0 && pass_s() + expected_s > sum.share_s) {
        sum.n_left = points.size() - k;
        break;
      }
      Evaluation e;
      e.point = k;
      e.config = mc.config;
      e.resources_json = mc.measurement.resources_json;
      const double started_s = pass_s();
      evaluator->submit(e);
      std::vector<EvaluationOutcome> outcomes;
      while (outcomes.empty() && evaluator->in_flight() > 0)
        outcomes = evaluator->collect(over_share);
      slowest_s = std::max(slowest_s, pass_s() - started_s);
      if (outcomes.empty() || outcomes.front().kind == EvaluationOutcome::Kind::cancelled) {
        sum.n_left = points.size() - k;  // cancelled at the end of the share: not recorded
        break;
      }
      const EvaluationOutcome& o = outcomes.front();
      const db::MeasurementRow& m = o.measurement;
      if (o.kind == EvaluationOutcome::Kind::measured && m.energy_mj && m.nj_per_unit &&
          m.power_w &&
          s.repo->record_energy(s.board.name, mc.config.key, s.summary.dataset, *m.energy_mj,
                                *m.nj_per_unit, *m.power_w)) {
        ++sum.n_measured;
        continue;
      }
      ++sum.n_failed;
      log << "energy of " << mc.config.label << " " << to_config(mc.config).params_text()
          << ": not measured ("
          << (o.kind == EvaluationOutcome::Kind::failed
                  ? o.failure_class + (o.message.empty() ? "" : ": " + short_message(o.message))
                  : std::string("the sensor gave no reading"))
          << ")\n";
    }
    evaluator->shut_down();
  } catch (const std::exception& e) {
    log << "energy of the front: stopped (" << e.what() << "); the search's results stand\n";
  }
  sum.seconds = pass_s();
  log << front_energy_text(sum) << '\n';
  return sum;
}

std::string front_energy_text(const FrontEnergySummary& sum) {
  std::ostringstream os;
  if (!sum.ran) {
    os << "energy of the front: not measured: " << sum.why_not;
    return os.str();
  }
  os << "energy of the front: " << sum.n_measured << " of " << sum.n_points << " points ("
     << sum.sensor << ", " << int(sum.window_ms) << " ms windows per item) in "
     << seconds_text(sum.seconds);
  if (sum.time_budget_s > 0)
    os << ", " << percent_text(sum.seconds, sum.time_budget_s) << " of the "
       << duration_text(sum.time_budget_s) << " time budget (its share "
       << duration_text(sum.share_s) << ")";
  if (sum.n_failed) os << "; " << sum.n_failed << " failed";
  if (sum.n_left)
    os << "; " << sum.n_left
       << " left without energy (its share was spent: the same command measures them)";
  return os.str();
}

}  // namespace flowtune
