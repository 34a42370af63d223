#include "reports/pareto_table.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "reports/sections/parts.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {
namespace {

std::string pad(const std::string& s, std::size_t width, bool right) {
  if (s.size() >= width) return s;
  const std::string fill(width - s.size(), ' ');
  return right ? fill + s : s + fill;
}

}  // namespace

std::string format_pareto_table(const std::vector<db::MeasuredConfig>& front) {
  const std::set<std::string> params = sections::shown_params(front);
  std::set<std::string> metric_names;
  for (const auto& mc : front)
    for (const auto& kv : mc.measurement.metrics) metric_names.insert(kv.first);

  std::vector<std::string> header = {"config",  "params",    "time ms",
                                     "ns/unit", "energy mJ", "power W"};
  for (const std::string& m : metric_names) header.push_back(m);
  std::vector<std::vector<std::string>> rows;
  for (const db::MeasuredConfig& mc : front) {
    const db::MeasurementRow& m = mc.measurement;
    std::string p;
    for (const std::string& name : params)
      if (const auto it = mc.config.params.find(name); it != mc.config.params.end())
        p += (p.empty() ? "" : " ") + name + "=" + detail::shortest_double(it->second);
    std::vector<std::string> row = {mc.config.label,
                                    p,
                                    detail::fixed(m.time_ms_median, 3),
                                    detail::fixed(m.ns_per_unit, 4),
                                    detail::fixed(m.energy_mj, 3),
                                    detail::fixed(m.power_w, 1)};
    for (const std::string& name : metric_names) row.push_back(detail::fixed(m.metric(name), 4));
    rows.push_back(std::move(row));
  }
  std::vector<std::size_t> width(header.size());
  for (std::size_t k = 0; k < header.size(); ++k) {
    width[k] = header[k].size();
    for (const auto& r : rows) width[k] = std::max(width[k], r[k].size());
  }
  std::string out;
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t k = 0; k < cells.size(); ++k)
      out += (k ? "  " : "") + pad(cells[k], width[k], k >= 2);
    out += "\n";
  };
  line(header);
  std::size_t total = 0;
  for (std::size_t w : width) total += w + 2;
  out += std::string(total - 2, '-') + "\n";
  if (front.empty()) return out + "(no configs)\n";
  for (const auto& r : rows) line(r);
  return out;
}

}  // namespace flowtune::reports
