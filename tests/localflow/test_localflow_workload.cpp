// The workloads "bm" and "lk" (workloads/localflow/): schema, registry, runner, and the whole
// product on the host: tune -> DB -> report -> export.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "kernels/metrics.hpp"
#include "tests/localflow/localflow_test_data.hpp"
#include "tests/tuner/tune_process.hpp"
#include "workloads/localflow/localflow_workload.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

std::vector<std::string> names_of(const std::vector<const Variant*>& vs) {
  std::vector<std::string> out;
  for (const Variant* v : vs) out.push_back(v->name());
  return out;
}

TEST(LocalFlowWorkloads, SchemaAndRegistry) {
  for (const Workload* w : {&bm_workload(), &lk_workload(), &features_workload()}) {
    SCOPED_TRACE(w->name());
    EXPECT_EQ(&find_workload(w->name()), w);
    EXPECT_EQ(w->work_unit(), "px");
    EXPECT_EQ(w->front_objectives(), (std::vector<std::string>{"time_ms", "aepe"}));
    ASSERT_GE(w->metrics().size(), 2u);
    EXPECT_EQ(w->metrics()[0].name, "aepe");  // the names TV-L1 uses: one cross-algorithm front
    EXPECT_EQ(w->metrics()[1].name, "aae_deg");
    for (const Variant* v : w->variants()) {
      EXPECT_EQ(v->workload(), w->name());
      EXPECT_EQ(find_variant(v->name()), v);
      EXPECT_EQ(find_flow_variant(v->name()), nullptr);  // not a TV-L1 variant
    }
    for (const char* target : {"cpu", "cuda"})
      for (const auto& [name, values] : w->default_dimensions(target)) {
        const ParamSpec* spec = w->find_param(name);
        ASSERT_NE(spec, nullptr) << name;
        for (double v : values) EXPECT_EQ(spec->invalid_reason(v), std::nullopt);
      }
    Config c;
    c.workload = w->name();
    c.params = w->default_params();
    EXPECT_EQ(w->check_params(c), std::nullopt);
    EXPECT_GT(w->relative_cost(c), 0);
  }
  const auto bm = names_of(bm_workload().variants()), lk = names_of(lk_workload().variants());
  EXPECT_EQ(bm.front(), "bm_cpu");
  EXPECT_EQ(lk.front(), "lk_cpu");
  EXPECT_EQ(names_of(features_workload().variants()).front(), "feat_cpu");
#ifdef FLOWTUNE_HAVE_CUDA
  EXPECT_EQ(names_of(features_workload().variants()),
            (std::vector<std::string>{"feat_cpu", "feat_cuda"}));
#endif
  ASSERT_EQ(features_workload().metrics().size(), 3u);
  EXPECT_EQ(features_workload().metrics()[2].name, "unclassified");
#ifdef FLOWTUNE_HAVE_CUDA
  EXPECT_EQ(bm, (std::vector<std::string>{"bm_cpu", "bm_cuda"}));
  EXPECT_EQ(lk, (std::vector<std::string>{"lk_cpu", "lk_cuda"}));
#endif
  Config even;
  even.workload = "lk";
  even.params = lk_workload().default_params();
  even.params["window"] = 8;
  ASSERT_TRUE(lk_workload().invalid_reason(even).has_value());
  EXPECT_EQ(*lk_workload().invalid_reason(even), "window=8 is even");
}

