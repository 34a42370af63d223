// The layering of ARCHITECTURE.md holds: every `#include "<folder>/..."` of a top-level
// source folder names that folder or one it may include (the ```layering block of
// ARCHITECTURE.md), every top-level source folder is listed there, and the documented graph
// has no cycle. The link graph of the libraries is checked against the same block by
// test_link_graph.cpp.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "tests/tuner/architecture_layers.hpp"

namespace {

namespace fs = std::filesystem;

using flowtune::test::documented_layers;

// The top-level folder each quoted include of file names ("" for none, e.g. <vector>).
std::vector<std::string> included_folders(const fs::path& file) {
  static const std::regex include(R"(^\s*#\s*include\s+"([a-z_]+)/)");
  std::ifstream in(file);
  std::vector<std::string> out;
  std::smatch m;
  for (std::string line; std::getline(in, line);)
    if (std::regex_search(line, m, include)) out.push_back(m[1]);
  return out;
}

TEST(Layering, IncludesFollowTheDocumentedLayers) {
  const fs::path root = FLOWTUNE_TEST_SOURCE_DIR;
  const auto layers = documented_layers(root);
  ASSERT_GE(layers.size(), 10u) << "no ```layering block in ARCHITECTURE.md";
  std::size_t checked = 0;
  for (const auto& [folder, allowed] : layers) {
    ASSERT_TRUE(fs::is_directory(root / folder)) << folder << " is documented but absent";
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp" && ext != ".cuh" && ext != ".h") continue;
      for (const std::string& to : included_folders(entry.path())) {
        if (to == folder || !layers.count(to)) continue;  // itself, or not a source folder
        ++checked;
        EXPECT_TRUE(allowed.count(to))
            << entry.path().lexically_relative(root) << " includes " << to << "/, which " << folder
            << "/ may not (ARCHITECTURE.md, Layers)";
      }
    }
  }
  EXPECT_GT(checked, 100u);  // the walk found the includes
}

TEST(Layering, EveryTopLevelSourceFolderIsDocumented) {
  const fs::path root = FLOWTUNE_TEST_SOURCE_DIR;
  const auto layers = documented_layers(root);
  const std::set<std::string> not_layers = {"tests", "examples", "scripts",      "cmake",
                                            "data",  "build",    "build-device", "out"};
  for (const auto& entry : fs::directory_iterator(root)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name[0] == '.' || not_layers.count(name)) continue;
    if (name.rfind("build", 0) == 0) continue;
    bool has_sources = false;
    for (const auto& f : fs::recursive_directory_iterator(entry.path())) {
      const std::string ext = f.path().extension().string();
      has_sources = has_sources || ext == ".cpp" || ext == ".hpp" || ext == ".cuh";
    }
    EXPECT_TRUE(!has_sources || layers.count(name)) << name << "/ is not in ARCHITECTURE.md";
  }
}

TEST(Layering, TheDocumentedGraphHasNoCycle) {
  const auto layers = documented_layers(FLOWTUNE_TEST_SOURCE_DIR);
  std::map<std::string, int> state;  // 0 unseen, 1 on the path, 2 done
  std::function<bool(const std::string&)> acyclic = [&](const std::string& f) {
    if (state[f] == 1) return false;
    if (state[f] == 2) return true;
    state[f] = 1;
    const auto it = layers.find(f);
    if (it != layers.end())
      for (const std::string& d : it->second)
        if (!acyclic(d)) return false;
    state[f] = 2;
    return true;
  };
  for (const auto& [folder, deps] : layers) EXPECT_TRUE(acyclic(folder)) << "cycle via " << folder;
}

}  // namespace
