// The energy pass of a tuning run: after the search, the points of the Pareto front and the
// request's pick that were measured without energy are measured again with the energy
// sensor's window, and their energy is stored with their measurement (ARCHITECTURE.md,
// "Measuring": the long window energy needs is paid on the few points a user deploys, not on
// every point of the search).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "tuner/tune_run.hpp"

namespace flowtune {

struct TuneSession;

/// At most this fraction of a run's time budget goes to the energy pass; the search gets the
/// rest (search_options).
inline constexpr double kFrontEnergyBudgetFraction = 0.10;

/// Whether a run of these options measures the energy of its front after the search: energy
/// is neither an objective nor constrained (else the search measures it on every point),
/// the points are measured on this host (workers != 0), and the board's sensor is present
/// here (make_energy_sensor, boards/energy_sensor.hpp; RAPL needs a readable
/// /sys/class/powercap). Throws what load_board throws for an unknown board.
bool plans_front_energy(const TuneOptions& run);

/// The options the search runs under: run's, with the time budget less the energy pass's
/// share (kFrontEnergyBudgetFraction) when the pass is planned and there is a time budget.
TuneOptions search_options(const TuneOptions& run);

/// Measures the energy of the session's front (tune_session.hpp session_front: over the
/// workload's front objectives) and of the pick of run's request (run.objective, default
/// time, under run.constraints) where they lack it: the pick first, then the front's two
/// ends, then the other points from the fastest. Each point is measured through the
/// evaluator (measure_config, tuner/measure.hpp) on the run's inputs with energy on, windows
/// of at least the sensor's min_window_ms per item, no pictures, and its figures are stored at
/// once (db ResultStore::record_energy: a killed run keeps every point measured so far; the
/// same command measures the rest). A point starts only when it fits in the pass's share of
/// run.time_budget_s (at most kFrontEnergyBudgetFraction of it, and never past the budget's
/// end); 0 = no time budget. Logs one line: what it measured, its cost in seconds and in % of
/// the time budget, or why it did not run (no sensor: one line). Never throws: an error of
/// the pass is logged, and the search's results stand.
FrontEnergySummary measure_front_energy(TuneSession& session, const TuneOptions& run,
                                        std::ostream& log);

/// The line of a summary: e.g. "energy of the front: 12 of 12 points (nvml energy counter,
/// 200 ms windows per item) in 9.8 s, 2.0% of the 8 min time budget".
std::string front_energy_text(const FrontEnergySummary& summary);

}  // namespace flowtune
