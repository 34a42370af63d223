// Summary section: what the report covers (board, DB, counts, files).
#include <sstream>

#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

using detail::md_cell;

std::string summary_md(const ReportModel& model) {
  const BoardModel& b = model.reported();
  std::ostringstream s;
  s << "# flowtune report: board " << md_cell(model.board) << "\n\n"
    << "Database: " << md_cell(model.db_path) << ". " << b.measured.size() << " measured configs, "
    << b.pruned.size() << " pruned configs, " << b.failures.size() << " failures, " << b.runs.size()
    << " run(s).\n\n"
    << "Files: [runs.csv](runs.csv), [measurements.csv](measurements.csv), "
       "[pruned.csv](pruned.csv), [failures.csv](failures.csv), [pareto.csv](pareto.csv).\n\n"
    << "Times are per run of the workload (a frame, a solve; median over repeats); metrics are "
       "means over the items of the dataset; energy is n/a where the board has no sensor.\n\n";
  return s.str();
}

std::string summary_html(const BoardModel& b, std::size_t) {
  std::ostringstream s;
  s << "<h2>Board " << detail::xml_escape(b.name) << "</h2>\n<p>" << b.measured.size()
    << " measured configs, " << b.pruned.size() << " pruned configs, " << b.failures.size()
    << " failures.</p>\n";
  return s.str();
}

}  // namespace

Section summary_section() {
  return {"summary", &summary_md, &summary_html};
}

}  // namespace flowtune::reports
