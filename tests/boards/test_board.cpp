// Board profiles: the 8 files load with their cited figures; errors name the file and key.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "boards/board.hpp"
#include "boards/closest_key.hpp"
#include "boards/nvml.hpp"
#include "fake_sysfs.hpp"
#include "test_files.hpp"

using namespace flowtune;
using flowtune_test::FakeSysfs;
using flowtune_test::slurp;

namespace {

/// The message of the BoardError load_board(path) throws ("" if none).
std::string load_error(const std::string& path) {
  try {
    load_board(path);
  } catch (const BoardError& e) {
    return e.what();
  }
  return "";
}

/// agx-xavier.toml with one substitution, written to dir/agx-xavier.toml.
std::string variant_of_agx(const FakeSysfs& dir, const std::string& from, const std::string& to) {
  std::string text = slurp(boards_dir() + "/agx-xavier.toml");
  auto pos = text.find(from);
  EXPECT_NE(pos, std::string::npos) << from;
  text.replace(pos, from.size(), to);
  dir.write("/agx-xavier.toml", text);
  return dir.root() + "/agx-xavier.toml";
}

}  // namespace

TEST(Boards, ListHasTheEight) {
  EXPECT_EQ(list_boards(), (std::vector<std::string>{"agx-orin", "agx-xavier", "h100", "h200",
                                                     "host", "nano", "orin-nano", "tx2"}));
}

TEST(Boards, EveryProfileLoadsAndAgreesWithTheArchTable) {
  for (const auto& name : list_boards()) {
    Board b = load_board(name);
    EXPECT_EQ(b.name, name);
    EXPECT_EQ(b.source_file, boards_dir() + "/" + name + ".toml");
    if (b.target == "cuda") {
      EXPECT_EQ(b.limits.cc_major, b.cc_major);
      EXPECT_GT(b.sm_count, 0);
      EXPECT_FALSE(b.gpu_clocks_mhz.empty());
      EXPECT_FALSE(b.match.empty());
    }
  }
}

TEST(Boards, PaperAndDesignFigures) {
  Board agx = load_board("agx-xavier");
  EXPECT_EQ(agx.arch(), "sm_72");
  EXPECT_EQ(agx.sm_count, 8);
  EXPECT_EQ(agx.limits.registers_per_sm, 65536);
  EXPECT_EQ(agx.limits.max_registers_per_block, 65536);  // the paper's 65536
  EXPECT_EQ(agx.limits.shared_bytes_per_sm, 96 * 1024);
  EXPECT_EQ(agx.power.kind, "ina3221_hwmon");
  EXPECT_EQ(agx.clock_control.kind, "devfreq");
  EXPECT_EQ(agx.gpu_clocks_mhz.front(), 1377);
  for (const char* small : {"tx2", "nano"}) {
    Board b = load_board(small);
    EXPECT_EQ(b.limits.max_registers_per_block, 32768) << small;  // the paper's 32768
    EXPECT_EQ(b.limits.registers_per_sm, 65536) << small;
    EXPECT_EQ(b.limits.shared_bytes_per_sm, 64 * 1024) << small;
    EXPECT_EQ(b.power.kind, "ina3221_iio") << small;
  }
  EXPECT_EQ(load_board("tx2").arch(), "sm_62");
  EXPECT_EQ(load_board("nano").arch(), "sm_53");
  EXPECT_EQ(load_board("agx-orin").arch(), "sm_87");
  EXPECT_EQ(load_board("orin-nano").arch(), "sm_87");
  Board h200 = load_board("h200");  // ARCHITECTURE.md, "Hardware facts measured on an H200"
  EXPECT_EQ(h200.arch(), "sm_90");
  EXPECT_EQ(h200.sm_count, 132);
  EXPECT_EQ(h200.limits.registers_per_sm, 65536);
  EXPECT_EQ(h200.limits.shared_bytes_per_sm, 228 * 1024);
  EXPECT_EQ(h200.limits.shared_bytes_per_block_optin, 227 * 1024);
  EXPECT_EQ(h200.l2_bytes, 60LL * 1024 * 1024);
  EXPECT_EQ(h200.gpu_clocks_mhz.size(), 110u);
  EXPECT_EQ(h200.gpu_clocks_mhz.front(), 1980);
  EXPECT_EQ(h200.gpu_clocks_mhz.back(), 345);
  EXPECT_EQ(h200.power.kind, "nvml");
  Board host = load_board("host");
  EXPECT_EQ(host.target, "cpu");
  EXPECT_EQ(host.arch(), "");
  EXPECT_EQ(host.power.kind, "rapl");
}

TEST(Boards, FormatShowsTheFigures) {
  std::string text = format_board(load_board("agx-xavier"));
  EXPECT_NE(text.find("sm_72"), std::string::npos) << text;
  EXPECT_NE(text.find("65536 per SM, 65536 per block"), std::string::npos) << text;
  EXPECT_NE(text.find("96 KiB per SM, 48 KiB per block (96 KiB opt-in)"), std::string::npos)
      << text;
  EXPECT_NE(text.find("1377"), std::string::npos) << text;
}

