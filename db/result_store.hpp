// The measurements of a store and what they answer (tables measurements, metrics,
// item_results, item_images and the configs they measure).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "db/rows.hpp"

namespace flowtune::db {

class Store;

/// The measurements part of a Repository, over the store it shares with the other parts.
/// Every call throws DbError "<store>: <problem>" when the store fails.
class ResultStore {
 public:
  explicit ResultStore(Store& store) : store_(&store) {}

  /// True iff (board, config_key) has a measurement on exactly this dataset.
  bool is_measured(const std::string& board, const std::string& config_key,
                   const std::string& dataset) const;
  /// Stores the config (first write wins for its descriptive columns), the measurement,
  /// its metrics, its per-item results and its pictures (m.images) in one transaction. Throws
  /// DbError if the config already has a measurement on m.dataset (each config is measured once per
  /// dataset), if the run id is unknown, or if a time is not finite.
  void record_measurement(const ConfigRow& config, const MeasurementRow& m);

  /// Sets the energy figures of the measurement of (board, config_key) on dataset, measured
  /// afterwards with the sensor's window (tuner/front_energy.hpp): energy_mj per execution,
  /// nj_per_unit per work unit, power_w the mean power. One statement, committed on return.
  /// Returns false when there is no such measurement (nothing is written). Throws DbError for
  /// a figure that is not finite or is negative.
  bool record_energy(const std::string& board, const std::string& config_key,
                     const std::string& dataset, double energy_mj, double nj_per_unit,
                     double power_w);

  /// Measured configs of board in measurement order; dataset "" = all datasets.
  std::vector<MeasuredConfig> measured(const std::string& board,
                                       const std::string& dataset = "") const;
  /// The measurement of (board, config_key) on dataset, or nullopt.
  std::optional<MeasuredConfig> measurement_of(const std::string& board,
                                               const std::string& config_key,
                                               const std::string& dataset) const;
  /// The pictures (table item_images) of every measurement of board that has some, by
  /// measurement id, ordered by item and kind; empty for a file older than schema v4 opened
  /// read-only. Throws DbError for unreadable rows.
  std::map<std::int64_t, std::vector<ItemImage>> item_images(const std::string& board) const;
  /// Boards that have measurements, sorted.
  std::vector<std::string> boards() const;
  /// Datasets measured on board, sorted by number of measurements (most first), then name.
  std::vector<std::string> datasets(const std::string& board) const;

 private:
  // Measurements of board; dataset "" = all, config_key "" = all.
  std::vector<MeasuredConfig> measured_where(const std::string& board, const std::string& dataset,
                                             const std::string& config_key) const;

  Store* store_;
};

}  // namespace flowtune::db
