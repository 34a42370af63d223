// measurements.csv: every measured config of the reported board, per item too.
#include <set>

#include "reports/csv_files.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

using detail::append;
using detail::shortest_double;

// The item's time and each metric; "" where the measurement lacks the item or the metric.
std::vector<std::string> item_fields(const db::MeasurementRow& m, const std::string& item,
                                     const std::vector<std::string>& metrics) {
  const db::ItemResult* found = nullptr;
  for (const auto& r : m.items)
    if (r.item == item) found = &r;
  std::vector<std::string> out = {found ? shortest_double(found->time_ms) : ""};
  for (const std::string& name : metrics) {
    const auto it =
        found ? found->metrics.find(name) : std::map<std::string, double>::const_iterator{};
    out.push_back(found && it != found->metrics.end() ? shortest_double(it->second) : "");
  }
  return out;
}

std::vector<std::string> measurement_fields(const db::MeasurementRow& m) {
  return {shortest_double(m.time_ms_median),
          shortest_double(m.time_ms_min),
          shortest_double(m.time_ms_max),
          std::to_string(m.n_repeats),
          shortest_double(m.ns_per_unit),
          detail::optional_double(m.energy_mj),
          detail::optional_double(m.nj_per_unit),
          detail::optional_double(m.power_w),
          m.clock_mhz_observed ? std::to_string(*m.clock_mhz_observed) : ""};
}

}  // namespace

std::string measurements_csv(const ReportModel& model) {
  const std::vector<db::MeasuredConfig>& measured = model.reported().measured;
  std::set<std::int64_t> on_front;
  for (const DatasetFront& f : model.fronts)
    for (const auto& mc : f.front) on_front.insert(mc.measurement_id);
  std::vector<const db::ConfigRow*> configs;
  std::set<std::string> metric_set;
  std::vector<std::string> items;  // union over rows, first-seen order
  std::set<std::string> seen;
  for (const auto& mc : measured) {
    configs.push_back(&mc.config);
    for (const auto& kv : mc.measurement.metrics) metric_set.insert(kv.first);
    for (const auto& it : mc.measurement.items)
      if (seen.insert(it.item).second) items.push_back(it.item);
  }
  const std::vector<std::string> params = detail::param_names(configs);
  const std::vector<std::string> metrics(metric_set.begin(), metric_set.end());
  std::vector<std::string> header = {"measurement_id", "run_id", "measured_at", "dataset", "board"};
  append(header, detail::kConfigHeader);
  append(header, params);
  append(header, {"time_ms_median", "time_ms_min", "time_ms_max", "n_repeats", "ns_per_unit",
                  "energy_mj", "nj_per_unit", "power_w", "clock_mhz_observed"});
  append(header, metrics);
  append(header, {"resources_json", "on_front"});
  for (const std::string& item : items) {
    header.push_back("time_ms_" + item);
    for (const std::string& m : metrics) header.push_back(m + "_" + item);
  }
  std::string out = detail::csv_row(header);
  for (const auto& mc : measured) {
    const db::MeasurementRow& m = mc.measurement;
    std::vector<std::string> row = {std::to_string(mc.measurement_id), std::to_string(m.run_id),
                                    mc.measured_at, m.dataset, mc.config.board};
    append(row, detail::config_fields(mc.config, params));
    append(row, measurement_fields(m));
    for (const std::string& name : metrics) row.push_back(shortest_double(m.metric(name)));
    append(row, {m.resources_json, on_front.count(mc.measurement_id) ? "1" : "0"});
    for (const std::string& item : items) append(row, item_fields(m, item, metrics));
    out += detail::csv_row(row);
  }
  return out;
}

}  // namespace flowtune::reports
