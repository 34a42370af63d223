// Compiled kernels shared through the run's store (tuner/kernel_store.hpp, table
// kernel_binaries): two "hosts" are two local cache folders over one store, an SQLite file or a
// PostgreSQL database of a throw-away server (skipped where there is none). The builds use a
// fake compiler (tests/doubles/fake_kernel_build.hpp): no NVRTC, no GPU.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>

#include "../db/postgres_server.hpp"
#include "../doubles/fake_kernel_build.hpp"
#include "db/repository.hpp"
#include "tests/test_dir.hpp"
#include "tuner/kernel_store.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

fs::path test_dir() {
  return test::per_test_dir("flowtune_test_kstore");
}

class KernelStoreTest : public ::testing::TestWithParam<std::string> {
 protected:
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
    fs::remove_all(fs::temp_directory_path() /
                   ("flowtune_test_kstore_pg_" + std::to_string(::getpid())));
  }
  void SetUp() override {
    dir_ = test_dir();
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    storage_ = (dir_ / "flowtune.db").string();
    if (GetParam() == "postgresql") {
      if (!server_ && db::postgresql_supported())  // started for the first test that needs it
        server_ = new test::PostgresServer(
            fs::temp_directory_path() / ("flowtune_test_kstore_pg_" + std::to_string(::getpid())));
      if (!server_ || !server_->available())
        GTEST_SKIP() << (server_ ? server_->why_not() : "this build has no PostgreSQL store");
      static int n = 0;
      storage_ = server_->create_database("kstore" + std::to_string(++n));
    }
    db::Repository create(storage_);  // the run's store exists before its workers
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The entry of key as host gets it: its own cache folder, its own connection to the store.
  KernelBinary get(const std::string& host, const std::string& key, KernelBuildCounters& counts) {
    auto& store = stores_[host];
    if (!store) store = make_db_kernel_store(storage_, host);
    const KernelBinaryRequest r{(dir_ / ("cache_" + host)).string(), key, "sm_90", "13.0", {}};
    return cached_kernel_binary(
        r, store.get(), [&] { return compiler_.compile(key); }, &test::FakeKernelCompiler::valid,
        counts);
  }

  static test::PostgresServer* server_;
  fs::path dir_;
  std::string storage_;
  test::FakeKernelCompiler compiler_;
  std::map<std::string, std::shared_ptr<SharedKernelStore>> stores_;
};
test::PostgresServer* KernelStoreTest::server_ = nullptr;

const char* const kKeys[] = {"00000000000000a1", "00000000000000b2", "00000000000000c3"};

TEST_P(KernelStoreTest, TheSecondHostCompilesNothingAndFetchesEveryBinary) {
  KernelBuildCounters a, b;
  for (const char* key : kKeys) get("hostA", key, a);
  EXPECT_EQ(compiler_.calls, 3);
  EXPECT_EQ(a.get().published, 3u);
  {
    const db::Repository repo(storage_, db::OpenMode::read_only);
    EXPECT_EQ(repo.count_kernel_binaries(), 3);
    const std::optional<db::KernelBinaryRow> row = repo.kernel_binary(kKeys[1]);
    ASSERT_TRUE(row);
    test::FakeKernelCompiler oracle;
    const KernelBinary expected = oracle.compile(kKeys[1]);
    EXPECT_EQ(row->binary, expected.binary);  // every byte value survives the store
    EXPECT_EQ(row->log, expected.log);
    EXPECT_EQ(row->size_bytes, std::int64_t(expected.binary.size()));
    EXPECT_EQ(row->hash, kernel_binary_hash(expected));
    EXPECT_EQ(row->arch, "sm_90");
    EXPECT_EQ(row->nvrtc_version, "13.0");
    EXPECT_EQ(row->host, "hostA");
    EXPECT_GT(row->created_s, 1.7e9);  // Unix seconds, on the store's clock
  }
  for (const char* key : kKeys) {
    const KernelBinary got = get("hostB", key, b);
    EXPECT_TRUE(test::FakeKernelCompiler::valid(got));
  }
  EXPECT_EQ(compiler_.calls, 3);  // hostB compiled nothing
  EXPECT_EQ(b.get().compiled, 0u);
  EXPECT_EQ(b.get().fetched, 3u);
  EXPECT_EQ(b.get().store_errors, 0u);
  EXPECT_TRUE(fs::exists(dir_ / "cache_hostB" / (std::string(kKeys[0]) + ".cubin")));
}

