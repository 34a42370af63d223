// Board names a user types: agx-xavier and agx-orin, `agx` an alias of agx-xavier with a note
// naming both; aliases that clash are refused naming the files; --board auto names the device.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

#include "boards/board.hpp"
#include "boards/nvml.hpp"
#include "fake_sysfs.hpp"
#include "test_files.hpp"

using namespace flowtune;
using flowtune_test::FakeSysfs;
using flowtune_test::slurp;

namespace {

// FLOWTUNE_BOARDS_DIR pointed at a directory for one scope.
class BoardsDirScope {
 public:
  explicit BoardsDirScope(const std::string& dir) {
    ::setenv("FLOWTUNE_BOARDS_DIR", dir.c_str(), 1);
  }
  ~BoardsDirScope() { ::unsetenv("FLOWTUNE_BOARDS_DIR"); }
};

// A copy of the profile `name` named `as` (file and name key), with `extra` appended to its
// top-level keys (before the first table).
void write_profile(const FakeSysfs& dir, const std::string& name, const std::string& as,
                   const std::string& extra) {
  std::string text = slurp(boards_dir() + "/" + name + ".toml");
  const std::string key = "name = \"" + name + "\"\n";
  const auto pos = text.find(key);
  ASSERT_NE(pos, std::string::npos);
  text.replace(pos, key.size(), "name = \"" + as + "\"\n" + extra);
  dir.write("/" + as + ".toml", text);
}

}  // namespace

TEST(BoardAliases, AgxIsXaviersAliasAndLoadsItsProfile) {
  EXPECT_EQ(resolve_board_alias("agx"), std::optional<std::string>("agx-xavier"));
  const Board b = load_board("agx");
  EXPECT_EQ(b.name, "agx-xavier");
  EXPECT_EQ(b.arch(), "sm_72");  // Xavier's Volta, not Orin's sm_87
  EXPECT_EQ(b.source_file, boards_dir() + "/agx-xavier.toml");
  EXPECT_EQ(b.aliases, std::vector<std::string>{"agx"});
}

TEST(BoardAliases, ProfileNamesAndUnknownNamesAreNoAliases) {
  EXPECT_EQ(resolve_board_alias("agx-xavier"), std::nullopt);
  EXPECT_EQ(resolve_board_alias("agx-orin"), std::nullopt);
  EXPECT_EQ(resolve_board_alias("nosuch"), std::nullopt);
  EXPECT_EQ(resolve_board_alias("boards/agx.toml"), std::nullopt);
  EXPECT_EQ(board_alias_note("agx-orin"), "");
}

TEST(BoardAliases, TheNoteNamesTheProfileAndTheOrin) {
  const std::string note = board_alias_note("agx");
  EXPECT_EQ(note, "--board agx: an alias of agx-xavier (" + load_board("agx-xavier").description +
                      "); for " + load_board("agx-orin").description + " use --board agx-orin");
}

TEST(BoardAliases, AnAliasThatIsAlsoAProfileIsRefusedNamingTheFile) {
  FakeSysfs dir;
  write_profile(dir, "agx-orin", "agx-orin", "aliases = [\"tx2\"]\n");
  write_profile(dir, "tx2", "tx2", "");
  BoardsDirScope scope(dir.root());
  try {
    resolve_board_alias("agx");
    FAIL() << "expected a BoardError";
  } catch (const BoardError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(dir.root() + "/agx-orin.toml"), std::string::npos) << m;
    EXPECT_NE(m.find("'tx2' is also the board"), std::string::npos) << m;
  }
}

TEST(BoardAliases, TwoProfilesClaimingOneAliasAreRefusedNamingBothFiles) {
  FakeSysfs dir;
  write_profile(dir, "agx-orin", "agx-orin", "aliases = [\"agx\"]\n");
  write_profile(dir, "agx-xavier", "agx-xavier", "");
  BoardsDirScope scope(dir.root());
  try {
    load_board("agx");
    FAIL() << "expected a BoardError";
  } catch (const BoardError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find(dir.root() + "/agx-orin.toml"), std::string::npos) << m;
    EXPECT_NE(m.find(dir.root() + "/agx-xavier.toml"), std::string::npos) << m;
  }
}

TEST(BoardAliases, AnAliasEqualToItsOwnNameIsABadKey) {
  FakeSysfs dir;
  write_profile(dir, "nano", "nano", "aliases = [\"nano\"]\n");
  BoardsDirScope scope(dir.root());
  try {
    load_board(dir.root() + "/nano.toml");
    FAIL() << "expected a BoardError";
  } catch (const BoardError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("aliases"), std::string::npos) << m;
    EXPECT_NE(m.find("not a usable board name"), std::string::npos) << m;
  }
}

TEST(BoardAliases, AutoNamesTheDeviceItFound) {
  if (Nvml::get()) GTEST_SKIP() << "an NVML GPU is present; the device decides";
  FakeSysfs root;
  ::setenv("FLOWTUNE_SYSFS_ROOT", root.root().c_str(), 1);
  const BoardDetection none = detect_board();
  root.write("/proc/device-tree/model", std::string("NVIDIA Jetson AGX Orin Developer Kit") + '\0');
  const BoardDetection orin = detect_board();
  ::unsetenv("FLOWTUNE_SYSFS_ROOT");
  EXPECT_EQ(none.name, "host");
  EXPECT_EQ(board_detection_note(none, load_board("host")),
            "--board auto: no GPU found (no NVML device, no Jetson device tree): board host (" +
                load_board("host").description + ")");
  EXPECT_EQ(orin.name, "agx-orin");
  EXPECT_EQ(board_detection_note(orin, load_board("agx-orin")),
            "--board auto: found NVIDIA Jetson AGX Orin Developer Kit (device tree): board "
            "agx-orin (" +
                load_board("agx-orin").description + ")");
}
