// Small helpers shared by the report sections.
#include "reports/sections/parts.hpp"

#include <map>

#include "reports/text_format.hpp"

namespace flowtune::reports::sections {

std::string axes_text(const std::vector<Objective>& objectives) {
  std::string axes;
  for (const Objective& o : objectives) axes += (axes.empty() ? "" : " vs ") + o.name;
  return axes;
}

std::set<std::string> varying_params(const std::vector<db::MeasuredConfig>& configs) {
  std::map<std::string, std::set<double>> values;
  for (const auto& mc : configs)
    for (const auto& [name, v] : mc.config.params) values[name].insert(v);
  std::set<std::string> out;
  for (const auto& [name, set] : values)
    if (set.size() > 1) out.insert(name);
  return out;
}

std::set<std::string> shown_params(const std::vector<db::MeasuredConfig>& configs) {
  std::set<std::string> out = varying_params(configs);
  if (!out.empty() || configs.empty()) return out;
  for (const auto& kv : configs.front().config.params) out.insert(kv.first);
  return out;
}

std::vector<std::string> distinct_labels(const std::vector<db::MeasuredConfig>& configs) {
  std::map<std::string, std::vector<std::size_t>> by_label;
  for (std::size_t i = 0; i < configs.size(); ++i) by_label[configs[i].config.label].push_back(i);
  std::vector<std::string> out(configs.size());
  for (const auto& [label, rows] : by_label) {
    std::vector<db::MeasuredConfig> group;
    for (std::size_t i : rows) group.push_back(configs[i]);
    const std::set<std::string> differ =
        rows.size() > 1 ? varying_params(group) : std::set<std::string>();
    std::set<int> clocks;
    for (const auto& mc : group) clocks.insert(mc.config.clock_mhz);
    for (std::size_t i : rows) {
      std::string text = label;
      for (const std::string& name : differ) {
        const auto it = configs[i].config.params.find(name);
        text += " " + name + "=" +
                (it == configs[i].config.params.end() ? std::string("-")
                                                      : detail::shortest_double(it->second));
      }
      if (clocks.size() > 1) text += " clock=" + std::to_string(configs[i].config.clock_mhz);
      out[i] = text;
    }
  }
  // Configs that differ in nothing shown (the same label and parameters): their ids.
  std::map<std::string, int> seen;
  for (const std::string& t : out) ++seen[t];
  for (std::size_t i = 0; i < out.size(); ++i)
    if (seen[out[i]] > 1) out[i] += " #" + std::to_string(configs[i].measurement_id);
  return out;
}

std::string distinct_label(const db::MeasuredConfig& mc,
                           const std::vector<db::MeasuredConfig>& within) {
  for (std::size_t i = 0; i < within.size(); ++i)
    if (within[i].measurement_id == mc.measurement_id) return distinct_labels(within)[i];
  return mc.config.label;
}

}  // namespace flowtune::reports::sections
