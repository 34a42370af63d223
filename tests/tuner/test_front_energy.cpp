// The energy pass after the search (tuner/front_energy.hpp), through `tune` with the fake
// measurer and the constant-power sensor double of tests/doubles: a default run (energy not
// an objective) stores the energy of every front point, within its share of the time budget,
// and a board without a sensor says so in one line. Oracle: the double's power P, so each
// front point must read P watts and P x its time per execution in mJ; the points off the
// front were never measured with energy.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "db/repository.hpp"
#include "select/objectives.hpp"
#include "tests/test_dir.hpp"
#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

constexpr double kWatts = 40;

// A 24-point space of the fake measurer (its figures depend on the config key only).
std::string space_args() {
  return std::string(" --board host --data ") + FLOWTUNE_TEST_REPO_DATA +
         "/middlebury --sequences RubberWhale --variant kokkos_global --no-default-dimensions "
         "--tunable tile_x=16,32,64,128 --tunable tile_y=1,2,4 --param iterations=20,30 "
         "--param n_scales=2 --param n_warpings=1 --param epsilon=0 --strategy brute_force";
}

test::TuneResult run(const std::string& env, const std::string& args, bool with_stderr = true) {
  const std::string cmd = env + " " + FLOWTUNE_TEST_MEASURER_EXE + " " + args +
                          (with_stderr ? " 2>&1" : " 2>/dev/null");
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  char buf[4096];
  while (std::fgets(buf, sizeof buf, pipe.get())) out += buf;
  const int status = pclose(pipe.release());
  return {WEXITSTATUS(status), out};
}

std::size_t count_lines_with(const std::string& text, const std::string& what) {
  std::istringstream in(text);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);)
    if (line.find(what) != std::string::npos) ++n;
  return n;
}

class FrontEnergy : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = test::per_test_dir("flowtune_front_energy");
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    db_ = (dir_ / "t.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
  std::string db_;
};

TEST_F(FrontEnergy, ADefaultRunStoresTheEnergyOfEveryFrontPointWithinItsShare) {
  const std::string env =
      "FLOWTUNE_TEST_FAKE_MEASURE=0 FLOWTUNE_TEST_FAKE_ENERGY_W=" + std::to_string(int(kWatts));
  const test::TuneResult r =
      run(env, "--db " + db_ + space_args() + " --time-budget 60s --json", false);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const nlohmann::json j = nlohmann::json::parse(r.output);
  const nlohmann::json& fe = j.at("front_energy");
  EXPECT_TRUE(fe.at("ran").get<bool>());
  EXPECT_EQ(fe.at("measured").get<std::size_t>(), fe.at("points").get<std::size_t>());
  EXPECT_EQ(fe.at("left").get<std::size_t>(), 0u);
  // Its cost stays within its share, 10% of the budget.
  EXPECT_LE(fe.at("share_s").get<double>(), 6.0 + 1e-9);
  EXPECT_LE(fe.at("seconds").get<double>(), 6.0);

  db::Repository repo(db_, db::OpenMode::read_only);
  const std::vector<db::MeasuredConfig> all = repo.measured("host");
  ASSERT_EQ(all.size(), 24u);
  const std::vector<db::MeasuredConfig> front =
      pareto_configs(all, objectives_of(repo.workload("tvl1")));
  ASSERT_FALSE(front.empty());
  EXPECT_EQ(j.at("front").size(), front.size());
  std::size_t with_energy = 0;
  for (const db::MeasuredConfig& mc : all) with_energy += mc.measurement.energy_mj ? 1 : 0;
  EXPECT_LT(with_energy, all.size());  // only the pass measured energy
  for (const db::MeasuredConfig& mc : front) {
    const db::MeasurementRow& m = mc.measurement;
    ASSERT_TRUE(m.energy_mj && m.power_w && m.nj_per_unit) << mc.config.key;
    EXPECT_NEAR(*m.power_w, kWatts, 0.02 * kWatts) << mc.config.key;
    EXPECT_NEAR(*m.energy_mj, kWatts * m.time_ms_median, 0.02 * kWatts * m.time_ms_median);
  }

  // Energy requests on the stored front: the least energy, and the fastest under a bound
  // on energy; the tuned header states the energy per run.
  const std::string header = (dir_ / "energy.h").string();
  const test::TuneResult e =
      run("", "export --board host --db " + db_ + " --objective energy -o " + header);
  ASSERT_EQ(e.exit_code, 0) << e.output;
  std::ifstream in(header);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find(" mJ per run ("), std::string::npos) << text;
  double max_mj = 0;
  for (const db::MeasuredConfig& mc : front) max_mj = std::max(max_mj, *mc.measurement.energy_mj);
  const test::TuneResult c =
      run("", "export --board host --db " + db_ + " --objective time --max-mj " +
                  std::to_string(max_mj) + " --json -o " + (dir_ / "time.h").string());
  EXPECT_EQ(c.exit_code, 0) << c.output;
  const test::TuneResult w =
      run("", "export --board host --db " + db_ + " --objective aepe --max-w " +
                  std::to_string(kWatts * 1.1) + " -o " + (dir_ / "aepe.h").string());
  EXPECT_EQ(w.exit_code, 0) << w.output;
}

TEST_F(FrontEnergy, ABoardWithoutASensorSaysSoInOneLine) {
  const test::TuneResult r = run("FLOWTUNE_TEST_FAKE_MEASURE=0 FLOWTUNE_TEST_FAKE_ENERGY_W=none",
                                 "--db " + db_ + space_args() + " --time-budget 60s");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(count_lines_with(r.output, "no energy sensor found for board host"), 1u) << r.output;
  EXPECT_EQ(count_lines_with(r.output, "energy of the front"), 1u) << r.output;
  db::Repository repo(db_, db::OpenMode::read_only);
  for (const db::MeasuredConfig& mc : repo.measured("host"))
    EXPECT_FALSE(mc.measurement.energy_mj) << mc.config.key;
}

}  // namespace
}  // namespace flowtune
