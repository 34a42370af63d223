// Objectives and Pareto fronts of measured configs, by figure name (workload-generic).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "db/repository.hpp"

namespace flowtune {

/// A figure the selection minimises or maximises: "time_ms", "energy_mj", "power_w",
/// "ns_per_unit" (the harness's) or a metric of the workload (db::MetricSpecRow).
struct Objective {
  std::string name;
  std::string unit;
  bool minimize = true;
};

/// The workload as recorded in the DB, or, for a DB written before workloads were recorded,
/// one named `name` with work unit "unit", no metrics and time_ms as its only objective.
db::WorkloadRow workload_or_default(const db::Repository& repo, const std::string& name);

/// Whether a figure name (as resolve_objective takes it) needs an energy reading: energy,
/// power and the energy-delay product.
bool is_energy_figure(const std::string& name);

/// The workload's front objectives (e.g. time_ms and aepe) with units and directions.
std::vector<Objective> objectives_of(const db::WorkloadRow& workload);

/// The workload's front objectives for inputs whose figures `measured` tells (true = the
/// inputs give it): each front objective m they do not give is replaced by ref_<m> where the
/// workload has that metric (MetricSpec: the error against a reference output stands in for
/// the error against the ground truth, e.g. ref_aepe for aepe on footage), else kept.
std::vector<std::string> front_objective_names(
    const db::WorkloadRow& workload, const std::function<bool(const std::string&)>& measured);

/// objectives_of(workload) for the configs of one dataset: front_objective_names with a
/// figure measured when some config of `measured` has a finite value of it.
std::vector<Objective> objectives_of(const db::WorkloadRow& workload,
                                     const std::vector<db::MeasuredConfig>& measured);

/// Resolves a user's objective name: "time" -> time_ms, "energy" -> energy_mj (mJ per
/// execution), "power" -> power_w (mean power over the energy windows), "edp" -> edp_mj_ms
/// (the energy-delay product, energy_mj x time_ms; Gonzalez and Horowitz, "Energy
/// dissipation in general purpose microprocessors", IEEE JSSC 31(9), 1996), or a metric of
/// the workload. Throws std::invalid_argument naming the value and the allowed names.
Objective resolve_objective(const db::WorkloadRow& workload, const std::string& name);

/// The value of o for mc, oriented for minimisation (negated when o maximises); NaN when
/// the measurement lacks the figure.
double oriented_value(const db::MeasuredConfig& mc, const Objective& o);

/// The Pareto front (select/pareto.hpp) of `measured` over `objectives`, sorted by the first
/// objective, then the next. Configs lacking a figure (NaN) are never on it.
std::vector<db::MeasuredConfig> pareto_configs(const std::vector<db::MeasuredConfig>& measured,
                                               const std::vector<Objective>& objectives);

/// An upper bound on a figure of a config ("time_ms", "energy_mj" or a workload metric, by
/// the names of resolve_objective: "time" and "energy" are accepted): value <= max.
struct Constraint {
  std::string name;
  double max = 0;
};

/// The configs of measured whose every constrained figure is <= its bound (a config lacking
/// the figure, NaN, does not satisfy it), in their order. Throws std::invalid_argument for
/// a constraint on an unknown figure (resolve_objective's message).
std::vector<db::MeasuredConfig> satisfying(const std::vector<db::MeasuredConfig>& measured,
                                           const std::vector<Constraint>& constraints,
                                           const db::WorkloadRow& workload);

/// The best config for `objective`: among the Pareto front over `objective` and the other
/// front objectives (time_ms excluded unless it is the objective), the one with the best
/// objective value; ties broken by the front objectives in order, then measurement id.
/// All configs must be of one dataset. Throws std::invalid_argument when `measured` is
/// empty, spans several datasets, or no config has a finite value of the objective.
db::MeasuredConfig select_config(const std::vector<db::MeasuredConfig>& measured,
                                 const Objective& objective, const std::vector<Objective>& front);

}  // namespace flowtune
