// index.html of `tune report`: the page skeleton and tables in HTML, the measurements as JSON
// for the plots (reports/html/report.js draws them with Chart.js).
#include "reports/html_report.hpp"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "reports/html_assets.hpp"
#include "reports/text_format.hpp"
#include "select/objectives.hpp"

namespace flowtune::reports {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;
using detail::fixed;
using detail::shortest_double;

std::string esc(const std::string& text) {
  return detail::xml_escape(text);
}

// Chart.js's licence, from Debian's /usr/share/doc/libjs-chart.js/copyright (Expat = MIT).
constexpr const char* kChartJsNotice =
    R"(Chart.js (https://www.chartjs.org), from Debian's libjs-chart.js.
Copyright: 2014-2021, Chart.js Contributors
License: Expat (MIT)
 Permission is hereby granted, free of charge, to any person
 obtaining a copy of this software and associated documentation files
 (the "Software"), to deal in the Software without restriction,
 including without limitation the rights to use, copy, modify, merge,
 publish, distribute, sublicense, and/or sell copies of the Software,
 and to permit persons to whom the Software is furnished to do so,
 subject to the following conditions:
 .
 The above copyright notice and this permission notice shall be
 included in all copies or substantial portions of the Software.
 .
 THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND,
 EXPRESS OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
 MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
 NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS
 BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN
 ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
 CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE
 SOFTWARE.)";

bool readable_file(const std::string& path) {
  std::error_code ec;
  return !path.empty() && fs::is_regular_file(path, ec) && std::ifstream(path).good();
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return in ? s.str() : std::string();
}

// Replaces every occurrence of `from` (ASCII, case-insensitive) by `to`.
std::string replace_all_icase(const std::string& text, const std::string& from,
                              const std::string& to) {
  const auto lower = [](std::string t) {
    for (char& c : t)
      if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return t;
  };
  const std::string hay = lower(text), needle = lower(from);
  std::string out;
  std::size_t start = 0;
  for (auto pos = hay.find(needle); pos != std::string::npos; pos = hay.find(needle, start)) {
    out.append(text, start, pos - start).append(to);
    start = pos + needle.size();
  }
  return out.append(text, start, std::string::npos);
}

std::string kv_text(const std::map<std::string, int>& m) {
  std::string out;
  for (const auto& [k, v] : m) out += (out.empty() ? "" : " ") + k + "=" + std::to_string(v);
  return out;
}

// One plot: x and y objectives and the measurement ids on their two-objective front.
struct Plot {
  Objective x, y;
  std::vector<std::int64_t> front;
};

struct Dataset {
  std::string name;
  db::WorkloadRow workload;
  std::vector<Objective> objectives;
  std::vector<db::MeasuredConfig> measured, front;
  bool has_energy = false;
  std::vector<Plot> plots;
};

// Time vs accuracy (every pair of front objectives), then with energy: energy vs each other
// front objective and time vs energy; each pair once.
std::vector<Plot> plots_of(const Dataset& d) {
  std::vector<std::pair<Objective, Objective>> axes;
  for (std::size_t i = 0; i < d.objectives.size(); ++i)
    for (std::size_t j = i + 1; j < d.objectives.size(); ++j)
      axes.emplace_back(d.objectives[i], d.objectives[j]);
  if (d.has_energy) {
    const Objective time = resolve_objective(d.workload, "time");
    const Objective energy = resolve_objective(d.workload, "energy");
    for (const Objective& o : d.objectives)
      if (o.name != time.name && o.name != energy.name) axes.emplace_back(energy, o);
    axes.emplace_back(time, energy);
  }
  std::vector<Plot> plots;
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& [x, y] : axes) {
    if (!seen.insert({x.name, y.name}).second || !seen.insert({y.name, x.name}).second) continue;
    Plot p{x, y, {}};
    for (const auto& mc : pareto_configs(d.measured, {x, y})) p.front.push_back(mc.measurement_id);
    plots.push_back(std::move(p));
  }
  return plots;
}

