#include "reports/pareto_table.hpp"

#include <algorithm>
#include <cstdio>

#include "reports/text_format.hpp"

namespace flowtune::reports {

std::string format_pareto_table(const std::vector<db::MeasuredConfig>& front) {
  std::size_t label_width = 5;
  for (const db::MeasuredConfig& mc : front) {
    label_width = std::max(label_width, mc.config.label.size());
  }
  const int lw = static_cast<int>(label_width);
  char line[512];
  std::string out;
  std::snprintf(line, sizeof line, "%-*s  %5s  %10s  %8s  %10s  %8s  %8s\n", lw, "config", "iters", "time ms",
                "ns/px", "energy mJ", "AEPE", "AAE deg");
  out += line;
  out += std::string(label_width + 2 + 5 + 2 + 10 + 2 + 8 + 2 + 10 + 2 + 8 + 2 + 8, '-') + "\n";
  if (front.empty()) return out + "(no configs)\n";
  for (const db::MeasuredConfig& mc : front) {
    const db::MeasurementRow& m = mc.measurement;
    out += mc.config.label;
    out += std::string(label_width - mc.config.label.size(), ' ');
    std::snprintf(line, sizeof line, "  %5d  %10s  %8s  %10s  %8s  %8s\n", mc.config.iterations,
                  detail::fixed(m.time_ms_median, 3).c_str(), detail::fixed(m.ns_per_px, 2).c_str(),
                  detail::fixed(m.energy_mj, 3).c_str(), detail::fixed(m.aepe, 4).c_str(),
                  detail::fixed(m.aae_deg, 3).c_str());
    out += line;
  }
  return out;
}

}  // namespace flowtune::reports