TEST_P(KernelStoreTest, ACorruptedRowIsRejectedRecompiledAndRepaired) {
  KernelBuildCounters a, b, c;
  get("hostA", kKeys[0], a);
  {
    // A row whose binary changed after it was published (a flipped bit): size and hash as
    // the publisher computed them.
    db::Repository repo(storage_);
    db::KernelBinaryRow row = *repo.kernel_binary(kKeys[0]);
    row.binary[5] ^= 0x10;
    repo.record_kernel_binary(row);
  }
  const KernelBinary got = get("hostB", kKeys[0], b);
  test::FakeKernelCompiler oracle;
  EXPECT_EQ(got.binary, oracle.compile(kKeys[0]).binary);
  EXPECT_EQ(b.get().rejected, 1u);
  EXPECT_EQ(b.get().fetched, 0u);
  EXPECT_EQ(b.get().compiled, 1u);
  EXPECT_EQ(b.get().published, 1u);
  EXPECT_EQ(compiler_.calls, 2);
  // The row is whole again: a third host fetches it.
  get("hostC", kKeys[0], c);
  EXPECT_EQ(c.get().fetched, 1u);
  EXPECT_EQ(c.get().compiled, 0u);
}

INSTANTIATE_TEST_SUITE_P(Stores, KernelStoreTest, ::testing::Values("sqlite", "postgresql"),
                         [](const auto& p) { return p.param; });

// A store that cannot be reached costs compiles, never the build.
TEST(KernelStore, AnUnreachableStoreCostsACompileNotTheBuild) {
  const fs::path dir = test_dir();
  fs::remove_all(dir);
  test::FakeKernelCompiler compiler;
  KernelBuildCounters counts;
  // A folder where the SQLite file cannot be created.
  const auto store = make_db_kernel_store((dir / "no" / "such" / "folder.db").string(), "h");
  const KernelBinaryRequest r{(dir / "cache").string(), "k", "sm_90", "13.0", {}};
  const KernelBinary got = cached_kernel_binary(
      r, store.get(), [&] { return compiler.compile("k"); }, &test::FakeKernelCompiler::valid,
      counts);
  EXPECT_TRUE(test::FakeKernelCompiler::valid(got));
  EXPECT_EQ(counts.get().compiled, 1u);
  EXPECT_GE(counts.get().store_errors, 1u);
  fs::remove_all(dir);
}

TEST(KernelStore, AutoIsOnForPostgresqlAndFollowsTheStartingProcess) {
  ::unsetenv(kKernelStoreEnv);
  const std::string pg = "postgresql://u@h:5432/db";
  EXPECT_EQ(resolve_kernel_store("auto", pg), pg);
  EXPECT_EQ(resolve_kernel_store("auto", "run.db"), "");
  EXPECT_EQ(resolve_kernel_store("on", "run.db"), "run.db");
  EXPECT_EQ(resolve_kernel_store("off", pg), "");
  EXPECT_THROW(resolve_kernel_store("yes", pg), std::invalid_argument);
  ::setenv(kKernelStoreEnv, "off", 1);  // a coordinator that chose none
  EXPECT_EQ(resolve_kernel_store("auto", pg), "");
  EXPECT_EQ(resolve_kernel_store("on", pg), pg);  // the option overrides
  ::setenv(kKernelStoreEnv, "shared.db", 1);      // a coordinator that chose its SQLite file
  EXPECT_EQ(resolve_kernel_store("auto", "shared.db"), "shared.db");
  // use_kernel_store passes the choice on to the processes this one starts.
  use_kernel_store("");
  EXPECT_STREQ(std::getenv(kKernelStoreEnv), "off");
  EXPECT_EQ(shared_kernel_store(), nullptr);
  const std::string line = use_kernel_store("postgresql://u:secret@h:5432/db");
  EXPECT_EQ(line.find("secret"), std::string::npos);  // the log never shows the password
  EXPECT_NE(shared_kernel_store(), nullptr);
  use_kernel_store("");
  ::unsetenv(kKernelStoreEnv);
}

}  // namespace
}  // namespace flowtune
