// The cache of compiled kernels (variants/kernel_binary_cache.hpp) with a fake compiler and a
// store in memory: two "hosts" are two local cache folders sharing one store. The second host
// compiles nothing and fetches; a corrupted entry of the store is rejected, compiled again and
// replaced; a store that is down costs a compile, never the build.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "../doubles/fake_kernel_build.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune {
namespace {

namespace fs = std::filesystem;

class KernelBinaryCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_kcache_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // The entry of key as host (a cache folder of its own) gets it.
  KernelBinary get(const std::string& host, const std::string& key, SharedKernelStore* store,
                   KernelBuildCounters& counters) {
    const KernelBinaryRequest r{(dir_ / host).string(), key, "sm_90", "13.0", {}};
    return cached_kernel_binary(
        r, store, [&] { return compiler_.compile(key); }, &test::FakeKernelCompiler::valid,
        counters);
  }

  fs::path dir_;
  test::FakeKernelCompiler compiler_;
};

TEST(KernelBinaryHash, IsFnv1a64OfBinaryThenLog) {
  // FNV-1a 64 of the empty string is its offset basis; of "a" the published test vector
  // (Fowler/Noll/Vo, "FNV test vectors": 0xaf63dc4c8601ec8c).
  EXPECT_EQ(kernel_binary_hash({"", ""}), "cbf29ce484222325");
  EXPECT_EQ(kernel_binary_hash({"a", ""}), "af63dc4c8601ec8c");
  EXPECT_EQ(kernel_binary_hash({"", "a"}), "af63dc4c8601ec8c");
  EXPECT_NE(kernel_binary_hash({"ab", ""}), kernel_binary_hash({"ba", ""}));
}

TEST_F(KernelBinaryCacheTest, ASecondRequestOfOneHostIsALocalHit) {
  KernelBuildCounters counts;
  const KernelBinary first = get("a", "k1", nullptr, counts);
  const KernelBinary second = get("a", "k1", nullptr, counts);
  EXPECT_EQ(compiler_.calls, 1);
  EXPECT_EQ(second.binary, first.binary);
  EXPECT_EQ(second.log, first.log);
  EXPECT_EQ(first.binary.size(), std::string("binary of k1:").size() + 256);  // NULs kept
  EXPECT_EQ(counts.get().compiled, 1u);
  EXPECT_EQ(counts.get().local_hits, 1u);
  EXPECT_EQ(counts.get().fetched, 0u);
  // No temporary file is left beside the entry.
  std::size_t files = 0;
  for (const auto& f : fs::directory_iterator(dir_ / "a")) {
    (void)f;
    ++files;
  }
  EXPECT_EQ(files, 2u);  // k1.cubin, k1.log
}

TEST_F(KernelBinaryCacheTest, TheSecondHostCompilesNothingAndFetches) {
  test::MemoryKernelStore store;
  KernelBuildCounters a, b;
  for (const char* key : {"k1", "k2", "k3"}) get("a", key, &store, a);
  EXPECT_EQ(compiler_.calls, 3);
  EXPECT_EQ(a.get().compiled, 3u);
  EXPECT_EQ(a.get().published, 3u);
  ASSERT_EQ(store.rows.size(), 3u);
  EXPECT_EQ(store.rows.at("k2").arch, "sm_90");
  EXPECT_EQ(store.rows.at("k2").compiler_version, "13.0");
  EXPECT_EQ(store.rows.at("k2").size_bytes, std::int64_t(store.rows.at("k2").entry.binary.size()));

  test::FakeKernelCompiler oracle;  // what a compile of the key gives
  for (const char* key : {"k1", "k2", "k3"}) {
    const KernelBinary got = get("b", key, &store, b);
    EXPECT_EQ(got.binary, oracle.compile(key).binary);
    EXPECT_EQ(got.log, oracle.compile(key).log);
  }
  EXPECT_EQ(compiler_.calls, 3);  // host b compiled nothing
  EXPECT_EQ(b.get().compiled, 0u);
  EXPECT_EQ(b.get().fetched, 3u);
  EXPECT_EQ(b.get().published, 0u);
  // The fetched entries are now in b's own folder: a request again is a local hit.
  get("b", "k2", &store, b);
  EXPECT_EQ(b.get().local_hits, 1u);
  EXPECT_TRUE(fs::exists(dir_ / "b" / "k2.cubin"));
  EXPECT_TRUE(fs::exists(dir_ / "b" / "k2.log"));
}

