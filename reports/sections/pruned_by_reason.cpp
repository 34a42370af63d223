// Pruned section: the board's pruned configs grouped by reason class.
#include <sstream>

#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"
#include "select/prune_reasons.hpp"

namespace flowtune::reports {

namespace {

// Pruned configs grouped by the rule or limit that pruned them (select/prune_reasons.hpp):
// the reason text embeds the config's own figures, so grouping by it would group nothing.
std::vector<PruneClass> classes_of(const std::vector<db::PrunedRow>& pruned) {
  std::vector<std::pair<std::string, std::string>> label_reasons;
  for (const auto& p : pruned) label_reasons.emplace_back(p.config.label, p.reason);
  return group_prune_reasons(label_reasons);
}

// The labels of up to three configs of a class, in recording order.
std::string example_labels(const std::vector<db::PrunedRow>& pruned, const PruneClass& c) {
  std::string out;
  std::size_t n = 0;
  for (const auto& p : pruned) {
    if (prune_reason_class(p.config.label, p.reason) != c.name) continue;
    if (n++ == 3) return out + "; ...";
    out += (out.empty() ? "" : "; ") + p.config.label;
  }
  return out;
}

std::string pruned_md(const ReportModel& model) {
  const std::vector<db::PrunedRow>& pruned = model.reported().pruned;
  if (pruned.empty()) return "";
  std::ostringstream s;
  s << "\n## Pruned configs (" << pruned.size()
    << ") by reason\n\nN stands for each config's own figures.\n\n"
       "| reason | configs | reasons (numeric order) | examples |\n|---|---:|---|---|\n";
  for (const PruneClass& c : classes_of(pruned))
    s << "| " << detail::md_cell(c.name) << " | " << c.configs << " | "
      << detail::md_cell(prune_class_examples(c)) << " | "
      << detail::md_cell(example_labels(pruned, c)) << " |\n";
  return s.str();
}

// Per reason class: the number of configs, its reasons and up to three of their labels.
std::string pruned_html(const BoardModel& b, std::size_t) {
  using detail::xml_escape;
  std::ostringstream s;
  s << "<h3>Pruned configs (" << b.pruned.size() << ") by reason</h3>\n";
  if (b.pruned.empty()) return s.str() + "<p>None.</p>\n";
  s << "<p>N stands for each config's own figures.</p>\n<table class=\"pruned\"><thead><tr>"
       "<th>reason</th><th>configs</th><th>reasons (numeric order)</th><th>examples</th>"
       "</tr></thead><tbody>\n";
  for (const PruneClass& c : classes_of(b.pruned)) {
    s << "<tr><td>" << xml_escape(c.name) << "</td><td class=\"num\">" << c.configs << "</td><td>"
      << xml_escape(prune_class_examples(c)) << "</td><td>"
      << xml_escape(example_labels(b.pruned, c)) << "</td></tr>\n";
  }
  return s.str() + "</tbody></table>\n";
}

}  // namespace

Section pruned_section() {
  return {"pruned", &pruned_md, &pruned_html};
}

}  // namespace flowtune::reports
