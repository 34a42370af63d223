// Failures section: a table in report.md, grouped by failure class in HTML.
#include <map>
#include <sstream>

#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

std::string failures_md(const ReportModel& model) {
  using detail::md_cell;
  const std::vector<db::FailureRow>& failures = model.reported().failures;
  if (failures.empty()) return "";
  std::ostringstream s;
  s << "\n## Failures (" << failures.size() << ")\n\n| run | class | config | dataset | message |\n"
    << "|---:|---|---|---|---|\n";
  for (const auto& f : failures)
    s << "| " << f.run_id << " | " << md_cell(f.failure_class) << " | " << md_cell(f.config.label)
      << " | " << md_cell(f.dataset) << " | " << md_cell(f.message) << " |\n";
  return s.str();
}

// Per class: the number of failures and, folded, each config with its run, dataset, message.
std::string failures_html(const BoardModel& b, std::size_t) {
  using detail::xml_escape;
  std::map<std::string, std::vector<const db::FailureRow*>> by_class;
  for (const auto& f : b.failures) by_class[f.failure_class].push_back(&f);
  std::ostringstream s;
  s << "<h3>Failures (" << b.failures.size() << ") by class</h3>\n";
  if (b.failures.empty()) return s.str() + "<p>None.</p>\n";
  s << "<table><thead><tr><th>class</th><th>failures</th><th>configs: messages</th></tr>"
       "</thead><tbody>\n";
  for (const auto& [cls, rows] : by_class) {
    s << "<tr><td>" << xml_escape(cls) << "</td><td class=\"num\">" << rows.size()
      << "</td><td><details><summary>show</summary><ul>";
    for (const db::FailureRow* f : rows)
      s << "<li>" << xml_escape(f->config.label) << " (run " << f->run_id << ", "
        << xml_escape(f->dataset) << "): " << xml_escape(f->message) << "</li>";
    s << "</ul></details></td></tr>\n";
  }
  return s.str() + "</tbody></table>\n";
}

}  // namespace

Section failures_section() {
  return {"failures", &failures_md, &failures_html};
}

}  // namespace flowtune::reports
