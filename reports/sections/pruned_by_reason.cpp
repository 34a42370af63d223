// Pruned section: the board's pruned configs grouped by reason.
#include <map>
#include <sstream>

#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

std::string pruned_md(const ReportModel& model) {
  const std::vector<db::PrunedRow>& pruned = model.reported().pruned;
  if (pruned.empty()) return "";
  std::map<std::string, int> by_reason;
  for (const auto& p : pruned) ++by_reason[p.reason];
  std::ostringstream s;
  s << "\n## Pruned configs (" << pruned.size() << ")\n\n| reason | configs |\n|---|---:|\n";
  for (const auto& [reason, n] : by_reason)
    s << "| " << detail::md_cell(reason) << " | " << n << " |\n";
  return s.str();
}

// Per reason: the number of configs and up to three of their labels.
std::string pruned_html(const BoardModel& b, std::size_t) {
  using detail::xml_escape;
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const auto& p : b.pruned) by_reason[p.reason].push_back(p.config.label);
  std::ostringstream s;
  s << "<h3>Pruned configs (" << b.pruned.size() << ") by reason</h3>\n";
  if (b.pruned.empty()) return s.str() + "<p>None.</p>\n";
  s << "<table><thead><tr><th>reason</th><th>configs</th><th>examples</th></tr></thead><tbody>\n";
  for (const auto& [reason, labels] : by_reason) {
    std::string examples;
    for (std::size_t i = 0; i < labels.size() && i < 3; ++i)
      examples += (i ? "; " : "") + labels[i];
    if (labels.size() > 3) examples += "; ...";
    s << "<tr><td>" << xml_escape(reason) << "</td><td class=\"num\">" << labels.size()
      << "</td><td>" << xml_escape(examples) << "</td></tr>\n";
  }
  return s.str() + "</tbody></table>\n";
}

}  // namespace

Section pruned_section() {
  return {"pruned", &pruned_md, &pruned_html};
}

}  // namespace flowtune::reports
