// Replay mode (Kernel Tuner's simulation mode): a strategy runs against a recorded run, each
// "evaluation" reading the recorded result instead of measuring, so that strategies can be
// compared on the same data without a GPU.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"
#include "tuner/accuracy_table.hpp"
#include "tuner/strategy.hpp"

namespace flowtune {

/// Every point of one recorded space: the configs measured, failed or pruned on one board
/// and dataset.
struct RecordedSpace {
  std::string board, dataset, workload;
  db::WorkloadRow workload_row;
  std::vector<Config> configs;
  std::vector<Outcome> outcomes;                 ///< measured / failed / pruned
  std::vector<db::MeasuredConfig> measurements;  ///< of measured points (else empty rows)
  std::vector<double> prior;                     ///< model estimate (tuner/model_estimate.hpp)
  /// Measuring cost of each point in seconds of wall clock, as the recording run spent it:
  /// measured points: overhead_s + sum over items of time_ms * (n_repeats + 1 warm-up) / 1000;
  /// failed points: overhead_s; pruned points: 0 (decided without measuring).
  std::vector<double> cost_s;
  /// Per-point cost beyond the timed runs (solver setup, upload, accuracy, process and DB
  /// round trip), seconds: the median over consecutive measurements of one recording run of
  /// (interval between their measured_at) - (the later one's timed runs); 0 without two
  /// consecutive measurements.
  double overhead_s = 0;
  std::size_t n_evaluable() const;  ///< measured + failed points
};

/// Loads the recorded space of board and dataset ("" = the board's dataset with the most
/// measurements) from repo: measured configs of that dataset, failures on it (unless also
/// measured) and pruned configs (pruning is per board), of the workload of the measurements.
/// The prior is the model estimate from each measurement's stored resource report (pruned
/// and failed points: relative cost alone). Throws std::invalid_argument when the board has
/// no measurement or the dataset is unknown.
RecordedSpace load_recorded_space(const db::Repository& repo, const std::string& board,
                                  const std::string& dataset = "");

/// A constrained selection checked on every seed's measured points: the best `objective`
/// among points whose every constrained figure is <= its bound (e.g. "time_ms" with aepe <=
/// 0.25: the fastest config with AEPE <= 0.25).
struct PickRequest {
  std::string objective;
  std::vector<Constraint> constraints;
  std::string label() const;  ///< e.g. "time_ms with aepe <= 0.25"
};

struct ReplayOptions {
  std::string strategy;  ///< a strategy name, or "auto" (choose_strategy for the request)
  std::uint64_t first_seed = 1;
  std::size_t seeds = 20;
  std::size_t budget = 0;  ///< evaluations per seed (measured + failed; pruned are free)
  /// > 0: the budget is this much measuring time per seed (seconds, RecordedSpace::cost_s),
  /// instead of `budget` evaluations: a seed stops before the point that would exceed it.
  double budget_s = 0;
  /// Seconds charged to cost_s for the first evaluation of each kernel set (its NVRTC build, as
  /// a live run with a cold kernel cache pays it); 0 = builds are free (a warm cache).
  double build_s = 0;
  std::vector<std::string> objectives;  ///< e.g. {"time_ms"} or {"time_ms","energy_mj","aepe"}
  /// Constraints the strategy steers towards, as the live run (constraint_domination.hpp);
  /// objective 0's best and optimum are then over feasible points only.
  std::vector<Constraint> constraints;
  std::vector<PickRequest> picks;  ///< selections compared with the recording's on every seed
  double within = 0.05;            ///< "near the optimum": within this fraction of objective 0
  /// Multi-fidelity as the live run's --multi-fidelity (tuner/screening.hpp): each point is
  /// first screened on the recording's first item (its per-item time and metrics), costing the
  /// per-point overhead + that item's time x (screen_repeats + 1 warm-up); a promoted point
  /// then costs its full measurement as well. Screened-out points are told to the strategy
  /// as the live run tells them (Screening::surrogate) and never enter the front, the
  /// hypervolume or the picks (full-fidelity points only). Needs per-item results.
  bool multi_fidelity = false;
  int screen_repeats = 3;
  /// Accuracy from elsewhere (the live run's --accuracy-from, tuner/accuracy_table.hpp): a
  /// point the table shows breaking one of `constraints` by more than accuracy_tolerance is
  /// told to the strategy as infeasible at no cost and is no evaluation. nullptr = none.
  const AccuracyTable* accuracy = nullptr;
  double accuracy_tolerance = kAccuracyTolerance;
};

struct SeedResult {
  std::uint64_t seed = 0;
  std::size_t evaluations = 0;      ///< evaluations made (<= budget)
  std::size_t evals_to_within = 0;  ///< evaluations until objective 0 was within `within` of the
                                    ///< exhaustive optimum; 0 = not reached within the budget
  double best = 0;                  ///< best objective-0 value found (oriented for minimisation)
  double hypervolume_fraction = 0;  ///< HV of the found front / HV of the exhaustive front
  double cost_s = 0;  ///< measuring time spent (RecordedSpace::cost_s), + builds, seconds
  std::size_t screened_out = 0;  ///< multi-fidelity: points settled by their screen
  /// Distinct kernel sets (variant + precision + tunables, Config::label: one NVRTC build
  /// each in a live run) among the evaluated (measured or failed) points: the compile cost
  /// that the evaluation count leaves out.
  std::size_t kernel_sets = 0;
  std::vector<double> picks;  ///< per PickRequest: the value found (oriented), +inf if none
  /// Measuring time (cost_s's account) spent when objective 0 first got within `within` of
  /// the optimum; 0 = not reached.
  double cost_to_within_s = 0;
  std::size_t not_timed = 0;  ///< points the accuracy table settled (ReplayOptions::accuracy)
};

struct ReplayResult {
  std::string strategy;
  std::size_t budget = 0, n_evaluable = 0;
  double optimum = 0;                ///< exhaustive optimum of objective 0 (oriented)
  std::vector<double> pick_optimum;  ///< per PickRequest: the best over the whole recording
  std::vector<SeedResult> seeds;
  std::size_t n_within() const;  ///< seeds that reached within the budget
  /// Seeds whose pick k is within `within` of pick_optimum[k] (value <= opt + within * |opt|).
  std::size_t n_pick_within(std::size_t k, double within) const;
};

/// Replays options.strategy for seeds first_seed .. first_seed + seeds - 1 against space.
/// Objectives are oriented for minimisation (resolve_objective); objective 0 is
/// the one single-objective strategies minimise. Hypervolume: each objective normalised to
/// [0, 1] by its min and max over the measured points, reference point 1.1 in each
/// (select/hypervolume.hpp); points lacking a figure (NULL energy) do not count; the
/// hypervolume ignores constraints. Throws std::invalid_argument for an unknown strategy,
/// objective or constrained figure, a zero budget, or a space without a finite (feasible)
/// value of objective 0.
ReplayResult replay(const RecordedSpace& space, const ReplayOptions& options);

}  // namespace flowtune
