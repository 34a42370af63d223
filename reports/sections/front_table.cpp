// The table of one Pareto front, in Markdown and in HTML.
#include <map>
#include <optional>
#include <sstream>

#include "reports/item_images.hpp"
#include "reports/sections/parts.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports::sections {

namespace {

using detail::fixed;
using detail::shortest_double;

std::string kv_text(const std::map<std::string, int>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return out;
}

}  // namespace

std::string front_table_md(const std::vector<db::MeasuredConfig>& front, const db::WorkloadRow& w) {
  using detail::md_cell;
  const std::set<std::string> varying = shown_params(front);
  std::ostringstream s;
  s << "| label | params | time ms | ns/" << md_cell(w.work_unit) << " | energy mJ";
  for (const auto& m : w.metrics)
    s << " | " << md_cell(m.name) << (m.unit.empty() ? "" : " " + md_cell(m.unit));
  s << " |\n|---|---|---:|---:|---:";
  for (std::size_t k = 0; k < w.metrics.size(); ++k) s << "|---:";
  s << "|\n";
  for (const auto& mc : front) {
    const db::MeasurementRow& m = mc.measurement;
    std::string p;
    for (const std::string& name : varying)
      p += (p.empty() ? "" : " ") + name + "=" + shortest_double(mc.config.params.at(name));
    s << "| " << md_cell(mc.config.label) << " | " << md_cell(p) << " | "
      << fixed(m.time_ms_median, 3) << " | " << fixed(m.ns_per_unit, 4) << " | "
      << fixed(m.energy_mj, 3);
    for (const auto& spec : w.metrics) s << " | " << fixed(m.metric(spec.name), 4);
    s << " |\n";
  }
  return s.str();
}

std::string front_table_html(const DatasetFront& d) {
  using detail::xml_escape;
  const std::set<std::string> varying = varying_params(d.measured);
  std::ostringstream s;
  s << "<table class=\"front\"><thead><tr><th>label</th><th>variant</th><th>precision</th>"
       "<th>tunables</th><th>params</th><th>time ms</th>";
  if (d.has_energy) s << "<th>energy mJ</th>";
  for (const auto& m : d.workload.metrics)
    s << "<th>" << xml_escape(m.name + (m.unit.empty() ? "" : " " + m.unit)) << "</th>";
  s << "<th>per item</th>";
  const db::ItemImage* pictured = nullptr;
  for (const auto& mc : d.front)
    if (!pictured && !mc.measurement.images.empty()) pictured = &mc.measurement.images.front();
  if (pictured) s << "<th>flow (one item)</th>";
  s << "</tr></thead><tbody>\n";
  for (const auto& mc : d.front) {
    std::string params;
    for (const std::string& name : varying) {
      const auto it = mc.config.params.find(name);
      if (it != mc.config.params.end())
        params += (params.empty() ? "" : " ") + name + "=" + shortest_double(it->second);
    }
    const db::MeasurementRow& m = mc.measurement;
    s << "<tr><td>" << xml_escape(mc.config.label) << "</td><td>" << xml_escape(mc.config.variant)
      << "</td><td>" << xml_escape(mc.config.precision) << "</td><td>"
      << xml_escape(kv_text(mc.config.tunables)) << "</td><td>" << xml_escape(params)
      << "</td><td class=\"num\">" << fixed(m.time_ms_median, 3) << "</td>";
    if (d.has_energy) s << "<td class=\"num\">" << fixed(m.energy_mj, 3) << "</td>";
    for (const auto& spec : d.workload.metrics)
      s << "<td class=\"num\">" << fixed(m.metric(spec.name), 4) << "</td>";
    s << "<td>" << per_item_html(mc, d.workload) << "</td>";
    if (pictured) s << "<td>" << item_images_html(mc) << "</td>";
    s << "</tr>\n";
  }
  s << "</tbody></table>\n";
  if (pictured) {
    for (const auto& mc : d.front)
      if (!mc.measurement.images.empty()) {
        s << "<p class=\"legend\">" << xml_escape(item_images_legend(mc.measurement.images))
          << "</p>\n";
        break;
      }
  }
  return s.str();
}

std::string per_item_md(const std::vector<db::MeasuredConfig>& front, const db::WorkloadRow& w) {
  using detail::md_cell;
  bool any = false;
  for (const auto& mc : front) any = any || !mc.measurement.items.empty();
  if (!any) return "";
  std::ostringstream s;
  s << "\n#### Per item (the front's configs)\n\n| label | item | time ms";
  for (const auto& m : w.metrics)
    s << " | " << md_cell(m.name) << (m.unit.empty() ? "" : " " + md_cell(m.unit));
  s << " |\n|---|---|---:";
  for (std::size_t k = 0; k < w.metrics.size(); ++k) s << "|---:";
  s << "|\n";
  for (const auto& mc : front) {
    for (const db::ItemResult& item : mc.measurement.items) {
      s << "| " << md_cell(mc.config.label) << " | " << md_cell(item.item) << " | "
        << fixed(item.time_ms, 3);
      for (const auto& spec : w.metrics) {
        const auto it = item.metrics.find(spec.name);
        s << " | " << fixed(it == item.metrics.end() ? std::optional<double>() : it->second, 4);
      }
      s << " |\n";
    }
  }
  return s.str();
}

std::string per_item_html(const db::MeasuredConfig& mc, const db::WorkloadRow& w) {
  using detail::xml_escape;
  if (mc.measurement.items.empty()) return "";
  std::ostringstream s;
  s << "<details class=\"items\"><summary>" << mc.measurement.items.size()
    << " items</summary><table><thead><tr><th>item</th><th>time ms</th>";
  for (const auto& m : w.metrics)
    s << "<th>" << xml_escape(m.name + (m.unit.empty() ? "" : " " + m.unit)) << "</th>";
  s << "</tr></thead><tbody>";
  for (const db::ItemResult& item : mc.measurement.items) {
    s << "<tr class=\"item\"><td>" << xml_escape(item.item) << "</td><td class=\"num\">"
      << fixed(item.time_ms, 3) << "</td>";
    for (const auto& spec : w.metrics) {
      const auto it = item.metrics.find(spec.name);
      s << "<td class=\"num\">"
        << fixed(it == item.metrics.end() ? std::optional<double>() : it->second, 4) << "</td>";
    }
    s << "</tr>";
  }
  s << "</tbody></table></details>";
  return s.str();
}

}  // namespace flowtune::reports::sections
