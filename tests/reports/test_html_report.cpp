// index.html of the report, checked in headless Chromium: the page's script fills
// <div id="status"> (state, charts, points drawn, errors) and each plot's data-plotted; the
// test reads them back from --dump-dom and compares with the DB. Skips without Chromium.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "kernels/flow_pictures.hpp"
#include "kernels/png_io.hpp"
#include "reports/html_report.hpp"
#include "reports/report.hpp"
#include "select/objectives.hpp"
#include "tests/reports/test_files.hpp"

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

using test::read_all;

// The first of $FLOWTUNE_CHROMIUM, chromium, chromium-browser, google-chrome on PATH; "".
std::string find_chromium() {
  if (const char* env = std::getenv("FLOWTUNE_CHROMIUM")) return env;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::vector<std::string> folders;
  for (std::string dir; std::getline(dirs, dir, ':');) folders.push_back(dir);
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"})
    for (const std::string& dir : folders)
      if (::access((fs::path(dir) / name).c_str(), X_OK) == 0)
        return (fs::path(dir) / name).string();
  return "";
}

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs headless Chromium on page with extra flags; stdout and stderr go to files in dir.
// Returns the exit status.
int run_chromium(const std::string& chromium, const fs::path& dir, const fs::path& page,
                 const std::string& flags) {
  const std::string cmd =
      "timeout 120 " + quoted(chromium) +
      " --headless=new --disable-gpu --no-sandbox --disable-dev-shm-usage --no-first-run"
      " --user-data-dir=" +
      quoted((dir / "profile").string()) +
      " --virtual-time-budget=5000 --enable-logging=stderr --v=0 " + flags + " " +
      quoted("file://" + page.string()) + " >" + quoted((dir / "chromium.out").string()) + " 2>" +
      quoted((dir / "chromium.err").string());
  return std::system(cmd.c_str());
}

// The value of attribute `name` in the first tag matching `tag_start` (e.g. `<div id="status"`).
std::string attribute(const std::string& dom, const std::string& tag_start,
                      const std::string& name) {
  const auto start = dom.find(tag_start);
  if (start == std::string::npos) return "<no tag>";
  const std::string tag = dom.substr(start, dom.find('>', start) - start);
  std::smatch m;
  if (!std::regex_search(tag, m, std::regex(" " + name + "=\"([^\"]*)\""))) return "<none>";
  return m[1];
}

db::ConfigRow config(const std::string& board, const std::string& variant, int tile_x,
                     int iterations) {
  db::ConfigRow c;
  c.board = board;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = tile_x % 64 == 0 ? "f32" : "f16";
  c.tunables = {{"tile_x", tile_x}, {"tile_y", 4}};
  c.label = variant + " tile_x=" + std::to_string(tile_x) + " it=" + std::to_string(iterations);
  c.params = {{"iterations", static_cast<double>(iterations)}, {"n_warpings", 5}};
  c.key = db::config_key(c);
  return c;
}

db::MeasurementRow measurement(std::int64_t run, const std::string& dataset, double time_ms,
                               double aepe, std::optional<double> energy_mj) {
  db::MeasurementRow m;
  m.run_id = run;
  m.dataset = dataset;
  m.time_ms_median = m.time_ms_min = m.time_ms_max = time_ms;
  m.n_repeats = 3;
  m.ns_per_unit = time_ms * 1e6 / 307200.0;
  m.energy_mj = energy_mj;
  m.metrics = {{"aepe", aepe}, {"aae_deg", aepe * 10}};
  m.items = {{"Grove2", time_ms, {{"aepe", aepe}, {"aae_deg", 1.0}}},
             {"RubberWhale", time_ms, {{"aepe", aepe}, {"aae_deg", 2.0}}}};
  // The pictures of a 24 x 16 flow of the measurement's own error against a rotation.
  FlowField flow(24, 16), truth(24, 16);
  for (int i = 0; i < 24 * 16; ++i) {
    truth.u[std::size_t(i)] = float(i % 24 - 12) / 4;
    truth.v[std::size_t(i)] = float(i / 24 - 8) / 4;
    flow.u[std::size_t(i)] = truth.u[std::size_t(i)] + float(aepe);
    flow.v[std::size_t(i)] = truth.v[std::size_t(i)];
  }
  for (const FlowPicture& p : flow_pictures(flow, truth, 12))
    m.images.push_back({"Grove2", p.kind, p.image.width, p.image.height, p.scale_px,
                        encode_png_rgb(p.image.width, p.image.height, p.image.rgb)});
  return m;
}

class HtmlReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_html_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    fill_db();
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Board host: dataset "mb:A" (6 configs with energy, two variants, one of them named with
  // markup), dataset "mb:B" (3 configs, no energy), 2 pruned, 2 failures; board nano: 2
  // configs. A label tries to close the JSON script.
  void fill_db() {
    repo_ = std::make_unique<db::Repository>((dir_ / "f.db").string());
    db::WorkloadRow w;
    w.name = "tvl1";
    w.work_unit = "px";
    w.front_objectives = {"time_ms", "aepe"};
    w.metrics = {{"aepe", "px", "endpoint error", true}, {"aae_deg", "deg", "", true}};
    repo_->record_workload(w);
    const std::int64_t r = repo_->begin_run(
        {"host", "tvl1", "tune --board host --objective time --max-aepe 0.55 --time-budget 2m", "",
         "testhost", "", "", "", "", "mb:A"});
    const std::string evil = "<b>bold</b>";
    const double t[] = {4, 6, 8, 12, 15, 20}, e[] = {0.9, 0.5, 0.6, 0.2, 0.2, 0.15};
    for (int i = 0; i < 6; ++i) {
      db::ConfigRow c = config("host", i < 4 ? "kokkos_global" : evil, 32 << i, 50 + 50 * i);
      if (i == 3) c.label = "</script><script>document.title='pwned'</script>";
      repo_->record_measurement(c, measurement(r, "mb:A", t[i], e[i], t[i] * 3 - i));
    }
    for (int i = 0; i < 3; ++i)
      repo_->record_measurement(config("host", "kokkos_global", 32 << i, 50),
                                measurement(r, "mb:B", t[i], e[i], std::nullopt));
    repo_->record_pruned(r, config("host", "kokkos_global", 4096, 50), "tile_x > width");
    repo_->record_pruned(r, config("host", "kokkos_global", 8192, 50), "tile_x > width");
    repo_->record_failure(r, config("host", "kokkos_global", 16, 50), "mb:A", "runtime",
                          "illegal <address>");
    repo_->record_failure(r, config("host", "kokkos_global", 24, 50), "mb:A", "timeout", "hung");
    repo_->end_run(r, "done");
    const std::int64_t n = repo_->begin_run({"nano", "tvl1", "tune", "", "", "", "", "", "", ""});
    for (int i = 0; i < 2; ++i)
      repo_->record_measurement(config("nano", "global", 32 << i, 50),
                                measurement(n, "mb:A", t[i], e[i], std::nullopt));
    repo_->end_run(n, "done");
  }

  fs::path dir_;
  std::unique_ptr<db::Repository> repo_;
};

