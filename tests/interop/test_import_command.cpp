// `tune import` end to end: a bad file exits 1 naming the file, the entry and the field and
// writes nothing; a good one is written in one run; the same file twice is a no-op.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "db/repository.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

class ImportCommand : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_import_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& text) {
    const std::string p = (dir_ / name).string();
    std::ofstream(p) << text;
    return p;
  }
  std::string db() const { return (dir_ / "t.db").string(); }
  test::TuneResult import(const std::string& file) {
    return test::run_tune("import " + file + " --board host --db " + db());
  }
  fs::path dir_;
};

/// A plain Kernel Tuner cache (no "flowtune" object) of TV-L1's kokkos_global variant.
std::string cache(const std::string& third_time) {
  const auto entry = [](int tile_x, const std::string& time) {
    const std::string x = std::to_string(tile_x);
    return "\"kokkos_global,f32," + x +
           ",1\": {\"variant\": \"kokkos_global\", \"precision\": " + "\"f32\", \"tile_x\": " + x +
           ", \"tile_y\": 1" + (time.empty() ? "" : ", " + time) + "}";
  };
  return R"({"kernel_name": "tvl1", "device_name": "cpu",
             "tune_params_keys": ["variant", "precision", "tile_x", "tile_y"], "cache": {)" +
         entry(8, "\"time\": 2.5") + "," + entry(16, "\"time\": 2.0") + "," +
         entry(32, third_time) + "}}";
}

std::size_t count_runs(const std::string& path) {
  if (!fs::exists(path)) return 0;
  return db::Repository(path, db::OpenMode::read_only).runs().size();
}

std::size_t count_measured(const std::string& path) {
  if (!fs::exists(path)) return 0;
  return db::Repository(path, db::OpenMode::read_only).measured("host", "kernel_tuner:cpu").size();
}

TEST_F(ImportCommand, ABadEntryWritesNothingAndTheCorrectedFileThenImportsOnce) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  const std::string bad = write("bad.json", cache(""));  // the third entry lacks its time
  const test::TuneResult r = import(bad);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(bad + ": entry 'kokkos_global,f32,32,1', field 'time'"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(count_runs(db()), 0u);
  EXPECT_EQ(count_measured(db()), 0u);

  const std::string good = write("good.json", cache("\"time\": 1.5"));
  const test::TuneResult ok = import(good);
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("3 measured, 0 failed, 0 pruned"), std::string::npos) << ok.output;
  ASSERT_EQ(count_runs(db()), 1u);
  EXPECT_EQ(db::Repository(db(), db::OpenMode::read_only).runs()[0].status, "done");
  EXPECT_EQ(count_measured(db()), 3u);

  const test::TuneResult again = import(good);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("nothing imported"), std::string::npos) << again.output;
  EXPECT_EQ(count_runs(db()), 1u);
  EXPECT_EQ(count_measured(db()), 3u);

  // The same configs with another time: refused, nothing written.
  const test::TuneResult other = import(write("other.json", cache("\"time\": 9")));
  EXPECT_EQ(other.exit_code, 1) << other.output;
  EXPECT_NE(other.output.find("entry 'kokkos_global,f32,32,1'"), std::string::npos) << other.output;
  EXPECT_NE(other.output.find("already"), std::string::npos) << other.output;
  EXPECT_EQ(count_runs(db()), 1u);
}

TEST_F(ImportCommand, EveryFieldIsCheckedAgainstTheWorkloadSchema) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  struct Case {
    std::string from, to, field;
  };
  const Case cases[] = {
      {"\"tile_x\": 32", "\"tile_x\": \"<img src=x onerror=alert(1)>\"", "tile_x"},
      {"\"tile_x\": 32", "\"tile_x\": 33", "tile_x"},  // not in the tunable's domain
      {"\"time\": 1.5", "\"time\": -5", "time"},
      {"\"time\": 1.5", "\"time\": 1.2e29", "time"},
      {"\"time\": 1.5", "\"time\": 1.5, \"aepe\": -1", "aepe"},
  };
  for (const Case& c : cases) {
    std::string text = cache("\"time\": 1.5");
    const std::size_t at = text.rfind(c.from);
    ASSERT_NE(at, std::string::npos);
    text.replace(at, c.from.size(), c.to);
    const std::string file = write("case.json", text);
    const test::TuneResult r = import(file);
    EXPECT_EQ(r.exit_code, 1) << c.to << ": " << r.output;
    EXPECT_NE(r.output.find(file + ": entry '"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("field '" + c.field + "'"), std::string::npos) << r.output;
  }
  // An unknown variant, a precision the variant lacks, a parameter out of its range.
  const std::pair<std::string, std::string> schema[] = {
      {"\"variant\": \"kokkos_global\", \"precision\": \"f32\", \"tile_x\": 32",
       "\"variant\": \"nope\", \"precision\": \"f32\", \"tile_x\": 32"},
      {"\"precision\": \"f32\", \"tile_x\": 32", "\"precision\": \"f64\", \"tile_x\": 32"},
  };
  for (const auto& [from, to] : schema) {
    std::string text = cache("\"time\": 1.5");
    text.replace(text.rfind(from), from.size(), to);
    const test::TuneResult r = import(write("schema.json", text));
    EXPECT_EQ(r.exit_code, 1) << r.output;
    EXPECT_NE(r.output.find("entry 'kokkos_global,f32,32,1', field '"), std::string::npos)
        << r.output;
  }
  std::string param = cache("\"time\": 1.5");
  param.replace(param.find("\"tune_params_keys\": [\"variant\""),
                std::string("\"tune_params_keys\": [\"variant\"").size(),
                "\"tune_params_keys\": [\"variant\", \"lambda\"");
  const std::string with_lambda = std::string("\"lambda\": 20, ");
  for (std::size_t at = param.find("\"variant\": \"kokkos"); at != std::string::npos;
       at = param.find("\"variant\": \"kokkos", at + with_lambda.size() + 1))
    param.insert(at, with_lambda);
  const test::TuneResult r = import(write("param.json", param));
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("field 'lambda'"), std::string::npos) << r.output;
  EXPECT_EQ(count_runs(db()), 0u);
}

