// The JSON embedded in index.html for its plots.
#include "reports/html_data.hpp"

#include <nlohmann/json.hpp>
#include <set>

#include "reports/sections/parts.hpp"
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
  const std::vector<std::string> labels = sections::distinct_labels(v.data.measured);
  std::size_t row = 0;
  for (const auto& mc : v.data.measured) {
    json values = json::object();
    for (const std::string& f : figures) values[f] = mc.value(f);  // NaN -> null
    points.push_back({{"id", mc.measurement_id},
                      {"label", labels[row++]},
                      {"variant", mc.config.variant},
                      {"precision", mc.config.precision},
                      {"tunables", mc.config.tunables},
                      {"params", mc.config.params},
                      {"clock_mhz", mc.config.clock_mhz},
                      {"v", values}});
  }
  return points;
}

json dataset_json(const DatasetView& v, std::int64_t pick_id) {
  json plots = json::array();
  for (const Plot& p : v.plots)
    plots.push_back({{"x", objective_json(p.x)}, {"y", objective_json(p.y)}, {"front", p.front}});
  return {{"dataset", v.data.dataset},
          {"workload", v.data.workload.name},
          {"points", points_json(v)},
          {"plots", plots},
          {"pick", pick_id ? json(pick_id) : json(nullptr)}};
}

}  // namespace

std::string html_data_json(const ReportModel& model) {
  json data = {{"board", model.board}, {"boards", json::array()}};
  for (const BoardModel& b : model.boards) {
    json datasets = json::array();
    for (std::size_t i = 0; i < b.views.size(); ++i)
      datasets.push_back(dataset_json(
          b.views[i], b.answer.pick && b.answer.view == i ? b.answer.pick->measurement_id : 0));
    data["boards"].push_back({{"board", b.name}, {"datasets", datasets}});
  }
  // In the <script> block: no "</script" or "<!--" can appear once every '<' is \u003c
  // (valid JSON: '<' only occurs inside strings).
  return detail::replace_all_icase(data.dump(-1, ' ', false, json::error_handler_t::replace), "<",
                                   "\\u003c");
}

}  // namespace flowtune::reports