TEST(Boards, UnknownNameNamesTheDirectory) {
  try {
    load_board("nosuch");
    FAIL();
  } catch (const BoardError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find("unknown board 'nosuch'"), std::string::npos) << m;
    EXPECT_NE(m.find(boards_dir() + "/nosuch.toml"), std::string::npos) << m;
    EXPECT_NE(m.find("agx-xavier"), std::string::npos) << m;
  }
}

TEST(Boards, UnreadableFileNamed) {
  FakeSysfs dir;
  std::string m = load_error(dir.root() + "/missing.toml");
  EXPECT_NE(m.find("cannot read board file " + dir.root() + "/missing.toml"), std::string::npos)
      << m;
}

TEST(Boards, UnknownKeyNamed) {
  FakeSysfs dir;
  std::string path = variant_of_agx(dir, "sm_count = 8\n", "sm_count = 8\nsm_cuont = 8\n");
  std::string m = load_error(path);
  EXPECT_NE(m.find(path), std::string::npos) << m;
  EXPECT_NE(m.find("key 'gpu.sm_cuont': unknown key"), std::string::npos) << m;
  path = variant_of_agx(dir, "target = \"cuda\"\n", "target = \"cuda\"\ncolour = \"green\"\n");
  EXPECT_NE(load_error(path).find("key 'colour': unknown key"), std::string::npos);
}

// A misspelled required key is named with the key it should be, not only reported missing.
TEST(Boards, MisspelledRequiredKeySaysDidYouMean) {
  FakeSysfs dir;
  std::string path = variant_of_agx(dir, "target = \"cuda\"\n", "traget = \"cuda\"\n");
  std::string m = load_error(path);
  EXPECT_NE(m.find(path + ": key 'traget': unknown key; did you mean 'target'? (required key "
                          "'target' is missing)"),
            std::string::npos)
      << m;
  path = variant_of_agx(dir, "sm_count = 8\n", "sm_cuont = 8\n");
  m = load_error(path);
  EXPECT_NE(m.find(path + ": key 'gpu.sm_cuont': unknown key; did you mean 'gpu.sm_count'?"),
            std::string::npos)
      << m;
  // A key nothing resembles keeps the plain message.
  path = variant_of_agx(dir, "target = \"cuda\"\n", "target = \"cuda\"\ncolour = \"green\"\n");
  m = load_error(path);
  EXPECT_NE(m.find("key 'colour': unknown key (allowed here: "), std::string::npos) << m;
}

TEST(Boards, ClosestKeyByHand) {
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("sm_cuont", "sm_count"), 2u);  // two substitutions
  const std::set<std::string> keys = {"name", "description", "target", "match"};
  EXPECT_EQ(closest_key("nmae", keys), std::optional<std::string>("name"));
  EXPECT_EQ(closest_key("targte", keys), std::optional<std::string>("target"));
  EXPECT_EQ(closest_key("colour", keys), std::nullopt);
  EXPECT_EQ(closest_key("name", keys), std::nullopt);  // known
  EXPECT_EQ(closest_key("ab", {"cd"}), std::nullopt);  // 2 edits of 2 letters: no likeness
}

TEST(Boards, MissingFieldNamed) {
  FakeSysfs dir;
  std::string path = variant_of_agx(dir, "sm_count = 8\n", "");
  std::string m = load_error(path);
  EXPECT_NE(m.find(path + ": key 'gpu.sm_count': missing"), std::string::npos) << m;
  path = variant_of_agx(dir, "rails = [\"GPU\"]\n", "");
  EXPECT_NE(load_error(path).find("key 'power.rails': missing"), std::string::npos);
}

TEST(Boards, WrongTypeSyntaxAndContradictionNamed) {
  FakeSysfs dir;
  std::string path = variant_of_agx(dir, "sm_count = 8\n", "sm_count = \"eight\"\n");
  EXPECT_NE(load_error(path).find("key 'gpu.sm_count': must be an integer"), std::string::npos);
  path = variant_of_agx(dir, "max_registers_per_block = 65536", "max_registers_per_block = 32768");
  std::string m = load_error(path);
  EXPECT_NE(
      m.find("key 'limits.max_registers_per_block': 32768 contradicts the sm_72 table value 65536"),
      std::string::npos)
      << m;
  path = variant_of_agx(dir, "sm_count = 8\n", "sm_count = [8\n");
  m = load_error(path);
  EXPECT_NE(m.find(path + ":"), std::string::npos) << m;
  EXPECT_NE(m.find("TOML syntax error"), std::string::npos) << m;
  path = variant_of_agx(dir, "/sys/devices/17000000.gv11b/devfreq/17000000.gv11b", "/etc/gpu");
  m = load_error(path);
  EXPECT_NE(m.find("key 'clock_control.devfreq_path': refusing path '/etc/gpu'"), std::string::npos)
      << m;
  path = variant_of_agx(dir, "cc_minor = 2", "cc_minor = 4");
  EXPECT_NE(load_error(path).find("no architecture limits for compute capability 7.4"),
            std::string::npos);
}

