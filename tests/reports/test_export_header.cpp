#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "reports/export_header.hpp"
#include "reports/tunables_json.hpp"

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

db::MeasuredConfig make_mc(std::int64_t id, double time_ms, double aepe,
                           std::optional<double> energy_mj = std::nullopt) {
  db::MeasuredConfig mc;
  mc.measurement_id = id;
  mc.measured_at = "2024-05-01T12:00:00.000Z";
  mc.config.board = "host";
  mc.config.variant = "kokkos_global";
  mc.config.precision = "f32";
  mc.config.tunables_json = "{\"tile_x\":32,\"tile_y\":4}";
  mc.config.key = "kokkos_global f32 tile_x=32 tile_y=4 id=" + std::to_string(id);
  mc.config.label = "config " + std::to_string(id);
  mc.config.iterations = 50;
  mc.config.n_scales = 3;
  mc.config.n_warpings = 5;
  mc.config.zoom = 0.5;
  mc.config.epsilon = 0.01;
  mc.config.tau = 0.25;
  mc.config.lambda = 0.15;
  mc.config.theta = 0.3;
  mc.measurement.run_id = 1;
  mc.measurement.dataset = "middlebury:Grove2,RubberWhale";
  mc.measurement.time_ms_median = time_ms;
  mc.measurement.time_ms_min = time_ms;
  mc.measurement.time_ms_max = time_ms;
  mc.measurement.n_repeats = 3;
  mc.measurement.ns_per_px = time_ms * 1e6 / 307200.0;
  mc.measurement.aepe = aepe;
  mc.measurement.aae_deg = aepe * 12;
  mc.measurement.energy_mj = energy_mj;
  return mc;
}

// Hand-made set: (time ms, AEPE px, energy mJ).
//  1: (10, 0.5, 100)   front
//  2: (20, 0.3,  80)   front
//  3: (30, 0.3,  60)   dominated by 2 in time/AEPE, but least energy (and on energy/AEPE front)
//  4: ( 5, 0.9)        dominated by 5
//  5: ( 5, 0.8)        front, fastest
//  6: (40, 0.2)        front, most accurate
//  7: (50, 0.2)        dominated by 6 (same AEPE, slower)
std::vector<db::MeasuredConfig> hand_made_set() {
  return {make_mc(1, 10, 0.5, 100.0), make_mc(2, 20, 0.3, 80.0), make_mc(3, 30, 0.3, 60.0),
          make_mc(4, 5, 0.9),         make_mc(5, 5, 0.8),        make_mc(6, 40, 0.2),
          make_mc(7, 50, 0.2)};
}

TEST(Objective, ParsesTheThreeNamesAndRejectsOthers) {
  EXPECT_EQ(parse_objective("time"), Objective::time);
  EXPECT_EQ(parse_objective("aepe"), Objective::aepe);
  EXPECT_EQ(parse_objective("energy"), Objective::energy);
  try {
    parse_objective("speed");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("speed"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("time, aepe, energy"), std::string::npos);
  }
}

TEST(SelectConfig, PicksTheHandComputedBest) {
  const auto set = hand_made_set();
  EXPECT_EQ(select_config(set, Objective::time).measurement_id, 5);
  EXPECT_EQ(select_config(set, Objective::aepe).measurement_id, 6);
  EXPECT_EQ(select_config(set, Objective::energy).measurement_id, 3);
  std::vector<std::int64_t> front;
  for (const auto& mc : pareto_configs(set, Objective::time, Objective::aepe)) {
    front.push_back(mc.measurement_id);
  }
  EXPECT_EQ(front, std::vector<std::int64_t>({5, 1, 2, 6}));
}

TEST(SelectConfig, RejectsEmptyMixedAndEnergyless) {
  EXPECT_THROW(select_config({}, Objective::time), std::invalid_argument);
  std::vector<db::MeasuredConfig> no_energy = {make_mc(1, 10, 0.5), make_mc(2, 20, 0.3)};
  try {
    select_config(no_energy, Objective::energy);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("energy"), std::string::npos);
  }
  no_energy[1].measurement.dataset = "sintel";
  EXPECT_THROW(select_config(no_energy, Objective::time), std::invalid_argument);
}

TEST(TunablesJson, ParsesFlatIntegerObjectsOnly) {
  const auto kv = parse_tunables_json(" { \"tile_x\" : 32, \"depth\":-2 } ");
  ASSERT_EQ(kv.size(), 2u);
  EXPECT_EQ(kv[0], std::make_pair(std::string("tile_x"), 32));
  EXPECT_EQ(kv[1], std::make_pair(std::string("depth"), -2));
  EXPECT_TRUE(parse_tunables_json("{}").empty());
  for (const char* bad : {"{\"a\":1.5}", "{\"a\":{}}", "{\"a\":1,}", "{\"a\":1} x", "[1]",
                          "{\"a\":1,\"a\":2}", "{\"a\":99999999999}"}) {
    EXPECT_THROW(parse_tunables_json(bad), std::invalid_argument) << bad;
  }
}

