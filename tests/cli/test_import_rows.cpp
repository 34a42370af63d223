// `tune import`'s parallel reading (cli/import_rows.hpp): whatever the threads and blocks, the
// first bad entry in file order is the one reported, exactly as read one by one, and the
// rows are those of the file (checked against values computed here from the generator).
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/import_rows.hpp"

namespace flowtune {
namespace {

constexpr int kTileX[] = {8, 16, 32, 64, 128};
constexpr int kTileY[] = {1, 2, 4, 8, 16};

/// Entry i of a generated cache of TV-L1's kokkos_global: tile_x, tile_y from the domain,
/// iterations 1 + i / 25 (a distinct config each), time 0.5 + (i % 97) / 8 ms.
struct Generated {
  int tile_x, tile_y, iterations;
  double time_ms;
  std::string key;
};
Generated generated(int i) {
  Generated g{kTileX[i % 5], kTileY[(i / 5) % 5], 1 + i / 25, 0.5 + (i % 97) / 8.0, ""};
  g.key = "kokkos_global,f32," + std::to_string(g.tile_x) + "," + std::to_string(g.tile_y) + "," +
          std::to_string(g.iterations);
  return g;
}

/// The text of a cache of n generated entries; entry i's text is replaced by edits[i] when
/// given (the member, name and value).
std::string cache_text(int n, const std::vector<std::pair<int, std::string>>& edits = {}) {
  std::ostringstream s;
  s << R"({"kernel_name": "tvl1", "device_name": "gen", "tune_params_keys": )"
    << R"(["variant", "precision", "tile_x", "tile_y", "iterations"], "cache": {)";
  for (int i = 0; i < n; ++i) {
    const Generated g = generated(i);
    std::string member = "\"" + g.key + "\": {\"variant\": \"kokkos_global\", \"precision\": " +
                         "\"f32\", \"tile_x\": " + std::to_string(g.tile_x) +
                         ", \"tile_y\": " + std::to_string(g.tile_y) +
                         ", \"iterations\": " + std::to_string(g.iterations) +
                         ", \"time\": " + std::to_string(g.time_ms) + "}";
    for (const auto& [at, text] : edits)
      if (at == i) member = text;
    s << (i ? ",\n" : "\n") << member;
  }
  s << "}}";
  return s.str();
}

/// The message of import_rows over text (threads, block), "" when it reads the file.
std::string first_error(const std::string& text, unsigned threads, std::size_t block) {
  std::istringstream in(text);
  const interop::KernelTunerFile f(in, {"", {"tile_x", "tile_y"}});
  try {
    cli::import_rows(f, "gen.json", "host", "", threads, block);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(ImportRows, TheFirstBadEntryInFileOrderWhateverTheThreads) {
  const int n = 400;
  const Generated g130 = generated(130), g200 = generated(200), g350 = generated(350);
  // Three bad entries in different blocks: 130 lacks its time, 200 a tile_x outside the
  // domain, 350 a string tunable.
  const std::string no_time = "\"" + g130.key +
                              "\": {\"variant\": \"kokkos_global\", \"precision\": \"f32\", "
                              "\"tile_x\": 8, \"tile_y\": 1, \"iterations\": 6}";
  const std::string bad_tile = "\"" + g200.key +
                               "\": {\"variant\": \"kokkos_global\", \"precision\": \"f32\", "
                               "\"tile_x\": 33, \"tile_y\": 1, \"iterations\": 9, \"time\": 1}";
  const std::string string_tile = "\"" + g350.key +
                                  "\": {\"variant\": \"kokkos_global\", \"precision\": \"f32\", "
                                  "\"tile_x\": \"x\", \"tile_y\": 1, \"iterations\": 15, "
                                  "\"time\": 1}";
  const std::string all = cache_text(n, {{130, no_time}, {200, bad_tile}, {350, string_tile}});
  const std::string later = cache_text(n, {{200, bad_tile}, {350, string_tile}});
  const std::string last = cache_text(n, {{350, string_tile}});
  const std::string expect_130 = "gen.json: entry '" + g130.key + "', field 'time': missing";
  const std::string expect_200 = "gen.json: entry '" + g200.key + "', field 'tile_x': 33 is not";
  const std::string expect_350 = "gen.json: entry '" + g350.key + "', field 'tile_x': \"x\"";
  const std::string serial = first_error(all, 1, n);
  EXPECT_EQ(serial.rfind(expect_130, 0), 0u) << serial;
  for (unsigned threads : {1u, 2u, 4u, 8u})
    for (std::size_t block : {1u, 3u, 16u, 64u}) {
      EXPECT_EQ(first_error(all, threads, block), serial) << threads << " x " << block;
      const std::string b = first_error(later, threads, block);
      EXPECT_EQ(b.rfind(expect_200, 0), 0u) << threads << " x " << block << ": " << b;
      const std::string c = first_error(last, threads, block);
      EXPECT_EQ(c.rfind(expect_350, 0), 0u) << threads << " x " << block << ": " << c;
    }
}

TEST(ImportRows, AConfigMeasuredTwiceIsReportedInFileOrderToo) {
  const int n = 300;
  const Generated g5 = generated(5), g40 = generated(40), g250 = generated(250);
  // Entry 40 measures entry 5's config again (another cache key, the same values);
  // entry 250 lacks its time.
  const std::string again =
      "\"again\": {\"variant\": \"kokkos_global\", \"precision\": "
      "\"f32\", \"tile_x\": " +
      std::to_string(g5.tile_x) + ", \"tile_y\": " + std::to_string(g5.tile_y) +
      ", \"iterations\": " + std::to_string(g5.iterations) + ", \"time\": 3}";
  const std::string no_time = "\"" + g250.key +
                              "\": {\"variant\": \"kokkos_global\", \"precision\": \"f32\", "
                              "\"tile_x\": 8, \"tile_y\": 1, \"iterations\": 11}";
  const std::string dup_first = cache_text(n, {{40, again}, {250, no_time}});
  const std::string expect_dup =
      "gen.json: entry 'again': the same config as entry '" + g5.key + "'";
  for (unsigned threads : {1u, 3u, 8u})
    for (std::size_t block : {1u, 7u, 32u}) {
      const std::string e = first_error(dup_first, threads, block);
      EXPECT_EQ(e.rfind(expect_dup, 0), 0u) << threads << " x " << block << ": " << e;
    }
  // The same duplicate after a bad entry (40 lacks its time): the bad entry is reported.
  const std::string no_time_40 = "\"" + g40.key +
                                 "\": {\"variant\": \"kokkos_global\", \"precision\": "
                                 "\"f32\", \"tile_x\": 8, \"tile_y\": 1, \"iterations\": 2}";
  const std::string bad_first = cache_text(n, {{40, no_time_40}, {250, again}});
  for (unsigned threads : {1u, 3u, 8u}) {
    const std::string e = first_error(bad_first, threads, 5);
    EXPECT_EQ(e.rfind("gen.json: entry '" + g40.key + "', field 'time'", 0), 0u) << e;
  }
}

TEST(ImportRows, RowsAreTheFileEntriesInFileOrder) {
  const int n = 3000;
  const std::string text = cache_text(n);
  std::istringstream in(text);
  const interop::KernelTunerFile f(in, {"", {"tile_x", "tile_y"}});
  ASSERT_EQ(f.size(), std::size_t(n));
  const cli::ImportRows rows = cli::import_rows(f, "gen.json", "host", "", 4, 7);
  ASSERT_EQ(rows.entries.size(), std::size_t(n));
  EXPECT_EQ(rows.dataset, "kernel_tuner:gen");
  EXPECT_EQ(rows.defaulted.count("lambda"), 1u);
  EXPECT_EQ(rows.defaulted.count("iterations"), 0u);  // the file gives it
  std::set<std::string> keys;
  for (int i = 0; i < n; ++i) {
    const Generated g = generated(i);
    const db::ImportedEntry& r = rows.entries[std::size_t(i)];
    EXPECT_EQ(r.where, "entry '" + g.key + "'");
    EXPECT_EQ(r.kind, db::ImportedEntry::Kind::measured);
    EXPECT_EQ(r.measurement.time_ms_median, std::stod(std::to_string(g.time_ms)));
    EXPECT_EQ(r.measurement.dataset, "kernel_tuner:gen");
    EXPECT_EQ(r.config.board, rows.board);
    // The texts of the configs row, as written by hand here.
    const std::string tunables =
        "{\"tile_x\":" + std::to_string(g.tile_x) + ",\"tile_y\":" + std::to_string(g.tile_y) + "}";
    EXPECT_EQ(r.tunables_json, tunables);
    EXPECT_NE(r.params_json.find(",\"iterations\":" + std::to_string(g.iterations) + ","),
              std::string::npos)
        << r.params_json;
    EXPECT_EQ(r.config.key, "tvl1 kokkos_global f32 " + tunables + " clock=0 " + r.params_json);
    EXPECT_EQ(r.config.label, "kokkos_global f32 tile_x=" + std::to_string(g.tile_x) +
                                  " tile_y=" + std::to_string(g.tile_y));
    keys.insert(r.config.key);
    if (HasFailure()) break;
  }
  EXPECT_EQ(keys.size(), std::size_t(n));
}

// A plain Kernel Tuner cache has no median_window: its configs take the parameter's absent
// value 0 (what the file's kernels computed), not its default 5, and the row has median_window 0
// written, as rows imported before the default changed.
TEST(ImportRows, AParameterTheFileLacksTakesItsAbsentValueNotItsDefault) {
  std::istringstream in(cache_text(2));
  const interop::KernelTunerFile f(in, {"", {"tile_x", "tile_y"}});
  const cli::ImportRows rows = cli::import_rows(f, "gen.json", "host", "", 1, 256);
  ASSERT_EQ(rows.entries.size(), 2u);
  EXPECT_EQ(rows.defaulted.count("median_window"), 1u);
  EXPECT_EQ(rows.entries[0].params_json,
            R"({"epsilon":0.005,"epsilon_check_every":1,"iterations":1,"lambda":0.15,)"
            R"("median_window":0,"n_scales":0,"n_warpings":5,"nl_median_window":0,)"
            R"("nl_occlusion":0,"nl_sigma_color":7,"nl_sigma_divergence":0.3,)"
            R"("nl_sigma_residual":20,"nl_sigma_spatial":7,"presmoothing_sigma":0.8,)"
            R"("rof_iterations":100,"rof_theta":0.125,"tau":0.25,"texture_alpha":0,"theta":0.3,)"
            R"("warm_start":0,"warping_interp":0,"zoom":0.5})");
}

}  // namespace
}  // namespace flowtune