TEST(Boards, BoardsDirFromEnvironment) {
  FakeSysfs dir;
  dir.write("/only.toml",
            "name = \"only\"\ndescription = \"d\"\ntarget = \"cpu\"\n[power]\nkind = \"none\"\n"
            "[clock_control]\nkind = \"none\"\n");
  ::setenv("FLOWTUNE_BOARDS_DIR", dir.root().c_str(), 1);
  auto names = list_boards();
  Board b = load_board("only");
  ::unsetenv("FLOWTUNE_BOARDS_DIR");
  EXPECT_EQ(names, std::vector<std::string>{"only"});
  EXPECT_EQ(b.power.kind, "none");
}

TEST(Boards, AutoDetectionWithoutNvml) {
  if (Nvml::get()) GTEST_SKIP() << "an NVML GPU is present; covered by the device test";
  FakeSysfs root;
  ::setenv("FLOWTUNE_SYSFS_ROOT", root.root().c_str(), 1);
  EXPECT_EQ(detect_board_name(), "host");  // no NVML, no device tree
  std::string m;
  std::vector<std::pair<std::string, std::string>> cases = {
      {"NVIDIA Jetson AGX Xavier Developer Kit", "agx-xavier"},
      {"Jetson-AGX", "agx-xavier"},
      {"NVIDIA Jetson Nano Developer Kit", "nano"},
      {"NVIDIA Jetson Orin Nano Developer Kit", "orin-nano"},
      {"NVIDIA Jetson AGX Orin Developer Kit", "agx-orin"},
      {"quill", "tx2"},
      {"Raspberry Pi 4 Model B Rev 1.4", "host"}};
  for (const auto& [model, expected] : cases) {
    root.write("/proc/device-tree/model", model + std::string(1, '\0'));
    EXPECT_EQ(detect_board_name(), expected) << model;
  }
  root.write("/proc/device-tree/model", std::string("NVIDIA Jetson Thor Developer Kit") + '\0');
  try {
    detect_board_name();
    ADD_FAILURE() << "expected a throw";
  } catch (const BoardError& e) {
    m = e.what();
  }
  ::unsetenv("FLOWTUNE_SYSFS_ROOT");
  EXPECT_NE(m.find("no board profile"), std::string::npos) << m;
  EXPECT_NE(m.find("NVIDIA Jetson Thor Developer Kit"), std::string::npos) << m;
  // Without a GPU the device check is a no-op.
  EXPECT_NO_THROW(check_board_matches_device(load_board("agx")));
}

TEST(Boards, DirectoryIsNotABoardProfile) {
  FakeSysfs dir;
  std::filesystem::create_directories(dir.root() + "/agx.toml");
  // A directory is named as such, not parsed as an empty table ("key 'name': missing").
  std::string m = load_error(dir.root() + "/agx.toml");
  EXPECT_EQ(m, dir.root() + "/agx.toml: is a directory, not a board profile (.toml)");
  m = load_error(dir.root());  // no ".toml": not a board name, an existing directory
  EXPECT_EQ(m, dir.root() + ": is a directory, not a board profile (.toml)");
}

TEST(Boards, MissingOrUnreadablePathNamed) {
  FakeSysfs dir;
  std::string path = dir.root() + "/no/such/dir/agx.toml";
  std::string m = load_error(path);
  EXPECT_EQ(m.rfind("cannot read board file " + path + ": ", 0), 0u) << m;
  dir.write("/plain", "x");
  path = dir.root() + "/plain/agx.toml";  // a file used as a directory
  m = load_error(path);
  EXPECT_EQ(m.rfind("cannot read board file " + path + ": ", 0), 0u) << m;
  if (::geteuid() != 0) {  // root reads a mode-000 file
    path = variant_of_agx(dir, "sm_count = 8\n", "sm_count = 8\n");
    std::filesystem::permissions(path, std::filesystem::perms::none);
    m = load_error(path);
    EXPECT_EQ(m, "cannot read board file " + path + ": Permission denied");
  }
}

TEST(Boards, GlobThatCanClimbOutOfSysRefused) {
  FakeSysfs dir;
  // ".*" passes a textual ".." check but glob(3) expands it to "." and "..".
  for (const std::string& bad : {std::string("/sys/.*/tmp/x"), std::string("/sys/class/.?/x")}) {
    std::string path = variant_of_agx(dir, "/sys/bus/i2c/drivers/ina3221/1-0040/hwmon/hwmon*", bad);
    std::string m = load_error(path);
    EXPECT_NE(m.find(path + ": key 'power.paths': refusing path '" + bad + "'"), std::string::npos)
        << m;
  }
  // A component that cannot match "." or ".." (glob matches a leading period explicitly).
  std::string path = variant_of_agx(dir, "hwmon/hwmon*", "hwmon/[.h]wmon?");
  EXPECT_EQ(load_error(path), "");
}
