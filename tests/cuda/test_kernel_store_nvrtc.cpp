// CPU-only (NVRTC needs no GPU): a real NVRTC build shared through an SQLite store between two
// "hosts", two child processes with cache folders of their own. The second fetches the binary
// the first compiled and compiles nothing; its cubin is the first's, byte for byte. The children
// are forked from a test process that may have built kernels already (the whole test_cuda in
// one process): the build carries a define of this test's own (FT_TEST_NONCE), so no earlier
// build of the process matches it in memory, and the counts are taken as differences.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "db/repository.hpp"
#include "tuner/kernel_store.hpp"
#include "variants/cuda/nvrtc_build.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Runs one build of the resident-level kernel in a child process with cache folder `cache`
// and the store `storage`; returns the child's counts ("compiled local_hits fetched rejected
// published store_errors registers"), or "" when the child failed.
std::string build_in_child(const fs::path& dir, const std::string& host, const std::string& storage,
                           const std::string& nonce) {
  const fs::path out = dir / (host + ".txt");
  const pid_t pid = ::fork();
  if (pid == 0) {
    int code = 1;
    try {
      ::setenv("FLOWTUNE_CACHE_DIR", (dir / ("cache_" + host)).c_str(), 1);
      set_shared_kernel_store(make_db_kernel_store(storage, host));
      const KernelBuildCounts before = kernel_build_counters().get();
      const auto b = cuda::nvrtc_build(
          "tvl1_resident.cuh",
          {"FT_PRECISION_F32", "FT_RESIDENT_THREADS=1024", "FT_TEST_NONCE=" + nonce}, "sm_90");
      const KernelBuildCounts c = kernel_build_counters().get() - before;
      std::ofstream(out) << c.compiled << ' ' << c.local_hits << ' ' << c.fetched << ' '
                         << c.rejected << ' ' << c.published << ' ' << c.store_errors << ' '
                         << (b->resources.empty() ? 0 : b->resources[0].registers_per_thread);
      code = 0;
    } catch (const std::exception& e) {
      std::ofstream(dir / (host + ".error")) << e.what();
    }
    ::_exit(code);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return "";
  return read_file(out);
}

TEST(KernelStoreNvrtc, ASecondHostFetchesTheBinaryInsteadOfCompiling) {
  const fs::path dir =
      fs::temp_directory_path() / ("flowtune_test_kstore_nvrtc_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string storage = (dir / "shared.db").string();
  { db::Repository create(storage); }

  const std::string nonce = std::to_string(::getpid());
  const std::string a = build_in_child(dir, "hostA", storage, nonce);
  ASSERT_FALSE(a.empty()) << read_file(dir / "hostA.error");
  const std::string b = build_in_child(dir, "hostB", storage, nonce);
  ASSERT_FALSE(b.empty()) << read_file(dir / "hostB.error");
  std::istringstream as(a), bs(b);
  int a_compiled, a_local, a_fetched, a_rejected, a_published, a_errors, a_registers;
  int b_compiled, b_local, b_fetched, b_rejected, b_published, b_errors, b_registers;
  as >> a_compiled >> a_local >> a_fetched >> a_rejected >> a_published >> a_errors >> a_registers;
  bs >> b_compiled >> b_local >> b_fetched >> b_rejected >> b_published >> b_errors >> b_registers;
  EXPECT_EQ(a_compiled, 1) << a;
  EXPECT_EQ(a_published, 1) << a;
  EXPECT_EQ(a_errors, 0) << a;
  EXPECT_EQ(b_compiled, 0) << b;
  EXPECT_EQ(b_fetched, 1) << b;
  EXPECT_EQ(b_errors, 0) << b;
  EXPECT_GT(b_registers, 0);  // the fetched log holds the resource report
  EXPECT_EQ(b_registers, a_registers);

  // The same entry in both folders, the cubin byte for byte.
  std::string a_cubin, b_cubin;
  for (const auto& f : fs::directory_iterator(dir / "cache_hostA"))
    if (f.path().extension() == ".cubin") {
      a_cubin = read_file(f.path());
      b_cubin = read_file(dir / "cache_hostB" / f.path().filename());
    }
  EXPECT_FALSE(a_cubin.empty());
  EXPECT_EQ(a_cubin, b_cubin);
  const db::Repository repo(storage, db::OpenMode::read_only);
  EXPECT_EQ(repo.count_kernel_binaries(), 1);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace flowtune
