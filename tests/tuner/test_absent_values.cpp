// A parameter's absent value (ParamSpec::absent_value) against its default: what a stored DB
// row, tuned header or imported file without the parameter means (the older computation,
// median_window 0) versus what a new config takes (median_window 5). Oracles: a DB recorded
// before median_window existed (tests/tuner/fixtures/host_default.db.xz), its stored keys
// byte for byte, and hand-written config lines.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

#include "db/repository.hpp"
#include "select/config_rows.hpp"
#include "select/tuned_header_reader.hpp"
#include "variants/tvl1_params_of.hpp"
#include "workloads/workload.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

/// tests/tuner/fixtures/<name>.db.xz decompressed into a temporary file.
class OldDb {
 public:
  explicit OldDb(const std::string& name)
      : path_(fs::temp_directory_path() /
              ("flowtune_absent_" + std::to_string(::getpid()) + "_" + name + ".db")) {
    const std::string src =
        std::string(FLOWTUNE_TEST_SOURCE_DIR) + "/tests/tuner/fixtures/" + name + ".db.xz";
    const std::string cmd = "xz -dc '" + src + "' > '" + path_.string() + "'";
    if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cannot decompress " + src);
  }
  ~OldDb() { fs::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  fs::path path_;
};

// The key of IPOL's defaults with epsilon 0.005 (the defaults before median_window, 5
// warpings) on kokkos_global 128 x 16, as the host_default fixture stores it.
const char* const kKeyBefore =
    R"(tvl1 kokkos_global f32 {"tile_x":128,"tile_y":16} clock=0 {"epsilon":0.005,)"
    R"("iterations":300,"lambda":0.15,"n_scales":0,"n_warpings":5,"presmoothing_sigma":0.8,)"
    R"("tau":0.25,"theta":0.3,"zoom":0.5})";

Config default_config() {
  Config c;
  c.workload = "tvl1";
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables = {{"tile_x", 128}, {"tile_y", 16}};
  c.params = find_workload("tvl1").default_params();
  return c;
}

TEST(AbsentValues, TheMedianDefaultsToFiveAndIsAbsentAsOff) {
  const ParamSpec& m = *find_workload("tvl1").find_param("median_window");
  EXPECT_EQ(m.default_value, 5);
  EXPECT_EQ(m.absent_value, std::optional<double>(0));
  // The parameters of the first schema have none: every config gives them.
  EXPECT_FALSE(find_workload("tvl1").find_param("lambda")->absent_value.has_value());
}

// Every stored row of a DB written before median_window existed: no median_window in it, it
// means median 0, and the config it reads back as keeps its key byte for byte (a run
// resumes it), with or without the absent values filled in.
TEST(AbsentValues, RowsOfAnOldDbMeanTheMedianOffAndKeepTheirKeys) {
  const OldDb file("host_default");
  const db::Repository repo(file.path());
  const auto rows = repo.measured("host");
  ASSERT_EQ(rows.size(), 100u);
  const Workload& w = find_workload("tvl1");
  bool saw_before = false;
  for (const db::MeasuredConfig& mc : rows) {
    EXPECT_EQ(mc.config.params.count("median_window"), 0u) << mc.config.key;
    const Config c = to_config(mc.config);
    EXPECT_FALSE(w.check_params(c).has_value()) << mc.config.key;
    EXPECT_EQ(tvl1_params_of(c).median_window, 0) << mc.config.key;
    EXPECT_EQ(w.with_absent_values(c.params).at("median_window"), 0);
    EXPECT_EQ(to_config_row("host", c).key, mc.config.key);
    Config filled = c;
    filled.params = w.with_absent_values(c.params);
    EXPECT_EQ(to_config_row("host", filled).key, mc.config.key);
    saw_before = saw_before || mc.config.key == kKeyBefore;
  }
  EXPECT_TRUE(saw_before) << "the fixture holds the defaults of before";
}

// The defaults of before (median_window 0 given explicitly) keep their key; the new default
// config computes with the 5x5 median and says so in its key.
TEST(AbsentValues, KnownKeyStaysAndTheNewDefaultWritesTheMedian) {
  Config before = default_config();
  before.params["median_window"] = 0;
  EXPECT_EQ(to_config_row("host", before).key, kKeyBefore);
  EXPECT_EQ(db::config_key(to_config_row("host", before)), kKeyBefore);

  const Config now = default_config();
  EXPECT_EQ(tvl1_params_of(now).median_window, 5);
  const db::ConfigRow row = to_config_row("host", now);
  EXPECT_NE(row.key.find(R"("median_window":5)"), std::string::npos) << row.key;
  EXPECT_NE(row.key, kKeyBefore);
  // Back from the row: still the 5x5 median.
  EXPECT_EQ(tvl1_params_of(to_config(row)).median_window, 5);
}

// A tuned header's config line written before median_window existed (hand-written here, as
// `tune export` wrote it then) means median 0; one with median_window 5 means 5.
TEST(AbsentValues, TunedHeaderLinesWithoutTheMedianMeanOff) {
  const std::string old_line =
      R"({"workload":"tvl1","variant":"kokkos_global","precision":"f32","clock_mhz":0,)"
      R"("tunables":{"tile_x":32,"tile_y":4},"params":{"epsilon":0.005,"iterations":300,)"
      R"("lambda":0.15,"n_scales":0,"n_warpings":5,"presmoothing_sigma":0.8,"tau":0.25,)"
      R"("theta":0.3,"zoom":0.5}})";
  const Config old = parse_tuned_config(old_line);
  EXPECT_FALSE(find_workload("tvl1").check_params(old).has_value());
  EXPECT_EQ(tvl1_params_of(old).median_window, 0);
  std::string new_line = old_line;
  new_line.insert(new_line.find(R"("n_scales")"), R"("median_window":5,)");
  EXPECT_EQ(tvl1_params_of(parse_tuned_config(new_line)).median_window, 5);
}

// The schema's absent values and the conversion to the kernels' parameters
// (variants/tvl1_params_of.cpp, which cannot see the schema) agree on every parameter.
TEST(AbsentValues, SchemaAndParamsOfAgree) {
  const Workload& w = find_workload("tvl1");
  for (const ParamSpec& p : w.params()) {
    if (!p.absent_value) continue;
    Config c = default_config();
    c.params.erase(p.name);
    EXPECT_EQ(param_values_of(tvl1_params_of(c)).at(p.name), *p.absent_value) << p.name;
    EXPECT_EQ(w.with_absent_values(c.params).at(p.name), *p.absent_value) << p.name;
  }
}

}  // namespace
}  // namespace flowtune
