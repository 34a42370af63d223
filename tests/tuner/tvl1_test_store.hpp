// A tvl1 store written by the tests with known values: the workload's row and its measurements.
#pragma once

#include <cstdint>
#include <string>

#include "db/repository.hpp"

namespace flowtune::testing_store {

/// Records a tvl1 workload whose front is (time_ms, aepe), AEPE in px, and opens a run of
/// `board` on dataset "d". Returns the run's id.
inline std::int64_t begin_tvl1_run(db::Repository& repo, const std::string& board = "host") {
  db::WorkloadRow w;
  w.name = "tvl1";
  w.work_unit = "px";
  w.front_objectives = {"time_ms", "aepe"};
  w.metrics = {{"aepe", "px", "endpoint error", true}};
  repo.record_workload(w);
  return repo.begin_run({board, "tvl1", "tune", "abc", "ci", "", "", "", "", "d"});
}

/// A measurement of run `run` on dataset "d": time_ms as median, min and max of 3 repeats
/// (ns_per_unit = time_ms) and the metric aepe.
inline db::MeasurementRow tvl1_measurement(std::int64_t run, double time_ms, double aepe) {
  db::MeasurementRow m;
  m.run_id = run;
  m.dataset = "d";
  m.time_ms_median = m.time_ms_min = m.time_ms_max = time_ms;
  m.n_repeats = 3;
  m.ns_per_unit = time_ms;
  m.metrics = {{"aepe", aepe}};
  return m;
}

}  // namespace flowtune::testing_store