TEST_F(HtmlReportTest, ChromiumDrawsEveryMeasuredPointWithoutErrors) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) GTEST_SKIP() << "no chromium on PATH (scripts/setup installs it)";
  if (find_chartjs().empty()) GTEST_SKIP() << "no Chart.js (libjs-chart.js; scripts/setup)";
  const fs::path out = dir_ / "report";
  write_report(*repo_, "host", out.string());
  const fs::path page = out / "index.html";
  ASSERT_TRUE(fs::is_regular_file(page));

  ASSERT_EQ(run_chromium(chromium, dir_, page, "--dump-dom"), 0) << read_all(dir_ / "chromium.err");
  const std::string dom = read_all(dir_ / "chromium.out");
  const std::string err = read_all(dir_ / "chromium.err");
  const std::string status = "<div id=\"status\"";
  ASSERT_EQ(attribute(dom, status, "data-state"), "ok")
      << attribute(dom, status, "data-errors") << " errors; stderr:\n"
      << err;
  EXPECT_EQ(attribute(dom, status, "data-errors"), "0");
  // host mb:A: time-aepe, energy-aepe, time-energy; host mb:B and nano mb:A: time-aepe.
  EXPECT_EQ(attribute(dom, status, "data-charts"), "5");
  EXPECT_EQ(attribute(dom, status, "data-points"), std::to_string(3 * 6 + 3 + 2));
  for (const char* console_error : {"Uncaught", ":CONSOLE", "SyntaxError"})
    EXPECT_EQ(err.find(console_error), std::string::npos) << console_error << " in:\n" << err;

  // Every plot of a dataset draws as many points as the DB has measurements of it.
  std::map<std::string, int> plots_seen;
  for (const std::string board : {"host", "nano"}) {
    const auto at = dom.find("<section class=\"board\" data-board=\"" + board + "\"");
    ASSERT_NE(at, std::string::npos) << board;
    for (const std::string& dataset : repo_->datasets(board)) {
      const std::string tag = "<section class=\"dataset\" data-dataset=\"" + dataset + "\"";
      const auto ds = dom.find(tag, at);
      ASSERT_NE(ds, std::string::npos) << board << " " << dataset;
      const auto end = dom.find("</section>", ds);
      const std::string section = dom.substr(ds, end - ds);
      const std::string expected = std::to_string(repo_->measured(board, dataset).size());
      std::regex plotted("<figure class=\"plot\"[^>]* data-plotted=\"([0-9]+)\"");
      for (std::sregex_iterator it(section.begin(), section.end(), plotted), last; it != last;
           ++it) {
        EXPECT_EQ((*it)[1].str(), expected) << board << " " << dataset;
        ++plots_seen[board + " " + dataset];
      }
    }
  }
  EXPECT_EQ(plots_seen,
            (std::map<std::string, int>{{"host mb:A", 3}, {"host mb:B", 1}, {"nano mb:A", 1}}));

  // Series: one Okabe-Ito colour per variant, one marker per precision, no two series alike.
  const std::string series = attribute(dom, status, "data-series");
  std::set<std::string> styles;
  std::map<std::string, std::string> colour_of_variant;
  const std::set<std::string> okabe_ito = {"#0072B2", "#E69F00", "#009E73", "#CC79A7",
                                           "#56B4E9", "#D55E00", "#F0E442"};
  std::regex one("([^|=]+) ([^ |=]+)=(#[0-9A-F]{6})/([a-zA-Z]+)");
  int n_series = 0;
  for (std::sregex_iterator it(series.begin(), series.end(), one), last; it != last; ++it) {
    ++n_series;
    const std::string variant = (*it)[1], colour = (*it)[3], marker = (*it)[4];
    EXPECT_EQ(okabe_ito.count(colour), 1u) << colour;
    EXPECT_TRUE(styles.insert(colour + "/" + marker).second) << series;
    if (colour_of_variant.count(variant)) {
      EXPECT_EQ(colour_of_variant[variant], colour) << series;
    }
    colour_of_variant[variant] = colour;
  }
  EXPECT_EQ(n_series, 3) << series;  // kokkos_global f16 and f32, the markup-named one f32

  // Every picture of a front config decodes in the browser.
  std::size_t pictures = 0;
  for (auto at = dom.find("class=\"item-image\""); at != std::string::npos;
       at = dom.find("class=\"item-image\"", at + 1))
    ++pictures;
  EXPECT_GT(pictures, 0u);
  EXPECT_EQ(attribute(dom, status, "data-images"),
            std::to_string(pictures) + "/" + std::to_string(pictures));

  // Each front row has its per-item results.
  EXPECT_NE(dom.find("<details class=\"items\"><summary>2 items</summary>"), std::string::npos);

  // The tooltip text of a point names its config; DB text stayed text.
  const std::string tooltip = attribute(dom, status, "data-tooltip");
  EXPECT_NE(tooltip.find("tunables: tile_x=32 tile_y=4"), std::string::npos) << tooltip;
  EXPECT_NE(tooltip.find("params: iterations=50 n_warpings=5"), std::string::npos) << tooltip;
  EXPECT_NE(dom.find("<title>flowtune report: board host</title>"), std::string::npos);
  EXPECT_EQ(dom.find("<b>bold"), std::string::npos);
  EXPECT_NE(dom.find("&lt;b&gt;bold&lt;/b&gt;"), std::string::npos) << "the variant filter";

  // A screenshot for people: $FLOWTUNE_HTML_SCREENSHOT, else in the working directory.
  const char* env = std::getenv("FLOWTUNE_HTML_SCREENSHOT");
  const fs::path png = env ? fs::path(env) : fs::current_path() / "html_report_screenshot.png";
  // #tooltip: the page shows one tooltip (the hover text) for the picture.
  const fs::path with_tooltip = page.string() + "#tooltip";
  fs::remove(png);
  EXPECT_EQ(run_chromium(
                chromium, dir_, with_tooltip,
                "--hide-scrollbars --window-size=1400,2200 --screenshot=" + quoted(png.string())),
            0)
      << read_all(dir_ / "chromium.err");
  ASSERT_TRUE(fs::is_regular_file(png)) << read_all(dir_ / "chromium.err");
  EXPECT_EQ(read_all(png).substr(0, 8), "\x89PNG\r\n\x1a\n");
  EXPECT_EQ(read_all(dir_ / "chromium.err").find(":CONSOLE"), std::string::npos)
      << read_all(dir_ / "chromium.err");
  std::cout << "screenshot: " << png.string() << "\n";
}

