// The state of one tuning run (tuner/tune_run.hpp), set up before its first measurement:
// board, workload, store, inputs, space, objectives, strategy, budget and what the DB
// already holds. Internal to tuner/ (tune_run.cpp and tune_session.cpp).
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "boards/board.hpp"
#include "boards/energy_sensor.hpp"
#include "db/repository.hpp"
#include "select/objectives.hpp"
#include "tuner/accuracy_table.hpp"
#include "tuner/constraint_checks.hpp"
#include "tuner/coordinator_lease.hpp"
#include "tuner/evaluator.hpp"
#include "tuner/point_line.hpp"
#include "tuner/progress.hpp"
#include "tuner/screening.hpp"
#include "tuner/search_space.hpp"
#include "tuner/space.hpp"
#include "tuner/strategy.hpp"
#include "tuner/time_budget.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {

/// Points of Strategy::upcoming the session hands to the build threads ahead
/// (ConstraintChecks::prefetch): at the start, enough for every initial kernel set of a
/// default space (one per variant and precision, and a few more).
constexpr std::size_t kPrefetchPoints = 64;

struct TuneSession {
  Board board;
  const Workload* workload = nullptr;
  std::unique_ptr<db::Repository> repo;
  std::unique_ptr<InputSet> inputs;
  ConfigSpace space;                  ///< generated: config i is made on demand (tuner/space.hpp)
  TuneSummary summary;                ///< run id, dataset, counts
  std::vector<Objective> objectives;  ///< what the strategy minimises, in order
  /// The request's constraints, resolved (figure and its bound): a point violating one is
  /// told to the strategy as infeasible (tune_run.cpp, observation_of).
  std::vector<std::pair<Objective, double>> constraints;
  std::unique_ptr<EnergySensor> sensor;  ///< when energy_mj is an objective and a sensor exists
  MeasureOptions measure;                ///< the options' with energy and its window
  std::unique_ptr<ConstraintChecks> checks;
  KernelBuildCounts builds_at_start;  ///< kernel_build_counters() when the session opened
  std::unique_ptr<SearchSpace> search_space;
  std::unique_ptr<Strategy> strategy;
  std::size_t budget = 0;       ///< evaluations allowed (measured + failed points)
  std::size_t evaluations = 0;  ///< spent so far
  /// Measurements of this board and dataset in the DB before the run, by config key.
  std::map<std::string, db::MeasuredConfig> known;
  std::unique_ptr<Progress> progress;
  /// The best value of each objective (by name) over the points measured or resumed so far.
  std::map<std::string, double> best;
  /// The non-dominated objective vectors (as the strategy sees them) of the points measured or
  /// resumed so far: a measurement dominated on arrival is stored without its pictures.
  std::vector<std::vector<double>> front_so_far;
  /// Multi-fidelity (TuneOptions::multi_fidelity): the screen's inputs and how it is
  /// measured, and the promotions; all null/empty without it.
  std::unique_ptr<InputSet> screen_inputs;
  Fidelity screen;
  std::unique_ptr<Screening> screening;
  /// TuneOptions::accuracy_from's table (null without it).
  std::unique_ptr<AccuracyTable> accuracy;
  /// The coordinator role of the run, renewed while the session lives
  /// (tuner/coordinator_lease.hpp); the run was resumed (its coordinator had gone) or begun.
  std::unique_ptr<CoordinatorLease> lease;
  bool resumed = false;
  /// The run's clock: its time budget (TuneOptions::time_budget_s, 0 = none) counts from
  /// `start` (TuneOptions::start).
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  double time_budget_s = 0;
  double elapsed_s() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  /// The dimensions that vary in the space: what a progress line names of a point.
  VaryingDimensions varying;
  /// Wall time per point so far (the time budget's rule, tuner/time_budget.hpp), and when
  /// each point in flight started (elapsed_s(), by point).
  PointTimeEstimate point_time;
  std::map<std::size_t, double> started_at_s;
  /// Where the wall clock went: seconds the evaluator spent measuring (its outcomes' busy_s),
  /// and seconds the loop prepared a point (its builds, mostly) with nothing in flight, so
  /// the measuring side waited.
  double measuring_s = 0, build_wait_s = 0;
  /// The measuring side's time by phase (EvaluationOutcome::phases summed).
  MeasurePhases measuring_phases;
  /// The search loop's wall time, and the part of it spent waiting in Evaluator::collect: the
  /// rest is the tuner's own work (recording, the strategy, constraint checks), which
  /// overlaps the measuring of the point handed over before it.
  double loop_s = 0, collect_wait_s = 0;
  std::size_t collected = 0;  ///< outcomes collected by the loop
};

/// Sets up a run: loads the board (checking it matches the present GPU unless options.workers ==
/// 0), the workload, the inputs and the DB, enumerates the space, takes the coordinator role of a
/// run in the DB (claim_coordinator_role: refused while a live coordinator, on any host, tunes the
/// same board, workload and dataset; a run whose coordinator is gone while its workers live is
/// resumed under its own id; else a new run), logs its size and estimated duration, resolves the
/// objectives and the energy sensor, starts the constraint checks and builds the strategy with its
/// budget. Throws what loading throws (unknown board or workload, unreadable data, DB errors).
std::unique_ptr<TuneSession> open_session(const TuneOptions& options, std::ostream& log);

/// The front of the session's dataset over the workload's front objectives, from the DB.
std::vector<db::MeasuredConfig> session_front(const TuneSession& session);

}  // namespace flowtune