TEST(TunedHeader, TextHoldsTheConstexprValuesAndFigures) {
  const std::string h = tuned_header_text(make_mc(5, 5, 0.8), "host", Objective::time);
  for (const char* part : {"#pragma once",
                           "namespace flowtune::tuned",
                           "constexpr const char* kBoard = \"host\";",
                           "constexpr const char* kVariant = \"kokkos_global\";",
                           "constexpr const char* kPrecision = \"f32\";",
                           "constexpr int kTileX = 32;",
                           "constexpr int kTileY = 4;",
                           "#define FLOWTUNE_TUNED_TILE_X 32",
                           "#define FLOWTUNE_TUNED_TILE_Y 4",
                           "constexpr int kIterations = 50;",
                           "constexpr int kNScales = 3;",
                           "constexpr int kNWarpings = 5;",
                           "constexpr double kZoom = 0.5;",
                           "constexpr double kLambda = 0.15;",
                           "constexpr double kTheta = 0.3;",
                           "constexpr double kTau = 0.25;",
                           "constexpr double kEpsilon = 0.01;",
                           "constexpr int kClockMhz = 0;",
                           "5.000 ms",
                           "0.8000 px",
                           "energy         : n/a",
                           "Objective: time",
                           "middlebury:Grove2,RubberWhale",
                           "2024-05-01T12:00:00.000Z"}) {
    EXPECT_NE(h.find(part), std::string::npos) << "missing: " << part << "\n" << h;
  }
}

TEST(TunedHeader, RejectsTunablesThatAreNotIdentifiersOrCollide) {
  auto mc = make_mc(1, 1, 1);
  mc.config.tunables_json = "{\"Tile-X\":3}";
  EXPECT_THROW(tuned_header_text(mc, "host", Objective::time), std::invalid_argument);
  mc.config.tunables_json = "{\"iterations\":3}";
  EXPECT_THROW(tuned_header_text(mc, "host", Objective::time), std::invalid_argument);
}

TEST(TunedHeader, ExportedHeaderCompilesWithTheSameDefines) {
  if (std::system("c++ --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no C++ compiler";
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_header_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto mc = make_mc(2, 20, 0.3, 80.0);
  mc.config.board = "agx \"xavier\"";  // quotes must be escaped in the string literal
  {
    std::ofstream out(dir / "tuned.h");
    out << tuned_header_text(mc, mc.config.board, Objective::energy);
  }
  {
    std::ofstream out(dir / "use.cpp");
    out << "#include \"tuned.h\"\n#include \"tuned.h\"\n#include <string_view>\n"
           "using namespace flowtune::tuned;\n"
           "static_assert(kTileX == 32 && kTileY == 4 && FLOWTUNE_TUNED_TILE_X == 32);\n"
           "static_assert(kIterations == 50 && kNScales == 3 && kNWarpings == 5);\n"
           "static_assert(kZoom == 0.5 && kLambda == 0.15 && kTheta == 0.3 && kTau == 0.25);\n"
           "static_assert(kEpsilon == 0.01 && kClockMhz == 0);\n"
           "static_assert(std::string_view(kBoard) == \"agx \\\"xavier\\\"\");\n"
           "static_assert(std::string_view(kPrecision) == \"f32\");\n"
           "int main() { return kTileX - 32; }\n";
  }
  const std::string cmd =
      "c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only "
      "-DFLOWTUNE_TUNED_TILE_X=32 -DFLOWTUNE_TUNED_TILE_Y=4 " +
      (dir / "use.cpp").string() + " 2>" + (dir / "log.txt").string();
  const int rc = std::system(cmd.c_str());
  std::ifstream log(dir / "log.txt");
  const std::string log_text((std::istreambuf_iterator<char>(log)), {});
  EXPECT_EQ(rc, 0) << log_text;
  fs::remove_all(dir);
}

TEST(TunedHeader, ExportNeedsMeasurementsAndAWritablePath) {
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_export_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  db::Repository repo((dir / "f.db").string());
  try {
    export_tuned_header(repo, "nano", Objective::time, (dir / "t.h").string());
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nano"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no measurements"), std::string::npos) << e.what();
  }
  const std::int64_t run = repo.begin_run(db::RunInfo{"host", "", "", "", "", "", "", "", ""});
  for (auto mc : hand_made_set()) {
    mc.measurement.run_id = run;
    repo.record_measurement(mc.config, mc.measurement);
  }
  const std::string out = (dir / "tuned_host.h").string();
  export_tuned_header(repo, "host", Objective::aepe, out);
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("config 6"), std::string::npos);  // the most accurate one
  const std::string bad = (dir / "missing" / "t.h").string();
  try {
    export_tuned_header(repo, "host", Objective::time, bad);
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune::reports
