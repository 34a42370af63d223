// The report model (reports/report_model.hpp) and the report sections rendered from it: the
// model is read once, then report.md and index.html come from the model alone.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <string>

#include "reports/html_report.hpp"
#include "reports/markdown_report.hpp"
#include "reports/report.hpp"
#include "reports/report_model.hpp"
#include "reports/sections/section.hpp"
#include "tests/reports/test_files.hpp"

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

using test::read_all;

db::ConfigRow config(const std::string& board, const std::string& workload, int tile_x) {
  db::ConfigRow c;
  c.board = board;
  c.workload = workload;
  c.variant = "global";
  c.precision = "f32";
  c.tunables = {{"tile_x", tile_x}};
  c.label = workload + " tile_x=" + std::to_string(tile_x);
  c.params = {{"iterations", static_cast<double>(tile_x)}};
  c.key = db::config_key(c);
  return c;
}

db::MeasurementRow measurement(std::int64_t run, const std::string& dataset, double time_ms,
                               double aepe) {
  db::MeasurementRow m;
  m.run_id = run;
  m.dataset = dataset;
  m.time_ms_median = m.time_ms_min = m.time_ms_max = time_ms;
  m.n_repeats = 1;
  m.ns_per_unit = time_ms;
  m.metrics = {{"aepe", aepe}};
  return m;
}

// Board host: tvl1 and bm on dataset "mb" (a cross-algorithm front), tvl1 on "small";
// 1 pruned, 1 failure. Board nano: tvl1 on "mb".
void fill(db::Repository& repo) {
  for (const char* name : {"tvl1", "bm"}) {
    db::WorkloadRow w;
    w.name = name;
    w.work_unit = "px";
    w.front_objectives = {"time_ms", "aepe"};
    w.metrics = {{"aepe", "px", "endpoint error", true}};
    repo.record_workload(w);
  }
  const std::int64_t r = repo.begin_run({"host", "tvl1", "tune", "", "", "", "", "", "", ""});
  for (int i = 1; i <= 3; ++i) {
    repo.record_measurement(config("host", "tvl1", 8 * i), measurement(r, "mb", i, 1.0 / i));
    repo.record_measurement(config("host", "bm", 8 * i), measurement(r, "mb", i + 0.5, 0.5 / i));
  }
  repo.record_measurement(config("host", "tvl1", 8), measurement(r, "small", 1, 1));
  repo.record_pruned(r, config("host", "tvl1", 4096), "too wide");
  repo.record_failure(r, config("host", "tvl1", 16), "small", "runtime", "crashed");
  repo.end_run(r, "done");
  const std::int64_t n = repo.begin_run({"nano", "tvl1", "tune", "", "", "", "", "", "", ""});
  repo.record_measurement(config("nano", "tvl1", 8), measurement(n, "mb", 3, 1));
  repo.end_run(n, "done");
}

class ReportModelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_report_model_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    repo_ = std::make_unique<db::Repository>((dir_ / "f.db").string());
    fill(*repo_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::unique_ptr<db::Repository> repo_;
};

TEST_F(ReportModelTest, HoldsBoardsFrontsAndViews) {
  const ReportModel m = load_report_model(*repo_, "nano");
  ASSERT_EQ(m.boards.size(), 2u);
  EXPECT_EQ(m.board, "nano");
  EXPECT_EQ(m.reported().name, "nano");  // the reported board first, then the others
  EXPECT_EQ(m.boards[1].name, "host");
  EXPECT_EQ(m.workloads.size(), 2u);
  EXPECT_EQ(m.fronts.size(), 1u);  // nano: tvl1 on mb
  EXPECT_TRUE(m.cross.empty());

  const ReportModel h = load_report_model(*repo_, "host");
  const BoardModel& host = h.reported();
  EXPECT_EQ(host.measured.size(), 7u);
  EXPECT_EQ(host.pruned.size(), 1u);
  EXPECT_EQ(host.failures.size(), 1u);
  EXPECT_EQ(host.runs.size(), 1u);
  EXPECT_EQ(host.datasets, (std::vector<std::string>{"mb", "small"}));
  // Per dataset and workload: mb/tvl1, mb/bm, small/tvl1.
  ASSERT_EQ(h.fronts.size(), 3u);
  EXPECT_EQ(h.fronts[1].workload.name, "bm");
  EXPECT_EQ(h.fronts[1].front.size(), 3u);
  ASSERT_EQ(h.cross.size(), 1u);
  EXPECT_EQ(h.cross[0].measured.size(), 6u);
  // The HTML view: per dataset all its configs, one plot (time_ms vs aepe).
  ASSERT_EQ(host.views.size(), 2u);
  EXPECT_EQ(host.views[0].data.measured.size(), 6u);
  EXPECT_EQ(host.views[0].plots.size(), 1u);
}

TEST_F(ReportModelTest, RenderersNeedOnlyTheModel) {
  const fs::path out = dir_ / "report";
  write_report(*repo_, "host", out.string());
  const std::string html = html_report(*repo_, "host", "");
  const ReportModel model = load_report_model(*repo_, "host");
  repo_.reset();
  fs::remove(dir_ / "f.db");
  EXPECT_EQ(markdown_report(model), read_all(out / "report.md"));
  EXPECT_EQ(html_report(model, ""), html);
}

TEST(ReportSections, ListedOnceInPageOrder) {
  std::vector<std::string> names;
  for (const Section& s : report_sections()) {
    names.push_back(s.name);
    EXPECT_TRUE(s.markdown || s.html) << s.name;
  }
  EXPECT_EQ(names, (std::vector<std::string>{"summary", "overview", "runs", "fronts", "cross",
                                             "predicted", "pruned", "failures"}));
}

}  // namespace
}  // namespace flowtune::reports
