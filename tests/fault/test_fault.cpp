// Fault isolation: configs that crash (SIGSEGV) or hang are recorded as failed (runtime,
// timeout) and the configs after them are measured, by `tune_with_faults` (tune plus the
// test-only workload of fault_workload.cpp). On a GPU, a kernel writing through a null
// pointer is the same (run by benchmarks/run workloads; skipped here).
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "db/repository.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

TEST(FaultIsolation, CrashAndHangAreFailuresAndTheRunGoesOn) {
  const fs::path dir = fs::temp_directory_path() / ("flowtune_fault_" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string db = (dir / "f.db").string();
  const std::string cmd = std::string(FLOWTUNE_FAULTY_TUNE_EXE) +
                          " --board host --workload faulty --db " + db +
                          " --min-rounds 1 --min-window-ms 0 --config-timeout-s 3 > " +
                          (dir / "log.txt").string() + " 2>&1";
  const int rc = std::system(cmd.c_str());
  std::ifstream in(dir / "log.txt");
  const std::string log((std::istreambuf_iterator<char>(in)), {});
  ASSERT_TRUE(WIFEXITED(rc)) << log;
  EXPECT_EQ(WEXITSTATUS(rc), 1) << "a run with failures exits non-zero: " << log;
  EXPECT_NE(log.find("2 config(s) failed"), std::string::npos) << log;
  db::Repository repo(db);
  std::vector<std::string> measured;
  for (const auto& mc : repo.measured("host")) measured.push_back(mc.config.variant);
  EXPECT_EQ(measured, (std::vector<std::string>{"ok", "ok2"})) << "the config after the crash ran";
  const auto failures = repo.failures("host");
  ASSERT_EQ(failures.size(), 2u) << log;
  EXPECT_EQ(failures[0].config.variant, "segv");
  EXPECT_EQ(failures[0].failure_class, "runtime");
  EXPECT_NE(failures[0].message.find("Segmentation fault"), std::string::npos)
      << failures[0].message;
  EXPECT_EQ(failures[1].config.variant, "hang");
  EXPECT_EQ(failures[1].failure_class, "timeout");
  EXPECT_TRUE(repo.pruned("host").empty()) << "failed is never pruned";
  EXPECT_EQ(repo.runs()[0].status, "done");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
