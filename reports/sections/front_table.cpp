// The table of one Pareto front, in Markdown and in HTML.
#include <algorithm>
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
    for (const std::string& name : varying) {
      // A row left without the parameter holds its absent value (a canonical config leaves
      // it out): "-", as distinct_labels writes it.
      const auto it = mc.config.params.find(name);
      p += (p.empty() ? "" : " ") + name + "=" +
           (it == mc.config.params.end() ? std::string("-") : shortest_double(it->second));
    }
    s << "| " << md_cell(mc.config.label) << " | " << md_cell(p) << " | "
      << fixed(m.time_ms_median, 3) << " | " << fixed(m.ns_per_unit, 4) << " | "
      << fixed(m.energy_mj, 3);
    for (const auto& spec : w.metrics) s << " | " << fixed(m.metric(spec.name), 4);
    s << " |\n";
  }
  return s.str();
}

std::string front_table_html(const DatasetFront& d, std::int64_t pick_id) {
  return front_table_html(d, d.front, pick_id);
}

std::string front_table_html(const DatasetFront& d, const std::vector<db::MeasuredConfig>& front,
                             std::int64_t pick_id) {
  using detail::xml_escape;
  const std::set<std::string> varying = varying_params(d.measured);
  const std::vector<std::string> labels = distinct_labels(d.measured);
  std::map<std::int64_t, std::string> label_of;
  for (std::size_t i = 0; i < d.measured.size(); ++i)
    label_of[d.measured[i].measurement_id] = labels[i];
  // The pick first when it is off the front (e.g. the least energy of a time-accuracy front).
  std::vector<db::MeasuredConfig> rows = front;
  if (pick_id && std::none_of(rows.begin(), rows.end(), [&](const db::MeasuredConfig& mc) {
        return mc.measurement_id == pick_id;
      }))
    for (const auto& mc : d.measured)
      if (mc.measurement_id == pick_id) rows.insert(rows.begin(), mc);
  std::ostringstream s;
  s << "<table class=\"front\"><thead><tr><th>label</th><th>variant</th><th>precision</th>"
       "<th>tunables</th><th>params</th><th>time ms</th>";
  if (d.has_energy) s << "<th>energy mJ</th><th>power W</th>";
  for (const auto& m : d.workload.metrics)
    s << "<th>" << xml_escape(m.name + (m.unit.empty() ? "" : " " + m.unit)) << "</th>";
  s << "<th>per item</th>";
  const db::ItemImage* pictured = nullptr;
  for (const auto& mc : rows)
    if (!pictured && !mc.measurement.images.empty()) pictured = &mc.measurement.images.front();
  if (pictured) s << "<th>flow (one item)</th>";
  s << "</tr></thead><tbody>\n";
  for (const auto& mc : rows) {
    std::string params;
    for (const std::string& name : varying) {
      const auto it = mc.config.params.find(name);
      if (it != mc.config.params.end())
        params += (params.empty() ? "" : " ") + name + "=" + shortest_double(it->second);
    }
    const db::MeasurementRow& m = mc.measurement;
    const bool pick = mc.measurement_id == pick_id;
    s << "<tr" << (pick ? " class=\"pick\"" : "") << " data-id=\"" << mc.measurement_id
      << "\"><td class=\"label\">" << (pick ? "<span class=\"badge\">pick</span> " : "")
      << "<span class=\"row-label\">"
      << xml_escape(label_of.count(mc.measurement_id) ? label_of[mc.measurement_id]
                                                      : mc.config.label)
      << "</span></td><td>" << xml_escape(mc.config.variant) << "</td><td>"
      << xml_escape(mc.config.precision) << "</td><td>" << xml_escape(kv_text(mc.config.tunables))
      << "</td><td>" << xml_escape(params) << "</td><td class=\"num\">"
      << fixed(m.time_ms_median, 3) << "</td>";
    if (d.has_energy)
      s << "<td class=\"num\">" << fixed(m.energy_mj, 3) << "</td><td class=\"num\">"
        << fixed(m.power_w, 1) << "</td>";
    for (const auto& spec : d.workload.metrics)
      s << "<td class=\"num\">" << fixed(m.metric(spec.name), 4) << "</td>";
    s << "<td>" << per_item_html(mc, d.workload) << "</td>";
    if (pictured) s << "<td>" << item_images_html(mc) << "</td>";
    s << "</tr>\n";
  }
  s << "</tbody></table>\n";
  if (pictured) {
    for (const auto& mc : rows)
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
