// The command line's details: help, version, boards, space summary and JSON,
// constrained export, replay and Kernel Tuner export/import, on the recorded H200 fixture.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "kernels/simd/host_cpu.hpp"
#include "tests/tuner/tune_process.hpp"
#include "variants/simd/simd_fused.hpp"

namespace flowtune {
namespace {
namespace fs = std::filesystem;

using Result = test::TuneResult;

Result tune(const std::string& args, bool with_stderr = true) {
  return test::run_tune(args, with_stderr);
}

class CliCommands : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("flowtune_cli_cmd_" + std::to_string(getpid()));
    fs::create_directories(dir_);
    const std::string src =
        std::string(FLOWTUNE_TEST_SOURCE_DIR) + "/tests/tuner/fixtures/h200_kernels.db.xz";
    const std::string cmd = "xz -dc '" + src + "' > '" + (dir_ / "k.db").string() + "'";
    ASSERT_EQ(std::system(cmd.c_str()), 0);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }
  static std::string path(const std::string& name) { return (dir_ / name).string(); }
  static fs::path dir_;
};
fs::path CliCommands::dir_;

TEST_F(CliCommands, HelpListsTheSubcommandsAndVersionPrintsOne) {
  const Result help = tune("--help");
  EXPECT_EQ(help.exit_code, 0);
  for (const char* sub : {"tune boards", "tune space", "tune replay", "tune export", "tune import",
                          "tune report", "--strategy"})
    EXPECT_NE(help.output.find(sub), std::string::npos) << sub;
  const Result v = tune("--version");
  EXPECT_EQ(v.exit_code, 0);
  EXPECT_EQ(v.output.rfind("flowtune 0.", 0), 0u) << v.output;
  EXPECT_EQ(tune("boards --help").exit_code, 0);
  EXPECT_EQ(tune("boards nonsense").exit_code, 2);
  // `boards show` prints the sources it promises: the profile's comments.
  const Result show = tune("boards show agx");
  EXPECT_EQ(show.exit_code, 0) << show.output;
  EXPECT_NE(show.output.find("sources (the comments of "), std::string::npos) << show.output;
  EXPECT_NE(show.output.find("l2_bytes: 512 KiB GPU L2 (Jetson AGX Xavier data sheet)"),
            std::string::npos)
      << show.output;
}

TEST_F(CliCommands, BoardsAndSpaceAsJson) {
  const nlohmann::json boards = nlohmann::json::parse(tune("boards --json", false).output);
  ASSERT_TRUE(boards.is_array());
  bool have_host = false;
  for (const auto& b : boards) have_host = have_host || b.at("name") == "host";
  EXPECT_TRUE(have_host);
  // The default host space: 90 parameter points (iterations x n_warpings x median_window) x
  // (25 tiles of kokkos_global + simd_fused at all the CPUs (its threads' default) x 3 band
  // heights x 4 temporal depths x 5 tile widths x 2 precisions); kept: the simd_fused tiles
  // that its rules (this host's L2 per CPU) keep.
  const int configs = 90 * (25 + 3 * 4 * 5 * 2);
  int simd_kept = 0;
  for (const int bytes : {4, 2})
    for (const int rows : {4, 16, 64})
      for (const int depth : {1, 2, 4, 8})
        for (const int cols : {0, 128, 256, 512, 1024})
          if (!simd_fused_tile_reason(rows, cols, depth, bytes, l2_bytes_per_cpu(host_cpu())))
            ++simd_kept;
  ASSERT_GE(simd_kept, 6);  // at least the band sweep's 3 heights x 2 precisions
  const nlohmann::json space =
      nlohmann::json::parse(tune("space --board host --json", false).output);
  EXPECT_EQ(space.at("summary").at("configs"), configs);
  EXPECT_EQ(space.at("summary").at("kept"), 90 * (25 + simd_kept));
  for (const auto& c : space.at("configs"))
    if (c.at("variant") == "simd_fused") {
      EXPECT_EQ(c.at("tunables").at("threads"), host_cpu().cpus);
    }
  EXPECT_EQ(space.at("configs").size(), std::size_t(configs));
  EXPECT_EQ(space.at("dimensions").at("iterations"),
            (std::vector<double>{20, 34, 59, 100, 170, 300}));
  EXPECT_EQ(space.at("ranges").at("iterations"), "20..300 log, 6 points (6 values)");
  EXPECT_EQ(space.at("dimensions").at("median_window"), (std::vector<double>{0, 3, 5}));
  // Whole numbers are JSON integers ("iterations": 50, not 50.0).
  EXPECT_TRUE(space.at("dimensions").at("iterations").at(0).is_number_integer());
  EXPECT_TRUE(space.at("configs").at(0).at("params").at("iterations").is_number_integer());
  EXPECT_TRUE(space.at("configs").at(0).at("params").at("lambda").is_number_float());
  // The text summary is short (a line per variant and precision, two per pruning rule: how
  // many rules apply depends on this machine's cache sizes: 9 on a 512 KiB L2); --list gives
  // every config.
  const Result text = tune("space --board host");
  EXPECT_LT(std::count(text.output.begin(), text.output.end(), '\n'), 40);
  const Result list = tune("space --board host --list");
  EXPECT_GT(std::count(list.output.begin(), list.output.end(), '\n'), 4 * (25 + simd_kept));
}

