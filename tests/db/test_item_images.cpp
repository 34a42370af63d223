// Table item_images (schema v4): base64 text of PNG pictures recorded with a measurement, read
// back by board; a v3 file reads without pictures and migrates additively.
#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>

#include "db/base64.hpp"
#include "db/repository.hpp"
#include "db/schema.hpp"
#include "tests/db/postgres_server.hpp"

namespace flowtune::db {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> bytes(const std::string& s) {
  return {s.begin(), s.end()};
}

TEST(Base64, Rfc4648TestVectorsAndBadInput) {
  // RFC 4648, section 10.
  const std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                         {"f", "Zg=="},
                                                         {"fo", "Zm8="},
                                                         {"foo", "Zm9v"},
                                                         {"foob", "Zm9vYg=="},
                                                         {"fooba", "Zm9vYmE="},
                                                         {"foobar", "Zm9vYmFy"}};
  for (const auto& [plain, coded] : vectors) {
    EXPECT_EQ(base64_encode(bytes(plain)), coded) << plain;
    EXPECT_EQ(base64_decode(coded), bytes(plain)) << coded;
  }
  std::vector<std::uint8_t> all;
  for (int b = 0; b < 256; ++b) all.push_back(std::uint8_t(b));
  EXPECT_EQ(base64_decode(base64_encode(all)), all);
  EXPECT_THROW(base64_decode("Zg="), std::invalid_argument);   // length
  EXPECT_THROW(base64_decode("Z!=="), std::invalid_argument);  // alphabet
  EXPECT_THROW(base64_decode("Zg=a"), std::invalid_argument);  // padding in the middle
}

class ItemImagesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_images_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    path_ = (dir_ / "f.db").string();
  }
  void TearDown() override { fs::remove_all(dir_); }

  static ConfigRow config(int tile) {
    ConfigRow c;
    c.board = "host";
    c.workload = "tvl1";
    c.variant = "kokkos_global";
    c.precision = "f32";
    c.tunables = {{"tile_x", tile}};
    c.params = {{"iterations", 10}};
    c.key = config_key(c);
    c.label = "tile_x=" + std::to_string(tile);
    return c;
  }
  static MeasurementRow measurement(std::int64_t run) {
    MeasurementRow m;
    m.run_id = run;
    m.dataset = "middlebury:Grove2";
    m.time_ms_median = m.time_ms_min = m.time_ms_max = 2;
    m.n_repeats = 3;
    m.ns_per_unit = 1;
    m.items = {{"Grove2", 2, {}}};
    return m;
  }

  fs::path dir_;
  std::string path_;
};

TEST_F(ItemImagesTest, RecordedWithTheMeasurementAndReadBackByBoard) {
  std::int64_t pictured_id = 0;
  {
    Repository repo(path_);
    const std::int64_t r = repo.begin_run({"host", "tvl1", "tune", "", "", "", "", "", "", ""});
    MeasurementRow m = measurement(r);
    std::vector<std::uint8_t> binary = {0, 1, 2, 255, 254, 0, 10, 13};
    m.images = {{"Grove2", "flow", 3, 2, 1.5, binary},
                {"Grove2", "endpoint_error", 3, 2, 2.0, {0x89, 'P', 'N', 'G'}}};
    repo.record_measurement(config(32), m);
    repo.record_measurement(config(64), measurement(r));  // none
    repo.end_run(r, "done");
  }
  const Repository repo(path_, OpenMode::read_only);
  const auto measured = repo.measured("host");
  ASSERT_EQ(measured.size(), 2u);
  for (const MeasuredConfig& mc : measured) EXPECT_TRUE(mc.measurement.images.empty());
  pictured_id = measured[0].measurement_id;
  const auto images = repo.item_images("host");
  ASSERT_EQ(images.size(), 1u);
  const std::vector<ItemImage>& got = images.at(pictured_id);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[0].kind, "endpoint_error");  // by item, then kind
  EXPECT_EQ(got[1].kind, "flow");
  EXPECT_EQ(got[1].item, "Grove2");
  EXPECT_EQ(got[1].width, 3);
  EXPECT_EQ(got[1].height, 2);
  EXPECT_DOUBLE_EQ(got[1].scale, 1.5);
  EXPECT_EQ(got[1].png, (std::vector<std::uint8_t>{0, 1, 2, 255, 254, 0, 10, 13}));
  EXPECT_TRUE(repo.item_images("nano").empty());
  // The text in the DB is base64 (what a user's SQL sees).
  SQLite::Database raw(path_, SQLite::OPEN_READONLY);
  EXPECT_EQ(raw.execAndGet("SELECT png_base64 FROM item_images WHERE kind = 'flow'").getString(),
            base64_encode(got[1].png));
}

