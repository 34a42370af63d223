// tuner/, cli/, db/ and reports/ know workloads only through workloads/workload.hpp: no TV-L1 name,
// type or header outside the TV-L1 workload (comments aside). db/schema_migrations.cpp is exempt:
// its v1 -> v2 migration moves the columns of v1, which stored TV-L1 configs only.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace {

namespace fs = std::filesystem;

std::string code_without_comments(const fs::path& file) {
  std::ifstream in(file);
  std::ostringstream out;
  for (std::string line; std::getline(in, line);) {
    const auto c = line.find("//");
    out << (c == std::string::npos ? line : line.substr(0, c)) << '\n';
  }
  return out.str();
}

TEST(GenericLayers, NoWorkloadSpecificCodeInTunerCliDbOrReports) {
  const fs::path root = FLOWTUNE_TEST_SOURCE_DIR;
  std::size_t files = 0;
  for (const char* folder : {"tuner", "cli", "db", "reports"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root / folder)) {
      const std::string ext = entry.path().extension().string();
      if (ext != ".cpp" && ext != ".hpp") continue;
      if (entry.path() == root / "db" / "schema_migrations.cpp") continue;
      ++files;
      std::string code = code_without_comments(entry.path());
      // The one generic header of kernels/: cooperative cancellation (no workload in it).
      for (auto at = code.find("#include \"kernels/cancellation.hpp\""); at != std::string::npos;
           at = code.find("#include \"kernels/cancellation.hpp\""))
        code.erase(at, std::string("#include \"kernels/cancellation.hpp\"").size());
      for (const char* word : {"tvl1", "Tvl1", "aepe", "AEPE", "FlowField", "FlowSolver",
                               "#include \"kernels/", "#include \"workloads/tvl1"}) {
        EXPECT_EQ(code.find(word), std::string::npos)
            << entry.path().lexically_relative(root) << " mentions " << word;
      }
    }
  }
  EXPECT_GT(files, 30u);  // the walk found the sources
}

}  // namespace
