// "Best config per objective" of one front (report.md).
#include <sstream>
#include <stdexcept>

#include "reports/sections/parts.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports::sections {

std::string best_config_md(const DatasetFront& f) {
  using detail::fixed;
  using detail::md_cell;
  std::ostringstream s;
  s << "\n### Best config per objective\n\n| objective | label | time ms | energy mJ";
  for (const auto& m : f.workload.metrics) s << " | " << md_cell(m.name);
  s << " |\n|---|---|---:|---:";
  for (std::size_t k = 0; k < f.workload.metrics.size(); ++k) s << "|---:";
  s << "|\n";
  std::vector<Objective> objectives = f.objectives;
  if (f.has_energy) objectives.push_back(resolve_objective(f.workload, "energy"));
  for (const Objective& o : objectives) {
    try {
      const db::MeasuredConfig best = select_config(f.measured, o, f.objectives);
      const db::MeasurementRow& m = best.measurement;
      s << "| " << md_cell(o.name) << " | " << md_cell(best.config.label) << " | "
        << fixed(m.time_ms_median, 3) << " | " << fixed(m.energy_mj, 3);
      for (const auto& spec : f.workload.metrics) s << " | " << fixed(m.metric(spec.name), 4);
      s << " |\n";
    } catch (const std::invalid_argument& e) {
      s << "| " << md_cell(o.name) << " | n/a (" << md_cell(e.what()) << ") | | |\n";
    }
  }
  return s.str();
}

}  // namespace flowtune::reports::sections