// cli/completion/tune.bash completes sub-commands, a sub-command's options (from its --help)
// and the values of --board and --workload.
TEST_F(CliCommands, BashCompletion) {
  const std::string script = std::string(FLOWTUNE_TEST_SOURCE_DIR) + "/cli/completion/tune.bash";
  const auto complete = [&](const std::string& words) {
    const std::string cmd = "bash -c 'source \"" + script + "\"; COMP_WORDS=(" + FLOWTUNE_TUNE_EXE +
                            " " + words +
                            "); COMP_CWORD=$((${#COMP_WORDS[@]}-1)); _tune; "
                            "echo \"${COMPREPLY[*]}\"' 2>&1";
    FILE* pipe = popen(cmd.c_str(), "r");
    std::string out;
    char buf[4096];
    for (std::size_t n; pipe && (n = fread(buf, 1, sizeof buf, pipe)) > 0;) out.append(buf, n);
    if (pipe) pclose(pipe);
    return out;
  };
  EXPECT_EQ(complete("sp"), "space\n");
  EXPECT_EQ(complete("status --s"), "--storage\n");
  EXPECT_NE(complete("--board \"\"").find("auto agx"), std::string::npos);
  EXPECT_EQ(complete("export --workload \"\""), "tvl1 apsp bm lk features\n");
}

