// Fronts section: per dataset its Pareto fronts (Markdown per workload, HTML per dataset).
#include <sstream>

#include "reports/front_svgs.hpp"
#include "reports/sections/parts.hpp"
#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

using detail::md_cell;
using detail::xml_escape;

std::string workload_front_md(const DatasetFront& f, const std::string& svg_file) {
  const std::string axes = sections::axes_text(f.objectives);
  std::ostringstream s;
  s << "\n## Dataset " << md_cell(f.dataset) << " (workload " << md_cell(f.workload.name) << ", "
    << f.measured.size() << " measured configs)\n\n";
  if (f.objectives.size() >= 2) s << "![Pareto front, " << axes << "](" << svg_file << ")\n\n";
  s << "### Pareto front: " << axes << " (" << f.front.size() << " configs)\n\n"
    << sections::front_table_md(f.front, f.workload) << sections::per_item_md(f.front, f.workload)
    << sections::item_images_md(f.front);
  if (f.has_energy) {
    s << "\n### Pareto front: time vs energy (" << f.time_energy.size() << " configs)\n\n"
      << sections::front_table_md(f.time_energy, f.workload);
  }
  if (!f.three_objective_front.empty()) {
    s << "\n### Pareto front: " << sections::axes_text(f.three_objectives) << " ("
      << f.three_objective_front.size() << " configs, those with energy)\n\n"
      << sections::front_table_md(f.three_objective_front, f.workload);
  }
  s << sections::best_config_md(f) << sections::budget_md(f);
  return s.str();
}

std::string dataset_fronts_md(const ReportModel& model) {
  std::string out = model.fronts.empty() ? "\nNo measurements yet.\n" : "";
  const std::vector<std::string> svgs = front_svg_names(model);
  for (std::size_t i = 0; i < model.fronts.size(); ++i)
    out += workload_front_md(model.fronts[i], svgs[i]);
  return out;
}

std::string dataset_html(const DatasetView& v, std::size_t board_index, std::size_t index,
                         std::int64_t pick_id) {
  const DatasetFront& d = v.data;
  const std::string axes = sections::axes_text(d.objectives);
  std::ostringstream s;
  s << "<section class=\"dataset\" data-dataset=\"" << xml_escape(d.dataset)
    << "\" data-measured=\"" << d.measured.size() << "\">\n<h3>Dataset " << xml_escape(d.dataset)
    << " (workload " << xml_escape(d.workload.name) << ", " << d.measured.size()
    << " measured configs)</h3>\n"
    << "<div class=\"plots\" id=\"plots-" << board_index << "-" << index << "\">";
  if (v.plots.empty())
    s << "<p>One objective (" << xml_escape(axes) << ") and no energy: nothing to plot.</p>";
  s << "</div>\n<p class=\"caption\">Each marker is a measured config: its colour is its "
       "variant, its shape its precision. Black step line and ringed markers: the Pareto front "
       "of the two plotted objectives over all configs (filters hide points, they do not "
       "recompute it). Red star: the pick of the run's request. Hover a point for its "
       "config.</p>\n";
  if (!d.has_energy)
    s << "<p class=\"energy-note\">Energy: not measured on this dataset (the DB holds no "
         "sensor reading: no sensor on this board, or the run stopped before the front's "
         "energy pass).</p>\n";
  s << "<h4>Pareto front: " << xml_escape(axes) << " (" << d.front.size() << " configs)</h4>\n"
    << sections::front_table_html(d, pick_id);
  if (!d.three_objective_front.empty())
    s << "<h4 class=\"three-objectives\">Pareto front: "
      << xml_escape(sections::axes_text(d.three_objectives)) << " ("
      << d.three_objective_front.size() << " configs, those with energy)</h4>\n"
      << sections::front_table_html(d, d.three_objective_front, pick_id);
  s << "</section>\n";
  return s.str();
}

std::string dataset_fronts_html(const BoardModel& b, std::size_t board_index) {
  std::string out;
  for (std::size_t i = 0; i < b.views.size(); ++i) {
    const bool answered = b.answer.pick && b.answer.view == i;
    out += dataset_html(b.views[i], board_index, i, answered ? b.answer.pick->measurement_id : 0);
  }
  return out;
}

}  // namespace

Section dataset_fronts_section() {
  return {"fronts", &dataset_fronts_md, &dataset_fronts_html};
}

}  // namespace flowtune::reports
