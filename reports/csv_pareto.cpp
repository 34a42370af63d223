// pareto.csv: the configs of every front of the reported board, by rank.
#include "reports/csv_files.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

// One row per config of `front` (rank from 1), each with its own workload.
std::string front_rows(const std::string& name, const std::string& dataset,
                       const std::vector<db::MeasuredConfig>& front) {
  std::string out;
  for (std::size_t r = 0; r < front.size(); ++r) {
    const db::MeasuredConfig& mc = front[r];
    const db::MeasurementRow& m = mc.measurement;
    out += detail::csv_row({name, dataset, mc.config.workload, std::to_string(r + 1),
                            std::to_string(mc.measurement_id), mc.config.key, mc.config.label,
                            detail::shortest_double(m.time_ms_median),
                            detail::shortest_double(m.ns_per_unit),
                            detail::optional_double(m.energy_mj), db::params_json(m.metrics)});
  }
  return out;
}

}  // namespace

std::string pareto_csv(const ReportModel& model) {
  std::string out =
      detail::csv_row({"front", "dataset", "workload", "rank", "measurement_id", "config_key",
                       "label", "time_ms_median", "ns_per_unit", "energy_mj", "metrics_json"});
  for (const DatasetFront& f : model.fronts) {
    std::string name;
    for (const Objective& o : f.objectives) name += (name.empty() ? "" : "_") + o.name;
    out += front_rows(name, f.dataset, f.front);
    out += front_rows("time_energy", f.dataset, f.time_energy);
    std::string three;
    for (const Objective& o : f.three_objectives) three += (three.empty() ? "" : "_") + o.name;
    out += front_rows(three, f.dataset, f.three_objective_front);
  }
  for (const CrossFront& f : model.cross) {
    std::string name = "cross";
    for (const Objective& o : f.objectives) name += "_" + o.name;
    out += front_rows(name, f.dataset, f.front);
  }
  return out;
}

}  // namespace flowtune::reports