std::vector<Dataset> datasets_of(const db::Repository& repo, const std::string& board) {
  std::vector<Dataset> out;
  for (const std::string& name : repo.datasets(board)) {
    Dataset d;
    d.name = name;
    d.measured = repo.measured(board, name);
    if (d.measured.empty()) continue;
    d.workload = workload_or_default(repo, d.measured.front().config.workload);
    d.objectives = objectives_of(d.workload);
    d.front = pareto_configs(d.measured, d.objectives);
    for (const auto& mc : d.measured) d.has_energy = d.has_energy || mc.measurement.energy_mj;
    d.plots = plots_of(d);
    out.push_back(std::move(d));
  }
  return out;
}

json objective_json(const Objective& o) {
  return {{"name", o.name}, {"unit", o.unit}, {"minimize", o.minimize}};
}

json dataset_json(const Dataset& d) {
  std::set<std::string> figures;
  for (const Plot& p : d.plots) {
    figures.insert(p.x.name);
    figures.insert(p.y.name);
  }
  json points = json::array();
  for (const auto& mc : d.measured) {
    json values = json::object();
    for (const std::string& f : figures) values[f] = mc.value(f);  // NaN -> null
    points.push_back({{"id", mc.measurement_id},
                      {"label", mc.config.label},
                      {"variant", mc.config.variant},
                      {"precision", mc.config.precision},
                      {"tunables", mc.config.tunables},
                      {"params", mc.config.params},
                      {"clock_mhz", mc.config.clock_mhz},
                      {"v", values}});
  }
  json plots = json::array();
  for (const Plot& p : d.plots)
    plots.push_back({{"x", objective_json(p.x)}, {"y", objective_json(p.y)}, {"front", p.front}});
  return {{"dataset", d.name}, {"workload", d.workload.name}, {"points", points}, {"plots", plots}};
}

// Parameters whose value differs between the configs (the others are the same everywhere).
std::set<std::string> varying_params(const std::vector<db::MeasuredConfig>& configs) {
  std::map<std::string, std::set<double>> values;
  for (const auto& mc : configs)
    for (const auto& [name, v] : mc.config.params) values[name].insert(v);
  std::set<std::string> out;
  for (const auto& [name, set] : values)
    if (set.size() > 1) out.insert(name);
  return out;
}

std::string front_table(const Dataset& d) {
  const std::set<std::string> varying = varying_params(d.measured);
  std::ostringstream s;
  s << "<table class=\"front\"><thead><tr><th>label</th><th>variant</th><th>precision</th>"
       "<th>tunables</th><th>params</th><th>time ms</th>";
  if (d.has_energy) s << "<th>energy mJ</th>";
  for (const auto& m : d.workload.metrics)
    s << "<th>" << esc(m.name + (m.unit.empty() ? "" : " " + m.unit)) << "</th>";
  s << "</tr></thead><tbody>\n";
  for (const auto& mc : d.front) {
    std::string params;
    for (const std::string& name : varying) {
      const auto it = mc.config.params.find(name);
      if (it != mc.config.params.end())
        params += (params.empty() ? "" : " ") + name + "=" + shortest_double(it->second);
    }
    const db::MeasurementRow& m = mc.measurement;
    s << "<tr><td>" << esc(mc.config.label) << "</td><td>" << esc(mc.config.variant) << "</td><td>"
      << esc(mc.config.precision) << "</td><td>" << esc(kv_text(mc.config.tunables)) << "</td><td>"
      << esc(params) << "</td><td class=\"num\">" << fixed(m.time_ms_median, 3) << "</td>";
    if (d.has_energy) s << "<td class=\"num\">" << fixed(m.energy_mj, 3) << "</td>";
    for (const auto& spec : d.workload.metrics)
      s << "<td class=\"num\">" << fixed(m.metric(spec.name), 4) << "</td>";
    s << "</tr>\n";
  }
  s << "</tbody></table>\n";
  return s.str();
}