// A DB without distributed runs: `tune status` says so instead of printing nothing.
TEST_F(CliCommands, StatusWithoutDistributedRunsSaysSo) {
  const Result r = tune("status --storage " + path("k.db"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("no distributed run ("), std::string::npos) << r.output;
  EXPECT_EQ(
      nlohmann::json::parse(tune("status --storage " + path("k.db") + " --json", false).output),
      nlohmann::json::array());
}

// On the recorded H200 space the fastest config overall has AEPE 0.495 (10 iterations); with
// AEPE <= 0.25 the fastest is one of 50 iterations (AEPE 0.206), and nothing reaches 0.1.
TEST_F(CliCommands, ExportWithAConstraintPicksTheFastestConfigThatSatisfiesIt) {
  const Result any = tune("export --db " + path("k.db") + " --board h200 --objective time -o " +
                              path("any.h") + " --json",
                          false);
  ASSERT_EQ(any.exit_code, 0) << any.output;
  EXPECT_EQ(nlohmann::json::parse(any.output).at("config").at("params").at("iterations"), 10);
  const Result constrained =
      tune("export --db " + path("k.db") + " --board h200 --objective time --max-aepe 0.25 -o " +
               path("c.h") + " --json",
           false);
  ASSERT_EQ(constrained.exit_code, 0) << constrained.output;
  EXPECT_EQ(nlohmann::json::parse(constrained.output).at("config").at("params").at("iterations"),
            50);
  const Result none = tune("export --db " + path("k.db") +
                           " --board h200 --objective time --max-aepe=0.1 -o " + path("n.h"));
  EXPECT_EQ(none.exit_code, 1);
  EXPECT_NE(none.output.find("satisfies aepe <= 0.1"), std::string::npos) << none.output;
  EXPECT_FALSE(fs::exists(path("n.h")));
  EXPECT_EQ(tune("export --db " + path("k.db") + " --board h200 --max-aepe x -o " + path("x.h"))
                .exit_code,
            2);
}

TEST_F(CliCommands, ReportSelectsUnderConstraints) {
  const Result r = tune("report --db " + path("k.db") + " --board h200 -o " + path("rep") +
                        " --select time --max-aepe 0.25");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(path("rep") + "/selected.json");
  const nlohmann::json j = nlohmann::json::parse(in);
  EXPECT_EQ(j.at("selected").at("params").at("iterations"), 50);
  EXPECT_LE(j.at("metrics").at("aepe").get<double>(), 0.25);
  // Its per-item table: the dataset's AEPE is the mean of the items' (measure_runner).
  ASSERT_GE(j.at("items").size(), 1u) << j.dump(1);
  double sum = 0;
  for (const auto& item : j.at("items")) {
    EXPECT_GT(item.at("time_ms").get<double>(), 0);
    EXPECT_NE(r.output.find("  " + item.at("item").get<std::string>() + ": "), std::string::npos)
        << r.output;
    sum += item.at("metrics").at("aepe").get<double>();
  }
  EXPECT_NEAR(sum / double(j.at("items").size()), j.at("metrics").at("aepe").get<double>(), 1e-9);
  EXPECT_EQ(tune("report --db " + path("k.db") + " --board h200 -o " + path("rep2") +
                 " --select time --max-aepe 0.01")
                .exit_code,
            1);
  EXPECT_EQ(
      tune("report --db " + path("k.db") + " --board h200 -o " + path("rep3") + " --max-aepe 0.25")
          .exit_code,
      2);  // constraints without --select
}

// A header for two boards: the H200 recording and the host space imported beside it.
TEST_F(CliCommands, OneHeaderForSeveralBoards) {
  const std::string db = path("multi.db");
  fs::copy_file(path("k.db"), db, fs::copy_options::overwrite_existing);
  ASSERT_EQ(
      tune("export --db " + db + " --board h200 --format kt-cache -o " + path("h.json")).exit_code,
      0);
  // The same recording again, as board "h100" (another arch, sm_90 too: the first wins).
  ASSERT_EQ(tune("import " + path("h.json") + " --board h100 --db " + db).exit_code, 0);
  const Result ex = tune("export --db " + db + " --board h200 --board h100 --objective time " +
                         "--max-aepe 0.25 -o " + path("multi.h"));
  ASSERT_EQ(ex.exit_code, 0) << ex.output;
  std::ifstream in(path("multi.h"));
  const std::string h((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(h.find("// flowtune-config[h200]: "), std::string::npos);
  EXPECT_NE(h.find("// flowtune-config[h100]: "), std::string::npos);
  EXPECT_NE(h.find("namespace flowtune::tuned::h200 {"), std::string::npos);
  EXPECT_NE(h.find("#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 900  // h200"),
            std::string::npos);
  EXPECT_EQ(h.find("__CUDA_ARCH__ == 900  // h100"), std::string::npos);  // one block per arch
  // Host code compiles and picks the board of a device's compute capability.
  std::ofstream(path("m.cpp"))
      << "#include \"" << path("multi.h") << "\"\n"
      << "#include <cstring>\n"
      << "int main() { const auto* b = flowtune::tuned::for_device(9, 0);\n"
      << "  return b && !std::strcmp(b->board, \"h200\") && "
      << "!flowtune::tuned::for_device(7, 2) && "
      << "flowtune::tuned::h100::kIterations == 50 ? 0 : 1; }\n";
  const std::string cc = "c++ -std=c++17 -Wall -Wextra -Werror -pedantic " + path("m.cpp") +
                         " -o " + path("m") + " && " + path("m");
  EXPECT_EQ(std::system(cc.c_str()), 0);
  // tune run reads one board of it.
  const std::string seq = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/RubberWhale/";
  const Result no_board = tune("flow " + seq + "frame10.png " + seq + "frame11.png --tuned " +
                               path("multi.h") + " -o " + path("f.flo"));
  EXPECT_EQ(no_board.exit_code, 1);
  EXPECT_NE(no_board.output.find("several boards (h200, h100)"), std::string::npos)
      << no_board.output;
}

// Tuned at two frame sizes on real frames (RubberWhale resampled), exported as one header:
// each size is a dataset of its own, and `tune flow --tuned` runs the size nearest to its
// frames (584x388: ln(226592 / 24576) = 2.22 to 192x128 against 3.61 to 96x64).
TEST_F(CliCommands, TunedAtTwoResolutionsOneHeaderRunsTheNearestSize) {
  const std::string db = path("sized.db");
  for (const char* size : {"96x64", "192x128"}) {
    const Result r = tune(std::string("--board host --in-process --variant kokkos_global "
                                      "--sequences RubberWhale --max-evals 2 --resolution ") +
                          size + " --db " + db);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find(std::string("middlebury:RubberWhale@") + size), std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find(std::string("--resolution ") + size + " -o tuned_host.h"),
              std::string::npos)
        << r.output;
  }
  const Result ex = tune("export --db " + db + " --board host --resolution 96x64 --resolution " +
                         "192x128 -o " + path("sized.h"));
  ASSERT_EQ(ex.exit_code, 0) << ex.output;
  std::ifstream in(path("sized.h"));
  const std::string h((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(h.find("// flowtune-config[host@96x64]: "), std::string::npos);
  EXPECT_NE(h.find("// flowtune-config[host@192x128]: "), std::string::npos);
  const Result missing =
      tune("export --db " + db + " --board host --resolution 640x480 -o " + path("none.h"));
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_NE(missing.output.find("sizes measured: 192x128, 96x64"), std::string::npos)
      << missing.output;
  EXPECT_FALSE(fs::exists(path("none.h")));
  EXPECT_EQ(tune("--board host --resolution 96 --db " + path("bad.db")).exit_code, 2);
  const std::string seq = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/RubberWhale/";
  const Result run = tune("flow " + seq + "frame10.png " + seq + "frame11.png --tuned " +
                          path("sized.h") + " -o " + path("sized.flo"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("at 192x128 (nearest to the frames' 584x388)"), std::string::npos)
      << run.output;
}

TEST_F(CliCommands, KernelTunerExportImportAndReplayRoundTrip) {
  const Result ex = tune("export --db " + path("k.db") + " --board h200 --format kt-cache -o " +
                         path("kt/cache.json"));
  ASSERT_EQ(ex.exit_code, 0) << ex.output;
  EXPECT_NE(ex.output.find("1890 measured, 2 failed, 1276 pruned"), std::string::npos) << ex.output;
  const Result im =
      tune("import " + path("kt/cache.json") + " --board h200 --db " + path("imported.db"));
  ASSERT_EQ(im.exit_code, 0) << im.output;
  EXPECT_NE(im.output.find("1890 measured, 2 failed, 1276 pruned"), std::string::npos) << im.output;
  // The imported recording replays to the same figures as the original.
  const std::string replay = " --strategy greedy_ils --seeds 3 --budget 5% --objectives time_ms";
  const Result a = tune("replay --db " + path("k.db") + replay, false);
  const Result b = tune("replay --db " + path("imported.db") + replay, false);
  ASSERT_EQ(a.exit_code, 0) << a.output;
  // Every column but the measuring time: a Kernel Tuner cache holds no per-item times nor
  // timestamps, so the imported points cost only their timed runs.
  const auto table = [](const std::string& s) {
    std::string row = s.substr(s.find("| greedy_ils"));
    std::size_t at = 0;
    for (int bar = 0; bar < 8; ++bar) at = row.find('|', at) + 1;
    return row.substr(0, at);
  };
  EXPECT_EQ(table(a.output), table(b.output));
  EXPECT_EQ(tune("replay --db " + path("k.db") + " --budget 0").exit_code, 2);
}

// A T4 file names no device: its dataset is named after the file, not "kernel_tuner:t4" for
// every T4 file (two T4 files of one board would share a dataset).
TEST_F(CliCommands, T4ImportNamesTheDatasetAfterTheFile) {
  const Result ex = tune("export --db " + path("k.db") + " --board h200 --format t4 -o " +
                         path("t4/h200_space.json"));
  ASSERT_EQ(ex.exit_code, 0) << ex.output;
  const Result im =
      tune("import " + path("t4/h200_space.json") + " --board h200 --db " + path("t4.db"));
  ASSERT_EQ(im.exit_code, 0) << im.output;
  const Result datasets = tune("report --db " + path("t4.db") + " --board h200 -o " + path("t4r"));
  ASSERT_EQ(datasets.exit_code, 0) << datasets.output;
  std::ifstream md(path("t4r/report.md"));
  const std::string text((std::istreambuf_iterator<char>(md)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("kernel_tuner:h200_space"), std::string::npos) << text.substr(0, 2000);
  EXPECT_EQ(text.find("kernel_tuner:t4"), std::string::npos);
}

TEST_F(CliCommands, FlowRunsOneValidConfig) {
  const std::string seq = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/RubberWhale/";
  const std::string frames = seq + "frame10.png " + seq + "frame11.png";
  // A list where one value is needed is a usage error, not its first value used silently.
  const Result list = tune("flow " + frames + " --param iterations=10,50 --viz " + path("v.png"));
  EXPECT_EQ(list.exit_code, 2);
  EXPECT_NE(list.output.find("--param iterations takes one value"), std::string::npos);
  // Defaults: the middle tile of the CPU variant, a key on the image, its scale printed.
  const Result ok = tune("flow " + frames + " --param iterations=5 --param n_warpings=1 --viz " +
                         path("v.png") + " --gt " + seq + "flow10.flo");
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_NE(ok.output.find("tile_x=32 tile_y=4"), std::string::npos) << ok.output;
  EXPECT_NE(ok.output.find("full saturation at"), std::string::npos) << ok.output;
  EXPECT_TRUE(fs::exists(path("v.png")));
  // simd_fused without --tunable runs on all the CPUs this process may use.
  const Result simd = tune("flow " + frames +
                           " --variant simd_fused --param iterations=5 --param n_warpings=1 --gt " +
                           seq + "flow10.flo");
  ASSERT_EQ(simd.exit_code, 0) << simd.output;
  EXPECT_NE(simd.output.find("threads=" + std::to_string(host_cpu().cpus)), std::string::npos)
      << simd.output;
  // Block matching's image says its saturation, a percentile that outliers do not wash out.
  const Result bm =
      tune("flow " + frames + " --workload bm --param block=16 --viz " + path("bm.png"));
  ASSERT_EQ(bm.exit_code, 0) << bm.output;
  EXPECT_NE(bm.output.find("px, the 99th percentile of |flow|)"), std::string::npos) << bm.output;
  EXPECT_TRUE(fs::exists(path("bm.png")));
  // A folder that does not exist is an error before the flow is computed.
  const Result missing = tune("flow " + frames + " --param iterations=5 -o " +
                              path("missing/dir/f.flo") + " --gt " + seq + "flow10.flo");
  EXPECT_EQ(missing.exit_code, 1) << missing.output;
  EXPECT_NE(missing.output.find("missing/dir does not exist (nothing computed)"), std::string::npos)
      << missing.output;
  EXPECT_EQ(missing.output.find("aepe"), std::string::npos) << missing.output;
}

// The default config computes with the 5x5 median of the flow (median_window's default, 5):
// bit for bit the flow of --param median_window=5. A tuned header written before
// median_window existed (its config line has none) computes without it: bit for bit the flow
// of --param median_window=0.
TEST_F(CliCommands, DefaultMedianIsOnAndAnOldHeaderKeepsItOff) {
  const std::string seq = std::string(FLOWTUNE_TEST_REPO_DATA) + "/middlebury/RubberWhale/";
  const std::string frames = seq + "frame10.png " + seq + "frame11.png";
  const std::string one =
      " --variant kokkos_global --precision f32 --tunable tile_x=32 "
      "--tunable tile_y=4 --param iterations=5 --param n_warpings=1";
  const auto bytes = [](const std::string& file) {
    std::ifstream in(file, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  const Result on = tune("flow " + frames + one + " -o " + path("on.flo"));
  ASSERT_EQ(on.exit_code, 0) << on.output;
  EXPECT_NE(on.output.find("median_window=5"), std::string::npos) << on.output;
  const Result five = tune("flow " + frames + one + " --param median_window=5 -o " + path("5.flo"));
  ASSERT_EQ(five.exit_code, 0) << five.output;
  const Result off = tune("flow " + frames + one + " --param median_window=0 -o " + path("0.flo"));
  ASSERT_EQ(off.exit_code, 0) << off.output;
  ASSERT_FALSE(bytes(path("on.flo")).empty());
  EXPECT_EQ(bytes(path("on.flo")), bytes(path("5.flo")));
  EXPECT_NE(bytes(path("on.flo")), bytes(path("0.flo")));

  std::ofstream(path("old.h"))
      << "// flowtune tuned header (written before median_window existed)\n"
      << R"(// flowtune-config: {"workload":"tvl1","variant":"kokkos_global","precision":"f32",)"
      << R"("clock_mhz":0,"tunables":{"tile_x":32,"tile_y":4},"params":{"epsilon":0.005,)"
      << R"("iterations":5,"lambda":0.15,"n_scales":0,"n_warpings":1,"presmoothing_sigma":0.8,)"
      << R"("tau":0.25,"theta":0.3,"zoom":0.5}})"
      << "\n";
  const Result old =
      tune("flow " + frames + " --tuned " + path("old.h") + " -o " + path("old.flo"));
  ASSERT_EQ(old.exit_code, 0) << old.output;
  EXPECT_EQ(old.output.find("median_window"), std::string::npos) << old.output;
  EXPECT_EQ(bytes(path("old.flo")), bytes(path("0.flo")));
}

}  // namespace
}  // namespace flowtune
