#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include "select/export_selection.hpp"
#include "select/multi_board_header.hpp"
#include "select/tuned_header.hpp"
#include "select/tuned_header_reader.hpp"
#include "variants/kernel_defines.hpp"

namespace flowtune::reports {
namespace {

namespace fs = std::filesystem;

db::MeasuredConfig make_mc(std::int64_t id, double time_ms, double aepe,
                           std::optional<double> energy_mj = std::nullopt) {
  db::MeasuredConfig mc;
  mc.measurement_id = id;
  mc.measured_at = "2024-05-01T12:00:00.000Z";
  mc.config.board = "host";
  mc.config.workload = "tvl1";
  mc.config.variant = "kokkos_global";
  mc.config.precision = "f32";
  mc.config.tunables = {{"tile_x", 32}, {"tile_y", 4}};
  mc.config.params = {{"iterations", 50}, {"n_scales", 3},   {"n_warpings", 5},
                      {"zoom", 0.5},      {"epsilon", 0.01}, {"tau", 0.25},
                      {"lambda", 0.15},   {"theta", 0.3},    {"id", double(id)}};
  mc.config.key = db::config_key(mc.config);
  mc.config.label = "config " + std::to_string(id);
  mc.measurement.run_id = 1;
  mc.measurement.dataset = "middlebury:Grove2,RubberWhale";
  mc.measurement.time_ms_median = time_ms;
  mc.measurement.time_ms_min = time_ms;
  mc.measurement.time_ms_max = time_ms;
  mc.measurement.n_repeats = 3;
  mc.measurement.ns_per_unit = time_ms * 1e6 / 307200.0;
  mc.measurement.metrics = {{"aepe", aepe}, {"aae_deg", aepe * 12}};
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

db::WorkloadRow flow_workload() {
  db::WorkloadRow w;
  w.name = "tvl1";
  w.work_unit = "px";
  w.front_objectives = {"time_ms", "aepe"};
  w.metrics = {{"aepe", "px", "endpoint error", true}, {"aae_deg", "deg", "angular error", true}};
  return w;
}

// The energy-delay product of a config is its energy per run times its time per run:
// 2 mJ x 3 ms = 6 mJ ms; it and mean power are energy figures, time and AEPE are not.
TEST(Objective, EnergyDelayProductAndPowerAreNamedEnergyFigures) {
  const db::WorkloadRow w = flow_workload();
  EXPECT_EQ(resolve_objective(w, "edp").name, "edp_mj_ms");
  EXPECT_EQ(resolve_objective(w, "power").name, "power_w");
  db::MeasuredConfig mc = make_mc(1, 3, 0.2, 2.0);
  EXPECT_DOUBLE_EQ(mc.value("edp_mj_ms"), 6.0);
  mc.measurement.energy_mj.reset();
  EXPECT_TRUE(std::isnan(mc.value("edp_mj_ms")));
  for (const char* name : {"energy", "energy_mj", "power_w", "edp", "edp_mj_ms"})
    EXPECT_TRUE(is_energy_figure(name)) << name;
  for (const char* name : {"time", "time_ms", "aepe"}) EXPECT_FALSE(is_energy_figure(name)) << name;
}

TEST(Objective, ResolvesAliasesAndMetricNamesAndRejectsOthers) {
  const db::WorkloadRow w = flow_workload();
  EXPECT_EQ(resolve_objective(w, "time").name, "time_ms");
  EXPECT_EQ(resolve_objective(w, "energy").name, "energy_mj");
  EXPECT_EQ(resolve_objective(w, "aepe").unit, "px");
  EXPECT_EQ(objectives_of(w).size(), 2u);
  try {
    resolve_objective(w, "speed");
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("speed"), std::string::npos);
    EXPECT_NE(std::string(e.what()).find("time, energy, power, edp, aepe, aae_deg"),
              std::string::npos)
        << e.what();
  }
}

TEST(SelectConfig, PicksTheHandComputedBest) {
  const auto set = hand_made_set();
  const db::WorkloadRow w = flow_workload();
  const auto front = objectives_of(w);
  EXPECT_EQ(select_config(set, resolve_objective(w, "time"), front).measurement_id, 5);
  EXPECT_EQ(select_config(set, resolve_objective(w, "aepe"), front).measurement_id, 6);
  EXPECT_EQ(select_config(set, resolve_objective(w, "energy"), front).measurement_id, 3);
  std::vector<std::int64_t> ids;
  for (const auto& mc : pareto_configs(set, front)) ids.push_back(mc.measurement_id);
  EXPECT_EQ(ids, std::vector<std::int64_t>({5, 1, 2, 6}));
  // A metric to maximise flips the order: the front of (time, -aepe) keeps 4 (fast, "best").
  db::WorkloadRow up = w;
  up.metrics[0].minimize = false;
  ids.clear();
  for (const auto& mc : pareto_configs(set, objectives_of(up))) ids.push_back(mc.measurement_id);
  EXPECT_EQ(ids, std::vector<std::int64_t>({4}));
}

TEST(SelectConfig, RejectsEmptyMixedAndEnergyless) {
  const db::WorkloadRow w = flow_workload();
  const auto front = objectives_of(w);
  EXPECT_THROW(select_config({}, resolve_objective(w, "time"), front), std::invalid_argument);
  std::vector<db::MeasuredConfig> no_energy = {make_mc(1, 10, 0.5), make_mc(2, 20, 0.3)};
  try {
    select_config(no_energy, resolve_objective(w, "energy"), front);
    ADD_FAILURE();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("energy"), std::string::npos);
  }
  no_energy[1].measurement.dataset = "sintel";
  EXPECT_THROW(select_config(no_energy, resolve_objective(w, "time"), front),
               std::invalid_argument);
}

TEST(TunedHeader, TextHoldsTheConstexprValuesAndFigures) {
  const std::string h =
      tuned_header_text(make_mc(5, 5, 0.8), "host", resolve_objective(flow_workload(), "time"));
  for (const char* part :
       {"#pragma once",
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
        "constexpr const char* kWorkload = \"tvl1\";",
        "5.000 ms",
        "aepe           : 0.8",
        "energy         : not measured (no energy sensor reading in the database)",
        "Objective: time_ms",
        "// flowtune-config: {",
        "middlebury:Grove2,RubberWhale",
        "2024-05-01T12:00:00.000Z"}) {
    EXPECT_NE(h.find(part), std::string::npos) << "missing: " << part << "\n" << h;
  }
}

TEST(TunedHeader, RejectsTunablesThatAreNotIdentifiersOrCollide) {
  auto mc = make_mc(1, 1, 1);
  const Objective time = resolve_objective(flow_workload(), "time");
  mc.config.tunables = {{"Tile-X", 3}};
  EXPECT_THROW(tuned_header_text(mc, "host", time), std::invalid_argument);
  mc.config.tunables = {{"iterations", 3}};  // collides with the parameter
  EXPECT_THROW(tuned_header_text(mc, "host", time), std::invalid_argument);
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
    out << tuned_header_text(mc, mc.config.board, resolve_objective(flow_workload(), "energy"));
  }
  {
    std::ofstream out(dir / "use.cpp");
    out << "#include \"tuned.h\"\n#include \"tuned.h\"\n#include <string_view>\n"
           "using namespace flowtune::tuned;\n"
           "static_assert(kTileX == 32 && kTileY == 4 && FLOWTUNE_TUNED_TILE_X == 32);\n"
           "static_assert(kIterations == 50 && kNScales == 3 && kNWarpings == 5);\n"
           "static_assert(kZoom == 0.5 && kLambda == 0.15 && kTheta == 0.3 && kTau == 0.25);\n"
           "static_assert(std::string_view(kWorkload) == \"tvl1\");\n"
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

// A CUDA config of `variant` in `precision` with the given tunables (block_x/block_y...).
db::MeasuredConfig cuda_mc(const std::string& variant, const std::string& precision,
                           const std::map<std::string, int>& tunables) {
  auto mc = make_mc(9, 1, 0.5);
  mc.config.board = "h200";
  mc.config.variant = variant;
  mc.config.precision = precision;
  mc.config.tunables = tunables;
  mc.config.key = db::config_key(mc.config);
  return mc;
}

TEST(TunedHeader, EmitsTheKernelMacrosOfEachPrecision) {
  const Objective time = resolve_objective(flow_workload(), "time");
  const std::map<std::string, std::string> macro = {
      {"f32", "FT_PRECISION_F32"}, {"f16", "FT_PRECISION_F16"}, {"mixed", "FT_PRECISION_MIXED"}};
  for (const auto& [precision, name] : macro) {
    EXPECT_EQ(precision_macro(precision), name);
    const std::string h = tuned_header_text(
        cuda_mc("global", precision, {{"block_x", 32}, {"block_y", 8}}), "h200", time);
    for (const std::string& part :
         {"#if !defined(FT_PRECISION_F32) && !defined(FT_PRECISION_F16) && "
          "!defined(FT_PRECISION_MIXED)\n#define " +
              name + " 1\n#endif\n",
          std::string("#ifndef FT_BLOCK_X\n#define FT_BLOCK_X 32\n#endif\n"),
          std::string("#ifndef FT_BLOCK_Y\n#define FT_BLOCK_Y 8\n#endif\n"),
          std::string("#define FLOWTUNE_TUNED_BLOCK_X 32\n"),
          std::string("constexpr const char* kPrecision = \"") + precision + "\";"}) {
      EXPECT_NE(h.find(part), std::string::npos) << "missing: " << part << "\n" << h;
    }
    for (const auto& [other, other_name] : macro)
      if (other != precision) {
        EXPECT_EQ(h.find("#define " + other_name), std::string::npos) << other_name << "\n" << h;
      }
  }
  // The host config: its tiles as FT_TILE_X/Y, f32.
  const std::string host = tuned_header_text(make_mc(5, 5, 0.8), "host", time);
  EXPECT_NE(host.find("#ifndef FT_TILE_X\n#define FT_TILE_X 32\n#endif"), std::string::npos);
  EXPECT_NE(host.find("#define FT_PRECISION_F32 1"), std::string::npos);
  // APSP's i32 has no precision switch in its kernels: no FT_PRECISION_*, its tile and block.
  auto apsp = cuda_mc("fw_tiled", "i32", {{"tile", 64}, {"block_x", 32}, {"block_y", 8}});
  apsp.config.workload = "apsp";
  apsp.config.params.clear();
  EXPECT_EQ(precision_macro("i32"), "");
  const std::string a = tuned_header_text(apsp, "h200", time);
  EXPECT_EQ(a.find("#define FT_PRECISION"), std::string::npos) << a;
  EXPECT_EQ(a.find("defined(FT_PRECISION_F32)"), std::string::npos) << a;
  EXPECT_NE(a.find("#ifndef FT_TILE\n#define FT_TILE 64\n#endif"), std::string::npos) << a;
}

TEST(TunedHeader, KernelMacrosYieldToTheCommandLineAndJsonReadsBack) {
  if (std::system("c++ --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "no C++ compiler";
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_macros_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto mc = cuda_mc("shared_fusion", "f16", {{"block_x", 32}, {"block_y", 8}});
  {
    std::ofstream out(dir / "tuned.h");
    out << tuned_header_text(mc, "h200", resolve_objective(flow_workload(), "time"));
  }
  const auto compile = [&](const std::string& defines, const std::string& body) {
    {
      std::ofstream out(dir / "use.cpp");
      out << "#include \"tuned.h\"\n#include \"tuned.h\"\n" << body << "\nint main() {}\n";
    }
    const std::string cmd = "c++ -std=c++17 -Wall -Wextra -Werror -fsyntax-only " + defines + " " +
                            (dir / "use.cpp").string() + " 2>" + (dir / "log.txt").string();
    const int rc = std::system(cmd.c_str());
    std::ifstream log(dir / "log.txt");
    const std::string log_text((std::istreambuf_iterator<char>(log)), {});
    EXPECT_EQ(rc, 0) << defines << "\n" << body << "\n" << log_text;
  };
  // As exported: exactly one precision, the tuned block.
  compile("",
          "#if !defined(FT_PRECISION_F16) || defined(FT_PRECISION_F32) || "
          "defined(FT_PRECISION_MIXED)\n#error precision\n#endif\n"
          "static_assert(FT_BLOCK_X == 32 && FT_BLOCK_Y == 8, \"block\");");
  // -D wins: another block width and another precision, still exactly one precision.
  compile("-DFT_BLOCK_X=64 -DFT_PRECISION_F32",
          "#if defined(FT_PRECISION_F16)\n#error two precisions\n#endif\n"
          "static_assert(FT_BLOCK_X == 64 && FT_BLOCK_Y == 8, \"block\");");
  fs::remove_all(dir);
  // kConfigJson is the flowtune-config JSON, as a C++ string literal.
  const std::string h = tuned_header_text(mc, "h200", resolve_objective(flow_workload(), "time"));
  const std::string marker = "kConfigJson = ";
  const auto at = h.find(marker);
  ASSERT_NE(at, std::string::npos) << h;
  const std::string json_text = db::config_json(mc.config);
  std::string literal = "\"";
  for (char c : json_text)
    literal += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  literal += "\";";
  EXPECT_EQ(h.substr(at + marker.size(), literal.size()), literal);
  EXPECT_EQ(db::parse_config_json(json_text).key, mc.config.key);
}

TEST(TunedHeader, ExportNeedsMeasurementsAndAWritablePath) {
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_export_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  db::Repository repo((dir / "f.db").string());
  try {
    export_tuned_header(repo, "nano", "time", (dir / "t.h").string());
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("nano"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("no measurements"), std::string::npos) << e.what();
  }
  repo.record_workload(flow_workload());
  const std::int64_t run =
      repo.begin_run(db::RunInfo{"host", "tvl1", "", "", "", "", "", "", "", ""});
  for (auto mc : hand_made_set()) {
    mc.measurement.run_id = run;
    repo.record_measurement(mc.config, mc.measurement);
  }
  const std::string out = (dir / "tuned_host.h").string();
  export_tuned_header(repo, "host", "aepe", out);
  std::ifstream in(out);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(text.find("config 6"), std::string::npos);  // the most accurate one
  // The reader of `tune run --tuned` gets back exactly the config that was exported.
  const Config back = read_tuned_header(out);
  const auto six = hand_made_set()[5].config;
  EXPECT_EQ(back.workload, "tvl1");
  EXPECT_EQ(back.variant, six.variant);
  EXPECT_EQ(back.tunables, six.tunables);
  EXPECT_EQ(back.params, six.params);
  EXPECT_THROW(export_tuned_header(repo, "host", "speed", out), std::invalid_argument);
  // Missing folders are created (the README's first command once failed on this).
  const std::string nested = (dir / "new" / "folder" / "t.h").string();
  export_tuned_header(repo, "host", "time", nested);
  EXPECT_TRUE(fs::exists(nested));
  const std::string bad = (dir / "f.db" / "t.h").string();  // a file is in the way
  try {
    export_tuned_header(repo, "host", "time", bad);
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(bad), std::string::npos) << e.what();
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune::reports

namespace flowtune::reports {
namespace {

// One header tuned at several frame sizes: the reader and the header's for_size() pick the
// size nearest to the frames' by pixel count (distances worked out by hand below).
TEST(SizedHeader, ReaderAndHeaderCodePickTheNearestTunedSize) {
  EXPECT_NEAR(tuned_size_distance(1280, 720, 640, 360), std::log(4.0), 1e-12);
  // 320x240 for 640x360: a third of the pixels, aspect 4:3 against 16:9 (ratio 3/4).
  EXPECT_NEAR(tuned_size_distance(320, 240, 640, 360), std::log(3.0) + 1e-3 * std::log(4.0 / 3),
              1e-12);
  EXPECT_TRUE(std::isinf(tuned_size_distance(0, 0, 640, 360)));
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_sized_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto small = make_mc(1, 10, 0.5), large = make_mc(2, 20, 0.3);
  const auto gpu = cuda_mc("global", "f32", {{"block_x", 32}, {"block_y", 8}});
  small.config.params["iterations"] = 11;
  large.config.params["iterations"] = 22;
  std::vector<BoardChoice> choices = {{"host", 0, 0, small, 320, 240},
                                      {"host", 0, 0, large, 1280, 720},
                                      {"h200", 9, 0, gpu, 1280, 720}};
  {
    std::ofstream out(dir / "sized.h");
    out << multi_board_header_text(choices, resolve_objective(flow_workload(), "time"));
  }
  const std::string header = (dir / "sized.h").string();
  const std::vector<TunedHeaderEntry> entries = read_tuned_header_entries(header);
  ASSERT_EQ(entries.size(), 3u);
  EXPECT_EQ(entries[1].board, "host");
  EXPECT_EQ(entries[1].width, 1280);
  EXPECT_EQ(entries[1].height, 720);
  // 640x360: ln 3 to 320x240 against ln 4 to 1280x720; 1000x600: ln 7.8 against ln 1.536.
  EXPECT_EQ(read_tuned_header(header, "host", 640, 360).params.at("iterations"), 11);
  EXPECT_EQ(read_tuned_header(header, "host", 1000, 600).params.at("iterations"), 22);
  EXPECT_EQ(read_tuned_header(header, "h200", 10, 10).variant, "global");
  EXPECT_THROW(read_tuned_header(header, "host"), std::runtime_error);  // size needed
  try {
    read_tuned_header(header, "", 640, 360);
    ADD_FAILURE() << "two boards, none chosen";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("host@320x240, host@1280x720, h200@1280x720"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW(
      multi_board_header_text({choices[0], choices[0]}, resolve_objective(flow_workload(), "time")),
      std::invalid_argument);
  if (std::system("c++ --version > /dev/null 2>&1") == 0) {
    std::ofstream(dir / "use.cpp")
        << "#include \"sized.h\"\n#include <cstring>\n"
           "int main() {\n"
           "  const auto* a = flowtune::tuned::for_size(0, 0, 640, 360);\n"
           "  const auto* b = flowtune::tuned::for_size(0, 0, 1000, 600);\n"
           "  const auto* g = flowtune::tuned::for_size(9, 0, 64, 64);\n"
           "  return a && a->width == 320 && b && b->width == 1280 && g &&\n"
           "         !std::strcmp(g->board, \"h200\") && !flowtune::tuned::for_size(7, 2, 64, 64) "
           "&&\n"
           "         flowtune::tuned::host_1280x720::kIterations == 22 ? 0 : 1;\n}\n";
    const std::string cmd = "c++ -std=c++17 -Wall -Wextra -Wpedantic -Werror " +
                            (dir / "use.cpp").string() + " -o " + (dir / "use").string() + " && " +
                            (dir / "use").string();
    EXPECT_EQ(std::system(cmd.c_str()), 0);
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune::reports