std::string pruned_table(const std::vector<db::PrunedRow>& pruned) {
  std::map<std::string, std::vector<std::string>> by_reason;
  for (const auto& p : pruned) by_reason[p.reason].push_back(p.config.label);
  std::ostringstream s;
  s << "<h3>Pruned configs (" << pruned.size() << ") by reason</h3>\n";
  if (pruned.empty()) return s.str() + "<p>None.</p>\n";
  s << "<table><thead><tr><th>reason</th><th>configs</th><th>examples</th></tr></thead><tbody>\n";
  for (const auto& [reason, labels] : by_reason) {
    std::string examples;
    for (std::size_t i = 0; i < labels.size() && i < 3; ++i)
      examples += (i ? "; " : "") + labels[i];
    if (labels.size() > 3) examples += "; ...";
    s << "<tr><td>" << esc(reason) << "</td><td class=\"num\">" << labels.size() << "</td><td>"
      << esc(examples) << "</td></tr>\n";
  }
  return s.str() + "</tbody></table>\n";
}

std::string failures_table(const std::vector<db::FailureRow>& failures) {
  std::map<std::string, std::vector<const db::FailureRow*>> by_class;
  for (const auto& f : failures) by_class[f.failure_class].push_back(&f);
  std::ostringstream s;
  s << "<h3>Failures (" << failures.size() << ") by class</h3>\n";
  if (failures.empty()) return s.str() + "<p>None.</p>\n";
  s << "<table><thead><tr><th>class</th><th>failures</th><th>configs: messages</th></tr>"
       "</thead><tbody>\n";
  for (const auto& [cls, rows] : by_class) {
    s << "<tr><td>" << esc(cls) << "</td><td class=\"num\">" << rows.size()
      << "</td><td><details><summary>show</summary><ul>";
    for (const db::FailureRow* f : rows)
      s << "<li>" << esc(f->config.label) << " (run " << f->run_id << ", " << esc(f->dataset)
        << "): " << esc(f->message) << "</li>";
    s << "</ul></details></td></tr>\n";
  }
  return s.str() + "</tbody></table>\n";
}

std::string board_section(const db::Repository& repo, const std::string& board, std::size_t bi,
                          const std::vector<Dataset>& datasets) {
  const std::vector<db::PrunedRow> pruned = repo.pruned(board);
  const std::vector<db::FailureRow> failures = repo.failures(board);
  std::size_t n_measured = 0;
  for (const Dataset& d : datasets) n_measured += d.measured.size();
  std::ostringstream s;
  s << "<section class=\"board\" data-board=\"" << esc(board) << "\">\n<h2>Board " << esc(board)
    << "</h2>\n<p>" << n_measured << " measured configs, " << pruned.size() << " pruned configs, "
    << failures.size() << " failures.</p>\n";
  for (std::size_t di = 0; di < datasets.size(); ++di) {
    const Dataset& d = datasets[di];
    std::string axes;
    for (const Objective& o : d.objectives) axes += (axes.empty() ? "" : " vs ") + o.name;
    s << "<section class=\"dataset\" data-dataset=\"" << esc(d.name) << "\" data-measured=\""
      << d.measured.size() << "\">\n<h3>Dataset " << esc(d.name) << " (workload "
      << esc(d.workload.name) << ", " << d.measured.size() << " measured configs)</h3>\n"
      << "<div class=\"plots\" id=\"plots-" << bi << "-" << di << "\">";
    if (d.plots.empty())
      s << "<p>One objective (" << esc(axes) << ") and no energy: nothing to plot.</p>";
    s << "</div>\n<h4>Pareto front: " << esc(axes) << " (" << d.front.size() << " configs)</h4>\n"
      << front_table(d) << "</section>\n";
  }
  return s.str() + pruned_table(pruned) + failures_table(failures) + "</section>\n";
}

}  // namespace