TEST(LocalFlowWorkloads, RunnerScoresAgainstTheGroundTruth) {
  const auto inputs = bm_workload().load_inputs({test::repo_middlebury_dir(), {"RubberWhale"}, 0});
  ASSERT_EQ(inputs->size(), 1u);
  EXPECT_EQ(inputs->key(), "middlebury:RubberWhale");  // TV-L1's key: shared datasets
  Config c;
  c.workload = "bm";
  c.variant = "bm_cpu";
  c.params = bm_workload().default_params();
  auto runner = bm_workload().make_runner(c, *inputs);
  runner->run(0);
  const auto metrics = runner->score(0);
  const test::FramePair f = test::load_pair(test::repo_middlebury_dir(), "RubberWhale");
  const FlowError e = flow_error(localflow::block_matching(f.i0, f.i1, {}), f.gt);
  EXPECT_DOUBLE_EQ(metrics.at("aepe"), e.aepe);
  EXPECT_DOUBLE_EQ(metrics.at("aae_deg"), e.aae_deg);
  c.variant = "lk_cpu";
  EXPECT_THROW(bm_workload().make_runner(c, *inputs), std::invalid_argument);
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// tune (host) for both workloads into one DB, the report and an exported header.
TEST(LocalFlowWorkloads, TuneReportAndExportOnTheHost) {
  if (!test::tune_exe_exists())
    GTEST_SKIP() << "no tune executable at " << FLOWTUNE_TUNE_EXE << " (build tree absent)";
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_localflow_" + std::to_string(getpid()));
  fs::create_directories(dir);
  const std::string db = (dir / "t.db").string();
  const std::string common = " --board host --db " + db + " --data " + test::repo_middlebury_dir() +
                             " --items RubberWhale --max-rounds 0";
  const auto bm = test::run_tune("--workload bm --param block=8,16 --param similarity=1" + common);
  ASSERT_EQ(bm.exit_code, 0) << bm.output;
  EXPECT_NE(bm.output.find("2 measured now"), std::string::npos) << bm.output;
  const auto lk = test::run_tune("--workload lk --param window=5 --param iterations=1" + common);
  ASSERT_EQ(lk.exit_code, 0) << lk.output;
  EXPECT_NE(lk.output.find("1 measured now"), std::string::npos) << lk.output;
  const auto ff =
      test::run_tune("--workload features --param method=1 --param features=100" + common);
  ASSERT_EQ(ff.exit_code, 0) << ff.output;
  EXPECT_NE(ff.output.find("unclassified"), std::string::npos) << ff.output;
  // A second run resumes: nothing measured again.
  const auto again = test::run_tune("--workload lk --param window=5 --param iterations=1" + common);
  EXPECT_NE(again.output.find("0 measured now"), std::string::npos) << again.output;

  const auto report =
      test::run_tune("report --board host --db " + db + " -o " + (dir / "r").string());
  ASSERT_EQ(report.exit_code, 0) << report.output;
  const std::string md = read_text(dir / "r" / "report.md");
  EXPECT_NE(md.find("bm_cpu"), std::string::npos);
  EXPECT_NE(md.find("lk_cpu"), std::string::npos);
  // bm and lk measured the same dataset: one cross-algorithm front over (time_ms, aepe).
  EXPECT_NE(md.find("## Cross-algorithm front, dataset middlebury:RubberWhale (4 configs of 3 "
                    "workloads)"),
            std::string::npos)
      << md;
  EXPECT_TRUE(fs::exists(dir / "r" / "cross_front_1.svg"));
  EXPECT_NE(read_text(dir / "r" / "pareto.csv").find("cross_time_ms_aepe,middlebury:RubberWhale"),
            std::string::npos);

  // Every workload section embeds its own plot, not the first section's.
  std::set<std::string> plots;
  for (std::size_t at = md.find("![Pareto front"); at != std::string::npos;
       at = md.find("![Pareto front", at + 1)) {
    const std::size_t open = md.find("](", at) + 2;
    const std::string file = md.substr(open, md.find(')', open) - open);
    EXPECT_TRUE(fs::exists(dir / "r" / file)) << file;
    EXPECT_TRUE(plots.insert(file).second) << file << " embedded twice:\n" << md;
  }
  EXPECT_EQ(plots.size(), 3u) << md;  // bm, lk, features (features has two objectives too)

  const std::string header = (dir / "tuned.h").string();
  // Three workloads measured the dataset: export names them instead of picking one.
  const auto ambiguous =
      test::run_tune("export --board host --db " + db + " --objective aepe -o " + header);
  EXPECT_EQ(ambiguous.exit_code, 1) << ambiguous.output;
  EXPECT_NE(ambiguous.output.find("several workloads (bm, features, lk); choose one with "
                                  "--workload"),
            std::string::npos)
      << ambiguous.output;
  EXPECT_FALSE(fs::exists(header));
  const auto no_tvl1 = test::run_tune("export --board host --db " + db +
                                      " --workload tvl1 --objective aepe -o " + header);
  EXPECT_EQ(no_tvl1.exit_code, 1) << no_tvl1.output;
  EXPECT_NE(no_tvl1.output.find("no measurements of workload 'tvl1'"), std::string::npos)
      << no_tvl1.output;
  const auto unknown = test::run_tune("export --board host --db " + db +
                                      " --workload nope --objective aepe -o " + header);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  const auto exported = test::run_tune("export --board host --db " + db +
                                       " --workload lk --objective aepe -o " + header);
  ASSERT_EQ(exported.exit_code, 0) << exported.output;
  const std::string h = read_text(header);
  EXPECT_NE(h.find("kWorkload = \"lk\""), std::string::npos) << h;
  EXPECT_NE(h.find("kLevels = "), std::string::npos) << h;
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
