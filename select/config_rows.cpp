#include "select/config_rows.hpp"

#include <exception>
#include <utility>

namespace flowtune {

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
  // A parameter at its absent value (ParamSpec::absent_value) is left out of the row and so
  // of its key: the config keeps the key it had before the parameter existed, and a run
  // resumes the rows of a DB written then. A parameter at any other value (its default
  // included, e.g. median_window 5) is written.
  const Workload* workload = nullptr;
  try {
    workload = &find_workload(config.workload);
  } catch (const std::exception&) {  // an unregistered workload: every parameter as given
  }
  if (workload) row.params = workload->without_absent_values(std::move(row.params));
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

}  // namespace flowtune