std::string find_chartjs() {
  if (const char* env = std::getenv("FLOWTUNE_CHARTJS"))
    return readable_file(env) ? std::string(env) : std::string();
  if (readable_file(html::kChartJsPath)) return html::kChartJsPath;
  for (const char* name : {"chart.umd.min.js", "chart.umd.js", "chart.min.js", "Chart.min.js"}) {
    const std::string path = std::string("/usr/share/javascript/chart.js/") + name;
    if (readable_file(path)) return path;
  }
  return "";
}

std::string html_report(const db::Repository& repo, const std::string& board,
                        const std::string& chartjs_source) {
  std::vector<std::string> boards = {board};
  for (const std::string& b : repo.boards())
    if (b != board) boards.push_back(b);

  json data = {{"board", board}, {"boards", json::array()}};
  std::string sections;
  for (std::size_t bi = 0; bi < boards.size(); ++bi) {
    const std::vector<Dataset> datasets = datasets_of(repo, boards[bi]);
    json datasets_json = json::array();
    for (const Dataset& d : datasets) datasets_json.push_back(dataset_json(d));
    data["boards"].push_back({{"board", boards[bi]}, {"datasets", datasets_json}});
    sections += board_section(repo, boards[bi], bi, datasets);
  }
  // In the <script> block: no "</script" or "<!--" can appear once every '<' is \u003c
  // (valid JSON: '<' only occurs inside strings). Invalid UTF-8 from the DB becomes U+FFFD.
  const std::string data_text =
      replace_all_icase(data.dump(-1, ' ', false, json::error_handler_t::replace), "<", "\\u003c");

  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
    << "<title>flowtune report: board " << esc(board) << "</title>\n<style>\n"
    << html::kReportCss << "</style>\n"
    << "<script>window.flowtuneErrors = [];\n"
       "window.addEventListener('error', (e) => window.flowtuneErrors.push(String(e.message)));"
       "</script>\n";
  if (!chartjs_source.empty()) {
    s << "<script>\n/*\n"
      << kChartJsNotice << "\n*/\n"
      << replace_all_icase(chartjs_source, "</script", "<\\/script") << "\n</script>\n";
  }
  s << "</head>\n<body>\n<h1>flowtune report: board " << esc(board) << "</h1>\n<p>Database "
    << esc(repo.path()) << ". Other views of board " << esc(board)
    << ": <a href=\"report.md\">report.md</a>, <a href=\"measurements.csv\">measurements.csv</a>"
       ", <a href=\"pareto.csv\">pareto.csv</a>, <a href=\"pruned.csv\">pruned.csv</a>, "
       "<a href=\"failures.csv\">failures.csv</a>, <a href=\"runs.csv\">runs.csv</a>.</p>\n"
    << "<p>Times are per run of the workload (median over repeats), metrics means over the "
       "dataset's items. Red: the Pareto front of the two plotted objectives over all configs "
       "(filters hide points, they do not recompute it). Hover a point for its config.</p>\n";
  if (chartjs_source.empty()) {
    s << "<p class=\"warn\" id=\"no-chartjs\">Chart.js was not found (Debian package "
         "libjs-chart.js, /usr/share/javascript/chart.js/), so this page has no plots; the "
         "tables below are complete. Install it (scripts/setup) and run tune report "
         "again.</p>\n";
  }
  s << "<div id=\"filters\"><fieldset id=\"filter-variant\"><legend>variant</legend></fieldset>"
       "<fieldset id=\"filter-precision\"><legend>precision</legend></fieldset></div>\n"
    << sections << "<div id=\"status\" data-state=\"pending\"></div>\n"
    << "<script type=\"application/json\" id=\"flowtune-data\">" << data_text << "</script>\n"
    << "<script>\n"
    << html::kReportJs << "</script>\n</body>\n</html>\n";
  return s.str();
}

void write_html_report(const db::Repository& repo, const std::string& board,
                       const std::string& out_dir) {
  const std::string chartjs = find_chartjs();
  detail::write_text_file((fs::path(out_dir) / "index.html").string(),
                          html_report(repo, board, chartjs.empty() ? "" : read_file(chartjs)));
}

}  // namespace flowtune::reports