// The text of every element whose start tag begins with tag_start (e.g. `<span class="x"`).
std::vector<std::string> texts(const std::string& dom, const std::string& tag_start,
                               std::size_t from = 0, std::size_t to = std::string::npos) {
  std::vector<std::string> out;
  for (auto at = dom.find(tag_start, from); at != std::string::npos && at < to;
       at = dom.find(tag_start, at + 1)) {
    const auto begin = dom.find('>', at) + 1;
    out.push_back(dom.substr(begin, dom.find('<', begin) - begin));
  }
  return out;
}

// The first screen in Chromium: the run's details and its answer come before the plots; the
// pick of the run's request (least time with AEPE <= 0.55) is the config of 6 ms (AEPE 0.5;
// the faster one of 4 ms has AEPE 0.9), starred on each of the dataset's 3 plots and marked
// in its table; its speed is 10 / 6 = 1.67x that of the median config (10 ms of 4, 6, 8,
// 12, 15, 20) at 1000 / 6 = 167 frames/s. Each legend entry has its series' colour, the
// caption names the front's colour, and no two rows of a table share a label, not even two
// configs whose labels differ only in n_warpings. A screenshot of the first screen is
// written to the working directory (the build tree under ctest).
TEST_F(HtmlReportTest, ChromiumShowsTheAnswerFirstWithMatchingLegendsAndDistinctLabels) {
  const std::string chromium = find_chromium();
  if (chromium.empty()) GTEST_SKIP() << "no chromium on PATH (scripts/setup installs it)";
  if (find_chartjs().empty()) GTEST_SKIP() << "no Chart.js (libjs-chart.js; scripts/setup)";
  // A run that names no dataset (e.g. an import): the answer stays the mb:A run's.
  const std::int64_t r = repo_->begin_run({"host", "tvl1", "import", "", "", "", "", "", "", ""});
  for (int warpings : {1, 5}) {
    db::ConfigRow c = config("host", "kokkos_global", 64, 50);
    c.params["n_warpings"] = warpings;
    c.key = db::config_key(c);
    repo_->record_measurement(c, measurement(r, "mb:C", 2.0 * warpings, 1.0 / warpings, 1.0));
  }
  repo_->end_run(r, "done");
  const fs::path out = dir_ / "report";
  write_report(*repo_, "host", out.string());
  const fs::path page = out / "index.html";
  ASSERT_EQ(run_chromium(chromium, dir_, page, "--dump-dom"), 0) << read_all(dir_ / "chromium.err");
  const std::string dom = read_all(dir_ / "chromium.out");
  const std::string status = "<div id=\"status\"";
  ASSERT_EQ(attribute(dom, status, "data-state"), "ok") << read_all(dir_ / "chromium.err");

  // First screen: the overview of board host before its first plot.
  const auto host = dom.find("<section class=\"board\" data-board=\"host\"");
  const auto overview = dom.find("<section class=\"overview\">", host);
  ASSERT_NE(overview, std::string::npos);
  EXPECT_LT(overview, dom.find("<section class=\"dataset\"", host));
  for (const char* detail : {"tuned", "machine", "when", "command", "budget", "strategy"})
    EXPECT_NE(dom.find("data-detail=\"" + std::string(detail) + "\"", overview), std::string::npos)
        << detail;
  EXPECT_NE(dom.find("--max-aepe 0.55 --time-budget 2m", overview), std::string::npos);
  EXPECT_NE(dom.find("testhost", overview), std::string::npos);
  const std::vector<std::string> pick = texts(dom, "<span class=\"pick-label\"", overview);
  ASSERT_FALSE(pick.empty());
  EXPECT_EQ(pick.front(), "kokkos_global tile_x=64 it=100");
  EXPECT_NE(dom.find("least time_ms with aepe &lt;= 0.55", overview), std::string::npos);
  EXPECT_NE(dom.find("6.000 ms per run (167 frames/s)", overview), std::string::npos);
  EXPECT_NE(dom.find("1.67x the speed of the baseline", overview), std::string::npos);

  // The pick: starred once on each of the 3 plots of host's mb:A, one marked row of its table.
  // (Board nano's mb:A, without a run naming it, answers "least time": its one plot.)
  EXPECT_EQ(attribute(dom, status, "data-picks"), "4");
  const std::string table_end = "</tbody></table>\n";  // per-item tables end in </details>
  const auto a = dom.find("data-dataset=\"mb:A\"");
  const auto a_end = dom.find(table_end, a);
  std::size_t marked = 0;
  for (auto at = dom.find("<tr class=\"pick\"", a); at != std::string::npos && at < a_end;
       at = dom.find("<tr class=\"pick\"", at + 1))
    ++marked;
  EXPECT_EQ(marked, 1u);
  const auto pick_row = dom.find("<tr class=\"pick\"", a);
  EXPECT_EQ(texts(dom, "<span class=\"row-label\"", pick_row).front(), pick.front());

  // Legends: every entry drawn in its series' colour; the caption names the front's.
  const std::string legend = attribute(dom, status, "data-legend");
  std::regex entry("([^|]+)::([^/|]+)/([^|]+)");
  int entries = 0;
  bool pick_entry = false;
  for (std::sregex_iterator it(legend.begin(), legend.end(), entry), last; it != last; ++it) {
    ++entries;
    EXPECT_EQ((*it)[2].str(), (*it)[3].str()) << (*it)[1].str() << " in " << legend;
    if ((*it)[1].str().rfind("pick: ", 0) == 0) {
      pick_entry = true;
      EXPECT_EQ((*it)[2].str(), "#D62728");
    }
  }
  EXPECT_GT(entries, 0);
  EXPECT_TRUE(pick_entry) << legend;
  EXPECT_EQ(attribute(dom, status, "data-front-colour"), "#000000");
  EXPECT_NE(dom.find("Black step line and ringed markers: the Pareto front"), std::string::npos);
  EXPECT_NE(dom.find("Red star: the pick"), std::string::npos);
  EXPECT_EQ(dom.find("Red: the Pareto front"), std::string::npos);

  // No row label repeats within a table; mb:C's two configs are told apart by n_warpings.
  for (auto t = dom.find("<table class=\"front\">"); t != std::string::npos;
       t = dom.find("<table class=\"front\">", t + 1)) {
    const std::vector<std::string> labels =
        texts(dom, "<span class=\"row-label\"", t, dom.find(table_end, t));
    const std::set<std::string> unique(labels.begin(), labels.end());
    EXPECT_EQ(unique.size(), labels.size());
  }
  const auto c = dom.find("data-dataset=\"mb:C\"");
  ASSERT_NE(c, std::string::npos);
  const std::vector<std::string> c_labels =
      texts(dom, "<span class=\"row-label\"", c, dom.find(table_end, c));
  ASSERT_EQ(c_labels.size(), 2u);
  EXPECT_NE(c_labels[0].find("n_warpings="), std::string::npos) << c_labels[0];

  const fs::path png = fs::current_path() / "html_report_first_screen.png";
  fs::remove(png);
  EXPECT_EQ(
      run_chromium(chromium, dir_, page,
                   "--hide-scrollbars --window-size=1400,900 --screenshot=" + quoted(png.string())),
      0)
      << read_all(dir_ / "chromium.err");
  ASSERT_TRUE(fs::is_regular_file(png));
  EXPECT_EQ(read_all(png).substr(0, 8), "\x89PNG\r\n\x1a\n");
  std::cout << "screenshot: " << png.string() << "\n";
}

