// index.html of `tune report`: the page skeleton, the HTML of the report sections per board,
// the plots' data as JSON (reports/html/report.js draws them with Chart.js).
#include "reports/html_report.hpp"

#include <filesystem>
#include <sstream>

#include "reports/html_assets.hpp"
#include "reports/html_data.hpp"
#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"
#include "select/objectives.hpp"

namespace flowtune::reports {

namespace {

using detail::xml_escape;

// Per board: its <section class="board"> with the HTML of every section that has one.
std::string board_sections(const ReportModel& model) {
  std::string out;
  for (std::size_t bi = 0; bi < model.boards.size(); ++bi) {
    const BoardModel& b = model.boards[bi];
    out += "<section class=\"board\" data-board=\"" + xml_escape(b.name) + "\">\n";
    for (const Section& section : report_sections())
      if (section.html) out += section.html(b, bi);
    out += "</section>\n";
  }
  return out;
}

// <head>: title, style, the error collector the status element reports, Chart.js.
std::string head(const ReportModel& model, const std::string& chartjs_source) {
  std::ostringstream s;
  s << "<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<title>flowtune report: board " << xml_escape(model.board) << "</title>\n<style>\n"
    << html::kReportCss << "</style>\n"
    << "<script>window.flowtuneErrors = [];\n"
       "window.addEventListener('error', (e) => window.flowtuneErrors.push(String(e.message)));"
       "</script>\n";
  if (!chartjs_source.empty()) s << chartjs_script(chartjs_source);
  s << "</head>\n";
  return s.str();
}

// The page's introduction: title, DB, links to the other views, how to read the plots.
std::string intro(const ReportModel& model, bool has_chartjs) {
  const std::string board = xml_escape(model.board);
  std::ostringstream s;
  s << "<h1>flowtune report: board " << board << "</h1>\n<p>Database " << xml_escape(model.db_path)
    << ". Other views of board " << board
    << ": <a href=\"report.md\">report.md</a>, <a href=\"measurements.csv\">measurements.csv</a>"
       ", <a href=\"pareto.csv\">pareto.csv</a>, <a href=\"pruned.csv\">pruned.csv</a>, "
       "<a href=\"failures.csv\">failures.csv</a>, <a href=\"runs.csv\">runs.csv</a>.</p>\n"
    << "<p>Times are per run of the workload (median over repeats), metrics means over the "
       "dataset's items.</p>\n";
  if (!has_chartjs) {
    s << "<p class=\"warn\" id=\"no-chartjs\">Chart.js was not found (Debian package "
         "libjs-chart.js, /usr/share/javascript/chart.js/), so this page has no plots; the "
         "tables below are complete. Install it (scripts/setup) and run tune report "
         "again.</p>\n";
  }
  return s.str();
}

}  // namespace

std::string html_report(const ReportModel& model, const std::string& chartjs_source) {
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html lang=\"en\">\n"
    << head(model, chartjs_source) << "<body>\n"
    << intro(model, !chartjs_source.empty())
    << "<div id=\"filters\"><fieldset id=\"filter-variant\"><legend>variant</legend></fieldset>"
       "<fieldset id=\"filter-precision\"><legend>precision</legend></fieldset></div>\n"
    << board_sections(model) << "<div id=\"status\" data-state=\"pending\"></div>\n"
    << "<script type=\"application/json\" id=\"flowtune-data\">" << html_data_json(model)
    << "</script>\n"
    << "<script>\n"
    << html::kReportJs << "</script>\n</body>\n</html>\n";
  return s.str();
}

std::string html_report(const db::Repository& repo, const std::string& board,
                        const std::string& chartjs_source) {
  return html_report(load_report_model(repo, board), chartjs_source);
}

void write_html_report(const ReportModel& model, const std::string& out_dir) {
  const std::string chartjs = find_chartjs();
  detail::write_text_file((std::filesystem::path(out_dir) / "index.html").string(),
                          html_report(model, chartjs.empty() ? "" : read_chartjs(chartjs)));
}

}  // namespace flowtune::reports