TEST_F(ImportCommand, AT4FileWithoutWorkloadNamesTheFileAndWhatIsMissing) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  const std::string file = write("t4.json", R"({"schema_version": "1.0.0", "results": [
      {"configuration": {"variant": "kokkos_global", "precision": "f32", "tile_x": 8,
       "tile_y": 1}, "invalidity": "correct",
       "measurements": [{"name": "time", "value": 1.5, "unit": "ms"}]}]})");
  const test::TuneResult r = import(file);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find(file + ": the file names no workload"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--workload"), std::string::npos) << r.output;
  const test::TuneResult ok =
      test::run_tune("import " + file + " --workload tvl1 --board host --db " + db());
  EXPECT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("1 measured"), std::string::npos) << ok.output;
}

/// A plain cache of n distinct kokkos_global configs (tile_x, tile_y from the domain,
/// iterations 1 + i / 25), entry i's time 0.25 * (1 + i % 13) ms; entry i lacks its time when
/// i is in missing.
std::string many(int n, const std::set<int>& missing) {
  const int xs[] = {8, 16, 32, 64, 128}, ys[] = {1, 2, 4, 8, 16};
  std::string s = R"({"kernel_name": "tvl1", "device_name": "cpu", "tune_params_keys": )"
                  R"(["variant", "precision", "tile_x", "tile_y", "iterations"], "cache": {)";
  for (int i = 0; i < n; ++i) {
    const std::string x = std::to_string(xs[i % 5]), y = std::to_string(ys[(i / 5) % 5]),
                      it = std::to_string(1 + i / 25);
    s += std::string(i ? "," : "") + "\"kokkos_global,f32," + x + "," + y + "," + it +
         "\": {\"variant\": \"kokkos_global\", \"precision\": \"f32\", \"tile_x\": " + x +
         ", \"tile_y\": " + y + ", \"iterations\": " + it +
         (missing.count(i) ? "" : ", \"time\": " + std::to_string(0.25 * (1 + i % 13))) + "}\n";
  }
  return s + "}}";
}

TEST_F(ImportCommand, AFileOfManyEntriesReadOnEveryCoreImportsAsReadInOrder) {
  if (!test::tune_exe_exists()) GTEST_SKIP() << "no tune executable";
  const int n = 5000;  // ~20 blocks of 256 entries, spread over the cores
  // Two bad entries in different blocks: the first in file order is reported, nothing written.
  const std::string bad = write("bad.json", many(n, {4321, 1234}));
  const test::TuneResult r = import(bad);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const int i = 1234;
  const int xs[] = {8, 16, 32, 64, 128}, ys[] = {1, 2, 4, 8, 16};
  const std::string key = "kokkos_global,f32," + std::to_string(xs[i % 5]) + "," +
                          std::to_string(ys[(i / 5) % 5]) + "," + std::to_string(1 + i / 25);
  EXPECT_NE(r.output.find(bad + ": entry '" + key + "', field 'time'"), std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("4321"), std::string::npos) << r.output;
  EXPECT_EQ(count_runs(db()), 0u);
  EXPECT_FALSE(fs::exists(db()));  // not even created

  const std::string good = write("good.json", many(n, {}));
  const test::TuneResult ok = import(good);
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find(std::to_string(n) + " measured, 0 failed, 0 pruned"), std::string::npos)
      << ok.output;
  {
    db::Repository repo(db(), db::OpenMode::read_only);
    const auto rows = repo.measured("host", "kernel_tuner:cpu");
    ASSERT_EQ(rows.size(), std::size_t(n));
    // Each config's time as the generator wrote it (a map: the order of rows is the store's).
    std::map<std::string, double> times;
    for (const auto& m : rows)
      times[m.config.label + " " + db::params_json(m.config.params)] = m.measurement.time_ms_median;
    ASSERT_EQ(times.size(), std::size_t(n));  // n distinct configs
    for (int j = 0; j < n; j += 97) {
      const std::string label = "kokkos_global f32 tile_x=" + std::to_string(xs[j % 5]) +
                                " tile_y=" + std::to_string(ys[(j / 5) % 5]);
      std::size_t found = 0;
      for (const auto& [k, t] : times)
        if (k.rfind(label + " ", 0) == 0 &&
            k.find(",\"iterations\":" + std::to_string(1 + j / 25) + ",") != std::string::npos) {
          ++found;
          EXPECT_EQ(t, 0.25 * (1 + j % 13)) << k;
        }
      EXPECT_EQ(found, 1u) << label;
    }
  }
  const test::TuneResult again = import(good);
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("nothing imported"), std::string::npos) << again.output;
  EXPECT_EQ(count_runs(db()), 1u);
  EXPECT_EQ(count_measured(db()), std::size_t(n));
}

}  // namespace
}  // namespace flowtune
