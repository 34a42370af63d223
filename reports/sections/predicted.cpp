// Predicted vs measured section: per prediction file of `tune report --predicted`, the
// measured configs that have a prediction, the error of each (ln(pred/meas)) and a summary
// (median |ln(pred/meas)|, Spearman's rho), in report.md and index.html.
#include <cmath>
#include <sstream>

#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {
namespace {

using detail::fixed;

std::string summary_text(const PredictionComparison& c) {
  std::ostringstream s;
  s << c.rows.size() << " of " << c.n_measured << " measured configs have a prediction";
  if (!c.rows.empty())
    s << "; median |ln(pred/meas)| " << fixed(c.median_abs_log, 3) << " (x"
      << fixed(std::exp(c.median_abs_log), 2) << "), Spearman rho " << fixed(c.spearman, 3);
  if (c.n_energy > 0)
    s << "; energy over " << c.n_energy << " configs: median |ln(pred/meas)| "
      << fixed(c.energy_median_abs_log, 3);
  if (c.predictions.refit_loo_median_abs_log)
    s << "; the model was refit on this board's measurements in " << c.predictions.refit_db
      << " (leave-one-out median |ln| " << fixed(*c.predictions.refit_loo_median_abs_log, 3)
      << "): where that is this report's DB, its configs are no independent check";
  return s.str();
}

std::string source_text(const PredictionComparison& c) {
  const Predictions& p = c.predictions;
  return "PREDICTED by the model of tune predict (not measured): " + p.path + ", workload " +
         p.workload + ", calibration " + p.calibration + ", frame " + std::to_string(p.width) +
         "x" + std::to_string(p.height) +
         ". Compared per pixel: predicted ns/px of that frame vs the measurement's ns_per_unit.";
}

std::string predicted_md(const ReportModel& model) {
  std::ostringstream s;
  for (const PredictionComparison& c : model.reported().predicted) {
    using detail::md_cell;
    s << "\n## Predicted vs measured (" << md_cell(c.predictions.path) << ")\n\n"
      << md_cell(source_text(c)) << "\n\n"
      << md_cell(summary_text(c)) << ".\n";
    if (c.rows.empty()) continue;
    s << "\n| config | dataset | predicted ns/px | measured ns/px | pred/meas | "
         "predicted nJ/px | measured nJ/px |\n|---|---|---:|---:|---:|---:|---:|\n";
    for (const PredictionRow& r : c.rows)
      s << "| " << md_cell(r.label) << " | " << md_cell(r.dataset) << " | "
        << fixed(r.predicted_ns_per_px, 4) << " | " << fixed(r.measured_ns_per_px, 4) << " | "
        << fixed(std::exp(r.log_ratio), 2) << " | " << fixed(r.predicted_nj_per_px, 3) << " | "
        << fixed(r.measured_nj_per_px, 3) << " |\n";
  }
  return s.str();
}

std::string predicted_html(const BoardModel& b, std::size_t) {
  using detail::xml_escape;
  std::ostringstream s;
  for (const PredictionComparison& c : b.predicted) {
    s << "<h3>Predicted vs measured (" << xml_escape(c.predictions.path) << ")</h3>\n<p>"
      << xml_escape(source_text(c)) << "</p>\n<p class=\"prediction-summary\">"
      << xml_escape(summary_text(c)) << ".</p>\n";
    if (c.rows.empty()) continue;
    s << "<table class=\"predicted\"><thead><tr><th>config</th><th>dataset</th><th>predicted "
         "ns/px</th><th>measured ns/px</th><th>pred/meas</th><th>predicted nJ/px</th>"
         "<th>measured nJ/px</th></tr></thead><tbody>\n";
    for (const PredictionRow& r : c.rows)
      s << "<tr><td>" << xml_escape(r.label) << "</td><td>" << xml_escape(r.dataset)
        << "</td><td class=\"num\">" << fixed(r.predicted_ns_per_px, 4) << "</td><td class=\"num\">"
        << fixed(r.measured_ns_per_px, 4) << "</td><td class=\"num\">"
        << fixed(std::exp(r.log_ratio), 2) << "</td><td class=\"num\">"
        << fixed(r.predicted_nj_per_px, 3) << "</td><td class=\"num\">"
        << fixed(r.measured_nj_per_px, 3) << "</td></tr>\n";
    s << "</tbody></table>\n";
  }
  return s.str();
}

}  // namespace

Section predicted_section() {
  return {"predicted", &predicted_md, &predicted_html};
}

}  // namespace flowtune::reports
