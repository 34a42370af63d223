// Small helpers shared by the report sections.
#include "reports/sections/parts.hpp"

#include <map>

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

}  // namespace flowtune::reports::sections