// A file of schema v3 (before item_images): a report reads it (no pictures); a run opening
// it adds the table and records pictures; nothing else changes.
TEST_F(ItemImagesTest, AVersion3FileReadsWithoutPicturesAndMigratesAdditively) {
  {
    Repository repo(path_);
    const std::int64_t r = repo.begin_run({"host", "tvl1", "tune", "", "", "", "", "", "", ""});
    repo.record_measurement(config(32), measurement(r));
    repo.end_run(r, "done");
  }
  {
    SQLite::Database raw(path_, SQLite::OPEN_READWRITE);
    raw.exec(
        "DROP TABLE item_images; DROP TABLE kernel_binaries; DROP TABLE coordinators; "
        "DELETE FROM schema_version WHERE version >= 4");
  }
  {
    const Repository old(path_, OpenMode::read_only);
    EXPECT_EQ(old.schema_version(), 3);
    EXPECT_EQ(old.measured("host").size(), 1u);
    EXPECT_TRUE(old.item_images("host").empty());
  }
  Repository repo(path_);
  EXPECT_EQ(repo.schema_version(), kSchemaVersion);
  EXPECT_TRUE(repo.is_measured("host", config(32).key, "middlebury:Grove2"));  // resumes
  const std::int64_t r = repo.begin_run({"host", "tvl1", "tune", "", "", "", "", "", "", ""});
  MeasurementRow m = measurement(r);
  m.images = {{"Grove2", "flow", 1, 1, 1, {1, 2, 3}}};
  repo.record_measurement(config(64), m);
  EXPECT_EQ(repo.item_images("host").size(), 1u);
}

// The PostgreSQL road of the same: a database at v3 (the table dropped, its one version row
// set to 3, as a v3 release created it) gains item_images when a run opens it, keeps its rows and
// records pictures; a throw-away server, skipped where there is none.
TEST_F(ItemImagesTest, AVersion3PostgresqlDatabaseGainsTheTable) {
  if (!postgresql_supported()) GTEST_SKIP() << "this build has no PostgreSQL store";
  test::PostgresServer server(dir_ / "pg");
  if (!server.available()) GTEST_SKIP() << server.why_not();
  const std::string url = server.create_database("v3images");
  {
    Repository repo(url);
    const std::int64_t r = repo.begin_run({"host", "tvl1", "tune", "", "", "", "", "", "", ""});
    repo.record_measurement(config(32), measurement(r));
    repo.end_run(r, "done");
  }
  const std::string psql =
      "psql -q -h 127.0.0.1 -p " + std::to_string(server.port()) + " -U flowtune -d v3images -c ";
  ASSERT_EQ(std::system((psql + "'DROP TABLE item_images, kernel_binaries, coordinators; "
                                "UPDATE schema_version SET version = 3 WHERE version = 6'")
                            .c_str()),
            0);
  EXPECT_THROW(Repository(url, OpenMode::read_only), DbError);  // "open it once with tune"
  Repository repo(url);
  EXPECT_EQ(repo.schema_version(), kSchemaVersion);
  EXPECT_TRUE(repo.is_measured("host", config(32).key, "middlebury:Grove2"));
  const std::int64_t r = repo.begin_run({"host", "tvl1", "tune", "", "", "", "", "", "", ""});
  MeasurementRow m = measurement(r);
  m.images = {{"Grove2", "flow", 1, 1, 1, {1, 2, 3}}};
  repo.record_measurement(config(64), m);
  const auto images = repo.item_images("host");
  ASSERT_EQ(images.size(), 1u);
  EXPECT_EQ(images.begin()->second.at(0).png, (std::vector<std::uint8_t>{1, 2, 3}));
}

}  // namespace
}  // namespace flowtune::db