TEST_F(KernelBinaryCacheTest, ACorruptedEntryIsRejectedCompiledAndReplaced) {
  test::MemoryKernelStore store;
  KernelBuildCounters a, b, c;
  get("a", "k1", &store, a);
  const std::string good = store.rows.at("k1").entry.binary;
  store.rows.at("k1").entry.binary[20] ^= 0x01;  // a flipped bit, size and hash as published
  const KernelBinary got = get("b", "k1", &store, b);
  EXPECT_EQ(got.binary, good);
  EXPECT_EQ(b.get().rejected, 1u);
  EXPECT_EQ(b.get().fetched, 0u);
  EXPECT_EQ(b.get().compiled, 1u);
  EXPECT_EQ(b.get().published, 1u);
  EXPECT_EQ(store.rows.at("k1").entry.binary, good);  // replaced
  // A truncated entry (size differs) is rejected as well; so is an entry whose log is no report.
  store.rows.at("k1").entry.binary.resize(10);
  get("c", "k1", &store, c);
  EXPECT_EQ(c.get().rejected, 1u);
  StoredKernelBinary no_report = store.rows.at("k1");
  no_report.entry.log = "no report";
  no_report.hash = kernel_binary_hash(no_report.entry);  // intact, but not a valid entry
  store.rows.at("k1") = no_report;
  fs::remove_all(dir_ / "c");
  get("c", "k1", &store, c);
  EXPECT_EQ(c.get().rejected, 2u);
  EXPECT_EQ(c.get().fetched, 0u);
  EXPECT_EQ(compiler_.calls, 4);
}

TEST_F(KernelBinaryCacheTest, AnInvalidLocalEntryIsReplaced) {
  KernelBuildCounters counts;
  fs::create_directories(dir_ / "a");
  std::ofstream(dir_ / "a" / "k1.cubin") << "torn";
  std::ofstream(dir_ / "a" / "k1.log") << "";  // no report: a torn write
  get("a", "k1", nullptr, counts);
  EXPECT_EQ(counts.get().compiled, 1u);
  EXPECT_EQ(counts.get().local_hits, 0u);
  get("a", "k1", nullptr, counts);
  EXPECT_EQ(counts.get().local_hits, 1u);
}

TEST_F(KernelBinaryCacheTest, ALocalHitIsPublishedWhenTheStoreLacksIt) {
  KernelBuildCounters a, b;
  get("a", "k1", nullptr, a);  // compiled before the store existed
  test::MemoryKernelStore store;
  get("a", "k1", &store, a);
  EXPECT_EQ(a.get().local_hits, 1u);
  EXPECT_EQ(a.get().published, 1u);
  get("a", "k1", &store, a);
  EXPECT_EQ(a.get().published, 1u);  // there now: not sent again
  get("b", "k1", &store, b);
  EXPECT_EQ(b.get().fetched, 1u);
  EXPECT_EQ(compiler_.calls, 1);
}

TEST_F(KernelBinaryCacheTest, AStoreThatIsDownCostsACompileNotTheBuild) {
  test::MemoryKernelStore store;
  store.fail = true;
  KernelBuildCounters counts;
  const KernelBinary got = get("a", "k1", &store, counts);
  EXPECT_TRUE(test::FakeKernelCompiler::valid(got));
  EXPECT_EQ(counts.get().compiled, 1u);
  EXPECT_EQ(counts.get().published, 0u);
  EXPECT_EQ(counts.get().store_errors, 2u);  // the fetch and the publish
}

TEST_F(KernelBinaryCacheTest, ACompileErrorPropagatesAndNothingIsCached) {
  test::MemoryKernelStore store;
  KernelBuildCounters counts;
  const KernelBinaryRequest r{(dir_ / "a").string(), "k1", "sm_90", "13.0", {}};
  EXPECT_THROW(cached_kernel_binary(
                   r, &store, []() -> KernelBinary { throw std::runtime_error("syntax error"); },
                   &test::FakeKernelCompiler::valid, counts),
               std::runtime_error);
  EXPECT_TRUE(store.rows.empty());
  EXPECT_FALSE(fs::exists(dir_ / "a" / "k1.cubin"));
  EXPECT_EQ(counts.get().compiled, 0u);
}

// A prebuilt folder (the layout of a local one, made elsewhere) answers a local miss before
// the store and the compiler; its entry is used as it is: not copied into the local folder,
// not published.
TEST_F(KernelBinaryCacheTest, APrebuiltEntryAnswersALocalMissWithoutACompile) {
  KernelBuildCounters made, used;
  const KernelBinary built = get("builder", "k1", nullptr, made);  // the prebuild
  test::MemoryKernelStore store;
  const KernelBinaryRequest r{(dir_ / "board").string(),
                              "k1",
                              "sm_87",
                              "12.6",
                              {(dir_ / "missing").string(), (dir_ / "builder").string()}};
  const KernelBinary got = cached_kernel_binary(
      r, &store, [&] { return compiler_.compile("k1"); }, &test::FakeKernelCompiler::valid, used);
  EXPECT_EQ(got.binary, built.binary);
  EXPECT_EQ(got.log, built.log);
  EXPECT_EQ(compiler_.calls, 1);  // the prebuild's compile only
  EXPECT_EQ(used.get().prebuilt_hits, 1u);
  EXPECT_EQ(used.get().compiled, 0u);
  EXPECT_EQ(used.get().local_hits, 0u);
  EXPECT_EQ(used.get().published, 0u);
  EXPECT_TRUE(store.rows.empty());
  EXPECT_FALSE(fs::exists(dir_ / "board" / "k1.cubin"));
  EXPECT_NE(kernel_build_counts_text(used.get()).find(", 1 from the prebuilt cache, "),
            std::string::npos);
}

