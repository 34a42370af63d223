// Accuracy measured once and reused: the workload's metrics of a point depend on its
// algorithm parameters, its precision and its inputs, not on the board, the variant or the
// tunables (the numerics contract, ../shared/DESIGN.md: every scheme is a schedule of the
// same math). A table of those metrics from any store (another GPU, the host, a CI run) lets
// a tuning run on a slow board skip, without timing them, the points whose accuracy already
// breaks the request's constraints, and checks the table against what the board measures.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace flowtune {

/// The metrics recorded for one accuracy key (workload, precision, parameters) on one
/// dataset: per metric the lowest and highest value over the rows that have it (equal where
/// the schedules agree bit for bit), the number of rows and the boards they came from.
struct AccuracyEntry {
  std::map<std::string, double> lo, hi;
  std::size_t rows = 0;
  std::set<std::string> boards;
};

/// Accuracy entries by key, for one workload and dataset.
class AccuracyTable {
 public:
  /// The accuracy key of a point: `<workload> <precision> <params_json>` (db/rows.hpp
  /// params_json: sorted keys, the canonical number text), e.g.
  /// `tvl1 f16 {"epsilon":0,"iterations":10,...}`. Variant, tunables, clock and board are
  /// not part of it.
  static std::string key_of(const db::ConfigRow& config);

  /// Adds a measured row (its metrics, NaN ones skipped) under its config's key.
  void add(const db::MeasuredConfig& mc);
  /// The entry of config's key, or nullptr.
  const AccuracyEntry* find(const db::ConfigRow& config) const;
  std::size_t size() const { return entries_.size(); }
  /// Boards the rows came from, sorted.
  std::set<std::string> boards() const;

  /// True when the table shows that config breaks a constraint on a metric: for some
  /// (figure, max) of constraints whose figure the entry holds, (lo - max) / max(|max|,
  /// 1e-12) > tolerance (the same relative slack as the run's constraint rule,
  /// tuner/constraint_domination.hpp, with the entry's most favourable value). Constraints
  /// on figures the table does not hold (time, energy) never decide. *slack, when given,
  /// gets one value per constraint: that slack, or NaN where the entry lacks the figure.
  bool known_infeasible(const db::ConfigRow& config,
                        const std::vector<std::pair<Objective, double>>& constraints,
                        double tolerance, std::vector<double>* slack = nullptr) const;

 private:
  std::map<std::string, AccuracyEntry> entries_;
};

/// The accuracy table of workload on dataset from every board of repo (db::ResultStore
/// measured: full-fidelity measurements only; screens are stored under another dataset).
/// Throws std::runtime_error naming `label` (the store's path) and the datasets it holds when
/// it has no measurement of workload on dataset.
AccuracyTable load_accuracy_table(const db::Repository& repo, const std::string& label,
                                  const std::string& workload, const std::string& dataset);

/// How far a set of measurements agrees with the table (the board's re-check of reused
/// accuracy): the rows whose key the table holds, and per metric the largest relative
/// difference |value - nearest of [lo, hi]| / max(|value|, 1e-12) over them (0 = within the
/// table's own range everywhere).
struct AccuracyAgreement {
  std::size_t rows = 0, rows_with_key = 0;
  std::map<std::string, double> max_relative_difference;
};
AccuracyAgreement accuracy_agreement(const AccuracyTable& table,
                                     const std::vector<db::MeasuredConfig>& measured);

/// The default tolerance of AccuracyTable::known_infeasible (TuneOptions, `--accuracy-from`):
/// 1% relative, 5x the largest spread between the rows of one key seen in the H200 stores
/// (identical AEPE for f32 and f16 in the 2026-12-03 main job, within 0.12% for mixed, 0.19%
/// for f16 in the 2026-11-24 recording; results/accuracy-reuse/h200/2026-12-06).
inline constexpr double kAccuracyTolerance = 0.01;

}  // namespace flowtune
