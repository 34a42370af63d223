#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "reports/report.hpp"
#include "reports/svg_plot.hpp"
#include "reports/text_format.hpp"
#include "tests/reports/test_files.hpp"

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

using test::read_all;

std::size_t count_lines(const std::string& text) {
  return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
}

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string::npos; pos = text.find(needle, pos + 1))
    ++n;
  return n;
}

db::ConfigRow config(int tile_x) {
  db::ConfigRow c;
  c.board = "host";
  c.workload = "tvl1";
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables = {{"tile_x", tile_x}, {"tile_y", 4}};
  c.label = "kokkos_global tile_x=" + std::to_string(tile_x);
  c.params = {{"iterations", 10}, {"n_scales", 1}, {"lambda", tile_x < 64 ? 0.15 : 0.3}};
  c.key = db::config_key(c);
  return c;
}

db::MeasurementRow measurement(std::int64_t run, double time_ms, double aepe) {
  db::MeasurementRow m;
  m.run_id = run;
  m.dataset = "middlebury:Grove2,RubberWhale";
  m.time_ms_median = m.time_ms_min = m.time_ms_max = time_ms;
  m.n_repeats = 3;
  m.ns_per_unit = time_ms * 1e6 / 307200.0;
  m.metrics = {{"aepe", aepe}, {"aae_deg", aepe * 10}};
  m.items = {{"Grove2", time_ms, {{"aepe", aepe}, {"aae_deg", 1.0}}},
             {"RubberWhale", time_ms, {{"aepe", aepe}, {"aae_deg", 2.0}}}};
  return m;
}

class ReportTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_report_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

TEST_F(ReportTest, WritesAllFilesWithTheRightRowCounts) {
  db::Repository repo((dir_ / "f.db").string());
  db::WorkloadRow w;
  w.name = "tvl1";
  w.work_unit = "px";
  w.front_objectives = {"time_ms", "aepe"};
  w.metrics = {{"aepe", "px", "endpoint error", true}, {"aae_deg", "deg", "angular error", true}};
  repo.record_workload(w);
  const std::int64_t r1 =
      repo.begin_run({"host", "tvl1", "tune --board host", "abc", "ci", "", "", "", "", "mb"});
  // (time, AEPE): front = tile 8 (4, 0.9), tile 16 (6, 0.5), tile 64 (12, 0.2); 32 and 128
  // dominated.
  repo.record_measurement(config(8), measurement(r1, 4, 0.9));
  repo.record_measurement(config(16), measurement(r1, 6, 0.5));
  repo.record_measurement(config(32), measurement(r1, 8, 0.6));
  repo.end_run(r1, "interrupted");
  const std::int64_t r2 =
      repo.begin_run({"host", "tvl1", "tune --board host", "abc", "ci", "", "", "", "", "mb"});
  repo.record_measurement(config(64), measurement(r2, 12, 0.2));
  repo.record_measurement(config(128), measurement(r2, 15, 0.2));
  repo.record_pruned(r2, config(4096), "tile_x 4096 > frame width 640");
  repo.record_pruned(r2, config(8192), "tile_x 8192 > frame width 640");
  repo.record_failure(r2, config(256), "mb", "runtime", "illegal <address> | in kernel");
  repo.end_run(r2, "done");

  const fs::path out = dir_ / "report" / "host";
  write_report(repo, "host", out.string());
  for (const char* f : {"runs.csv", "measurements.csv", "pruned.csv", "failures.csv", "pareto.csv",
                        "report.md", "pareto_time_aepe.svg"}) {
    EXPECT_TRUE(fs::is_regular_file(out / f)) << f;
  }
  EXPECT_FALSE(fs::exists(out / "pareto_time_energy.svg"));  // no energy measured
  EXPECT_EQ(count_lines(read_all(out / "runs.csv")), 1u + 2u);
  const std::string meas = read_all(out / "measurements.csv");
  EXPECT_EQ(count_lines(meas), 1u + 5u);
  EXPECT_NE(meas.find("aepe_RubberWhale"), std::string::npos);
  EXPECT_NE(meas.find(",lambda,"), std::string::npos) << "one column per parameter";
  EXPECT_EQ(count_lines(read_all(out / "failures.csv")), 1u + 1u);
  EXPECT_EQ(count_lines(read_all(out / "pruned.csv")), 1u + 2u);
  const std::string pareto = read_all(out / "pareto.csv");
  EXPECT_EQ(count_lines(pareto), 1u + 3u);
  EXPECT_NE(pareto.find("kokkos_global tile_x=64,"), std::string::npos);
  EXPECT_EQ(pareto.find("kokkos_global tile_x=32,"), std::string::npos);
  const std::string svg = read_all(out / "pareto_time_aepe.svg");
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  EXPECT_EQ(count_of(svg, "r=\"3\" fill=\"#9e9e9e\""), 5u + 1u);  // points + legend
  EXPECT_EQ(count_of(svg, "r=\"4\" fill=\"#d32f2f\""), 3u + 1u);
  const std::string md = read_all(out / "report.md");
  for (const char* part :
       {"board host", "5 measured configs, 2 pruned configs, 1 failures, 2 run(s)",
        "Pareto front: time_ms vs aepe (3 configs)", "interrupted",
        "tile_x 4096 &gt; frame width 640",
        // both pruned configs in one row: the limit, not each config's figures
        "| tile_x N &gt; frame width N | 2 | tile_x 4096 &gt; frame width 640; tile_x 8192",
        "| time_ms | kokkos_global tile_x=8 |", "#### Per item (the front's configs)",
        "| kokkos_global tile_x=8 | Grove2 | 4.000 | 0.9000 | 1.0000 |",
        "| kokkos_global tile_x=64 | RubberWhale | 12.000 | 0.2000 | 2.0000 |",
        "| aepe | kokkos_global tile_x=64 |", "| kokkos_global tile_x=16 | lambda=0.15 |",
        "illegal &lt;address&gt; \\| in kernel"}) {
    EXPECT_NE(md.find(part), std::string::npos) << "missing: " << part;
  }
}