TEST_F(HtmlReportTest, WithoutChartJsThePageKeepsTheTablesAndEscapesTheData) {
  const std::string html = html_report(*repo_, "host", "");
  EXPECT_NE(html.find("id=\"no-chartjs\""), std::string::npos);
  EXPECT_EQ(html.find("Chart.js v"), std::string::npos);
  // Front over (time, aepe) of host mb:A: t=4, 6, 12, 20 (8 and 15 dominated).
  const auto a = html.find("data-dataset=\"mb:A\"");
  const std::string table = html.substr(a, html.find("</tbody></table>\n", a) - a);
  std::size_t rows = 0;
  for (auto p = table.find("\" data-id=\""); p != std::string::npos;
       p = table.find("\" data-id=\"", p + 1))
    ++rows;
  for (auto p = table.find("<tr data-id=\""); p != std::string::npos;
       p = table.find("<tr data-id=\"", p + 1))
    ++rows;
  EXPECT_EQ(rows, 4u);
  std::size_t item_rows = 0;
  for (auto p = table.find("<tr class=\"item\"><td>"); p != std::string::npos;
       p = table.find("<tr class=\"item\"><td>", p + 1))
    ++item_rows;
  EXPECT_EQ(item_rows, 4u * 2u) << "2 items per front row";
  std::size_t pictures = 0;
  for (auto p = table.find("<img class=\"item-image\""); p != std::string::npos;
       p = table.find("<img class=\"item-image\"", p + 1))
    ++pictures;
  EXPECT_EQ(pictures, 4u * 3u) << "flow, ground truth, endpoint error per front row";
  EXPECT_NE(table.find("src=\"data:image/png;base64,iVBORw0KGgo"), std::string::npos);
  EXPECT_NE(html.find("Endpoint error: black 0 px, white &gt;= 2.00 px"), std::string::npos);
  EXPECT_NE(html.find("<td>tile_x &gt; width</td><td class=\"num\">2</td>"), std::string::npos);
  EXPECT_NE(html.find("<td>runtime</td><td class=\"num\">1</td>"), std::string::npos);
  EXPECT_NE(html.find("illegal &lt;address&gt;"), std::string::npos);
  EXPECT_EQ(html.find("<b>bold"), std::string::npos);
  EXPECT_EQ(html.find("</script><script>document.title"), std::string::npos);
  EXPECT_NE(html.find("\\u003c/script>\\u003cscript>document.title"), std::string::npos);
  EXPECT_NE(html.find("&lt;/script&gt;&lt;script&gt;document.title"), std::string::npos);

  // The same page in Chromium reports that it has no plots, without errors.
  const std::string chromium = find_chromium();
  if (chromium.empty()) GTEST_SKIP() << "no chromium on PATH";
  const fs::path page = dir_ / "index.html";
  { std::ofstream(page) << html; }
  ASSERT_EQ(run_chromium(chromium, dir_, page, "--dump-dom"), 0) << read_all(dir_ / "chromium.err");
  const std::string dom = read_all(dir_ / "chromium.out");
  EXPECT_EQ(attribute(dom, "<div id=\"status\"", "data-state"), "no-chartjs");
  const std::string decoded = attribute(dom, "<div id=\"status\"", "data-images");
  EXPECT_EQ(decoded.substr(0, decoded.find('/')), decoded.substr(decoded.find('/') + 1));
  EXPECT_NE(decoded, "0/0");
  EXPECT_EQ(read_all(dir_ / "chromium.err").find(":CONSOLE"), std::string::npos);
}

TEST(HtmlReport, ChartJsFromTheEnvironmentOrNone) {
  const char* old = std::getenv("FLOWTUNE_CHARTJS");
  const std::string saved = old ? old : "";
  ::setenv("FLOWTUNE_CHARTJS", "/nonexistent/chart.js", 1);
  EXPECT_EQ(find_chartjs(), "");
  ::setenv("FLOWTUNE_CHARTJS", "", 1);
  EXPECT_EQ(find_chartjs(), "");
  if (old)
    ::setenv("FLOWTUNE_CHARTJS", saved.c_str(), 1);
  else
    ::unsetenv("FLOWTUNE_CHARTJS");
}

}  // namespace
}  // namespace flowtune::reports
