// Cross-algorithm fronts section (report.md): one part per front of model.cross.
#include <sstream>

#include "reports/front_svgs.hpp"
#include "reports/sections/parts.hpp"
#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace sections {

std::string cross_front_md(const CrossFront& f, const std::string& svg_file) {
  using detail::md_cell;
  std::ostringstream s;
  std::string workloads;
  for (std::size_t i = 0; i < f.workloads.size(); ++i)
    workloads += (i ? ", " : "") + md_cell(f.workloads[i]) + " " + std::to_string(f.on_front[i]);
  s << "\n## Cross-algorithm front, dataset " << md_cell(f.dataset) << " (" << f.measured.size()
    << " configs of " << f.workloads.size() << " workloads)\n\n"
    << "![cross-algorithm front, " << axes_text(f.objectives) << "](" << svg_file << ")\n\n"
    << "Configs on the front per workload: " << workloads << ".\n\n"
    << "| workload | label | params | time ms";
  for (const Objective& o : f.objectives)
    if (o.name != "time_ms")
      s << " | " << md_cell(o.name) << (o.unit.empty() ? "" : " " + md_cell(o.unit));
  s << " |\n|---|---|---|---:";
  for (const Objective& o : f.objectives)
    if (o.name != "time_ms") s << "|---:";
  s << "|\n";
  for (const auto& mc : f.front) {
    s << "| " << md_cell(mc.config.workload) << " | " << md_cell(mc.config.label) << " | "
      << md_cell(db::params_json(mc.config.params)) << " | "
      << detail::fixed(mc.measurement.time_ms_median, 3);
    for (const Objective& o : f.objectives)
      if (o.name != "time_ms") s << " | " << detail::fixed(mc.value(o.name), 4);
    s << " |\n";
  }
  return s.str();
}

}  // namespace sections

namespace {

std::string cross_fronts_md(const ReportModel& model) {
  std::string out;
  for (std::size_t k = 0; k < model.cross.size(); ++k)
    out += sections::cross_front_md(model.cross[k], cross_svg_name(k));
  return out;
}

}  // namespace

Section cross_fronts_section() {
  return {"cross", &cross_fronts_md, nullptr};
}

}  // namespace flowtune::reports