TEST_F(ReportTest, ErrorsNameTheBoardOrTheDirectory) {
  db::Repository repo((dir_ / "f.db").string());
  EXPECT_THROW(write_report(repo, "host", (dir_ / "r").string()), std::runtime_error);
  repo.begin_run({"host", "tvl1", "", "", "", "", "", "", "", ""});
  { std::ofstream(dir_ / "a_file") << "x"; }
  const std::string bad = (dir_ / "a_file" / "sub").string();
  try {
    write_report(repo, "host", bad);
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
}

TEST(TextFormat, DataCannotBecomeMarkupOrFormulas) {
  using detail::csv_field;
  using detail::md_cell;
  EXPECT_EQ(md_cell("<img src=x onerror=alert(1)>"), "&lt;img src=x onerror=alert(1)&gt;");
  EXPECT_EQ(md_cell("<svg onload=x>|`code`"), "&lt;svg onload=x&gt;\\|&#96;code&#96;");
  EXPECT_EQ(md_cell("a & b\n[link](x)"), "a &amp; b \\[link\\](x)");
  EXPECT_EQ(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
  EXPECT_EQ(csv_field("@SUM(A1)"), "'@SUM(A1)");
  EXPECT_EQ(csv_field("+cmd"), "'+cmd");
  EXPECT_EQ(csv_field("-0.5"), "-0.5");  // numbers stay numbers
  EXPECT_EQ(csv_field("-1e-05"), "-1e-05");
  EXPECT_EQ(csv_field("plain"), "plain");
}

TEST(ParetoTable, FixedWidthWithNaForMissingEnergy) {
  db::MeasuredConfig a, b;
  a.config.label = "short";
  a.measurement.time_ms_median = 1.5;
  a.measurement.metrics["aepe"] = 0.25;
  b.config.label = "a much longer label";
  b.measurement.time_ms_median = 12.25;
  b.measurement.energy_mj = 3.5;
  const std::string t = format_pareto_table({a, b});
  EXPECT_EQ(count_lines(t), 4u);
  std::vector<std::size_t> widths;
  std::size_t start = 0;
  for (auto nl = t.find('\n'); nl != std::string::npos; nl = t.find('\n', start)) {
    widths.push_back(nl - start);
    start = nl + 1;
  }
  for (std::size_t w : widths) EXPECT_EQ(w, widths[0]);
  EXPECT_NE(t.find("n/a"), std::string::npos);
  EXPECT_NE(t.find("3.500"), std::string::npos);
  EXPECT_NE(t.find("12.250"), std::string::npos);
  EXPECT_NE(t.find("0.2500"), std::string::npos);
}

// A front of one config says what won: all its parameters, not an empty column.
TEST(ParetoTable, OneConfigShowsEveryParameter) {
  db::MeasuredConfig a;
  a.config.label = "kokkos_global tile_x=8";
  a.config.params = {{"iterations", 30}, {"lambda", 0.15}};
  a.measurement.time_ms_median = 1.5;
  const std::string t = format_pareto_table({a});
  EXPECT_NE(t.find("iterations=30 lambda=0.15"), std::string::npos) << t;
  // Two configs: only what differs.
  db::MeasuredConfig b = a;
  b.config.params["iterations"] = 10;
  const std::string t2 = format_pareto_table({a, b});
  EXPECT_NE(t2.find("iterations=10"), std::string::npos) << t2;
  EXPECT_EQ(t2.find("lambda"), std::string::npos) << t2;
}

TEST(SvgPlot, NiceTicksCoverTheRangeWithRoundSteps) {
  EXPECT_EQ(nice_ticks(0, 9.3), std::vector<double>({0, 2, 4, 6, 8, 10}));
  // Range 0.40 / 5 = 0.08 -> step 0.1 (Heckbert's rounding), from 0.1 up to 0.6.
  const std::vector<double> expected = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  const auto ticks = nice_ticks(0.12, 0.52);
  ASSERT_EQ(ticks.size(), expected.size());
  for (std::size_t i = 0; i < ticks.size(); ++i) EXPECT_NEAR(ticks[i], expected[i], 1e-12);
  const auto single = nice_ticks(5, 5);
  EXPECT_LT(single.front(), 5);
  EXPECT_GT(single.back(), 5);
  EXPECT_NE(scatter_svg({}, {}, {}, "t", "x", "y").find("no data"), std::string::npos);
}

}  // namespace
}  // namespace flowtune::reports