// A prebuilt entry that is not valid (no resource report) or lacks its log is passed over:
// the next folder, then the compiler, answers; a key the prebuild did not build compiles.
TEST_F(KernelBinaryCacheTest, AnInvalidOrMissingPrebuiltEntryIsPassedOver) {
  KernelBuildCounters made, used;
  get("good", "k1", nullptr, made);
  fs::create_directories(dir_ / "bad");
  std::ofstream(dir_ / "bad" / "k1.cubin") << "binary";
  std::ofstream(dir_ / "bad" / "k1.log") << "no report";
  fs::create_directories(dir_ / "torn");
  std::ofstream(dir_ / "torn" / "k1.cubin") << "binary";  // its log never written
  const std::vector<std::string> prebuilt = {(dir_ / "bad").string(), (dir_ / "torn").string(),
                                             (dir_ / "good").string()};
  const auto ask = [&](const std::string& key) {
    const KernelBinaryRequest r{(dir_ / "board").string(), key, "sm_87", "12.6", prebuilt};
    return cached_kernel_binary(
        r, nullptr, [&] { return compiler_.compile(key); }, &test::FakeKernelCompiler::valid, used);
  };
  EXPECT_EQ(ask("k1").binary, compiler_.compile("k1").binary);
  EXPECT_EQ(used.get().prebuilt_hits, 1u);
  EXPECT_EQ(used.get().compiled, 0u);
  const int calls = compiler_.calls;
  ask("k2");
  EXPECT_EQ(compiler_.calls, calls + 1);
  EXPECT_EQ(used.get().compiled, 1u);
  EXPECT_TRUE(fs::exists(dir_ / "board" / "k2.cubin"));  // a compile goes to the local folder
}

// The local folder comes first: an entry there is a local hit even when a prebuilt one exists.
TEST_F(KernelBinaryCacheTest, TheLocalFolderComesBeforeThePrebuiltOnes) {
  KernelBuildCounters made, used;
  get("builder", "k1", nullptr, made);
  get("board", "k1", nullptr, made);
  const KernelBinaryRequest r{
      (dir_ / "board").string(), "k1", "sm_87", "12.6", {(dir_ / "builder").string()}};
  cached_kernel_binary(
      r, nullptr, [&] { return compiler_.compile("k1"); }, &test::FakeKernelCompiler::valid, used);
  EXPECT_EQ(used.get().local_hits, 1u);
  EXPECT_EQ(used.get().prebuilt_hits, 0u);
}

// set_kernel_cache_folders replaces the process's folders until cleared.
TEST(KernelCacheFolders, AreSetAndCleared) {
  EXPECT_FALSE(kernel_cache_folders().has_value());
  set_kernel_cache_folders(KernelCacheFolders{"/tmp/local", {"/tmp/a", "/tmp/b"}});
  ASSERT_TRUE(kernel_cache_folders().has_value());
  EXPECT_EQ(kernel_cache_folders()->local, "/tmp/local");
  EXPECT_EQ(kernel_cache_folders()->prebuilt, (std::vector<std::string>{"/tmp/a", "/tmp/b"}));
  set_kernel_cache_folders(std::nullopt);
  EXPECT_FALSE(kernel_cache_folders().has_value());
}

TEST(KernelBuildCounts, TextSaysEveryCount) {
  KernelBuildCounts c;
  c.compiled = 3;
  c.local_hits = 5;
  c.fetched = 7;
  c.rejected = 1;
  c.published = 2;
  c.compile_s = 4.0;
  EXPECT_EQ(kernel_build_counts_text(c),
            "3 compiled (4.0 s), 5 local cache hits, 7 fetched from the store (0.0 s, 1 "
            "rejected), 2 published");
  c.prebuilt_hits = 6;
  EXPECT_EQ(kernel_build_counts_text(c),
            "3 compiled (4.0 s), 5 local cache hits, 6 from the prebuilt cache, 7 fetched from "
            "the store (0.0 s, 1 rejected), 2 published");
  c.store_errors = 4;
  EXPECT_NE(kernel_build_counts_text(c).find(", 4 store errors"), std::string::npos);
  KernelBuildCounts d = c;
  d += c;
  EXPECT_EQ((d - c).fetched, 7u);
  EXPECT_EQ(d.prebuilt_hits, 12u);
  EXPECT_EQ((d - c).prebuilt_hits, 6u);
}

}  // namespace
}  // namespace flowtune
