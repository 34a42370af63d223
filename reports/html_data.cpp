// The JSON embedded in index.html for its plots.
#include "reports/html_data.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

using json = nlohmann::json;

json objective_json(const Objective& o) {
  return {{"name", o.name}, {"unit", o.unit}, {"minimize", o.minimize}};
}

// Every config of the dataset with the figures its plots need.
json points_json(const DatasetView& v) {
  std::set<std::string> figures;
  for (const Plot& p : v.plots) {
    figures.insert(p.x.name);
    figures.insert(p.y.name);
  }
  json points = json::array();
  for (const auto& mc : v.data.measured) {
    json values = json::object();
    for (const std::string& f : figures) values[f] = mc.value(f);  // NaN -> null
    points.push_back({{"id", mc.measurement_id},
                      {"label", mc.config.label},
                      {"variant", mc.config.variant},
                      {"precision", mc.config.precision},
                      {"tunables", mc.config.tunables},
                      {"params", mc.config.params},
                      {"clock_mhz", mc.config.clock_mhz},
                      {"v", values}});
  }
  return points;
}

json dataset_json(const DatasetView& v) {
  json plots = json::array();
  for (const Plot& p : v.plots)
    plots.push_back({{"x", objective_json(p.x)}, {"y", objective_json(p.y)}, {"front", p.front}});
  return {{"dataset", v.data.dataset},
          {"workload", v.data.workload.name},
          {"points", points_json(v)},
          {"plots", plots}};
}

}  // namespace

std::string html_data_json(const ReportModel& model) {
  json data = {{"board", model.board}, {"boards", json::array()}};
  for (const BoardModel& b : model.boards) {
    json datasets = json::array();
    for (const DatasetView& v : b.views) datasets.push_back(dataset_json(v));
    data["boards"].push_back({{"board", b.name}, {"datasets", datasets}});
  }
  // In the <script> block: no "</script" or "<!--" can appear once every '<' is \u003c
  // (valid JSON: '<' only occurs inside strings).
  return detail::replace_all_icase(data.dump(-1, ' ', false, json::error_handler_t::replace), "<",
                                   "\\u003c");
}

}  // namespace flowtune::reports
