// The Kernel Tuner export and import of interop/ on a small hand-built DB: keys, values in
// ms, invalid entries, flattening of a union of variants, T4, and the round trip.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>

#include "interop/kernel_tuner.hpp"

namespace flowtune::interop {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kDataset = "middlebury:Grove2,RubberWhale";

db::ConfigRow config(const std::string& variant, const std::string& precision,
                     std::map<std::string, int> tunables, int iterations, double zoom) {
  db::ConfigRow c;
  c.board = "h200";
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = precision;
  c.tunables = std::move(tunables);
  c.params = {{"iterations", iterations}, {"lambda", 0.15}, {"zoom", zoom}};
  c.label = variant;
  c.key = db::config_key(c);
  return c;
}

db::MeasurementRow measurement(std::int64_t run, double time_ms, std::optional<double> energy_mj,
                               double aepe, const std::string& dataset = kDataset) {
  db::MeasurementRow m;
  m.run_id = run;
  m.dataset = dataset;
  m.time_ms_median = time_ms;
  m.time_ms_min = time_ms * 0.9;
  m.time_ms_max = time_ms * 1.1;
  m.n_repeats = 4;
  m.ns_per_unit = time_ms * 1e6 / 307200.0;
  m.energy_mj = energy_mj;
  m.metrics = {{"aepe", aepe}, {"aae_deg", std::nan("")}};
  m.items = {{"Grove2", time_ms, {}}, {"RubberWhale", time_ms, {}}};
  return m;
}

class KernelTunerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("flowtune_test_kt_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    repo_ = std::make_unique<db::Repository>((dir_ / "kt.db").string());
    db::WorkloadRow w;
    w.name = "tvl1";
    w.work_unit = "px";
    w.front_objectives = {"time_ms", "aepe"};
    w.metrics = {{"aepe", "px", "endpoint error", true}, {"aae_deg", "deg", "angle", true}};
    repo_->record_workload(w);
    const std::int64_t run =
        repo_->begin_run({"h200", "tvl1", "tune", "abc", "ci", "", "", "", "", kDataset});
    // global: block_x, block_y; shared_pipeline: block_x, depth. zoom varies, lambda not.
    global_a_ = config("global", "f32", {{"block_x", 32}, {"block_y", 8}}, 10, 0.5);
    global_b_ = config("global", "f32", {{"block_x", 64}, {"block_y", 4}}, 30, 0.8);
    shared_ = config("shared_pipeline", "f16", {{"block_x", 128}, {"depth", 2}}, 10, 0.5);
    failed_ = config("shared_pipeline", "f16", {{"block_x", 256}, {"depth", 4}}, 10, 0.5);
    pruned_ = config("shared_pipeline", "f16", {{"block_x", 1024}, {"depth", 8}}, 10, 0.5);
    // global_a failed once, then was measured: it is a measurement, not a failure.
    repo_->record_failure(run, global_a_, kDataset, "runtime", "illegal address");
    repo_->record_measurement(global_a_, measurement(run, 2.5, 10.0, 0.3));
    repo_->record_measurement(global_b_, measurement(run, 1.25, std::nullopt, 0.4));
    repo_->record_measurement(shared_, measurement(run, 0.75, 4.5, 0.35));
    repo_->record_failure(run, failed_, kDataset, "compile", "ptxas: too many resources");
    repo_->record_pruned(run, pruned_, "shared memory 300 KB > 227 KB");
    // Another dataset: not exported.
    repo_->record_measurement(global_b_, measurement(run, 9.0, 1.0, 0.5, "middlebury:Venus"));
  }
  void TearDown() override {
    repo_.reset();
    fs::remove_all(dir_);
  }

  std::string export_text(KernelTunerFormat format = KernelTunerFormat::cache,
                          KernelTunerExportSummary* summary = nullptr) {
    std::ostringstream out;
    KernelTunerExportOptions options;
    options.format = format;
    const auto s = write_kernel_tuner_cache(out, *repo_, "h200", kDataset, options);
    if (summary) *summary = s;
    return out.str();
  }

  fs::path dir_;
  std::unique_ptr<db::Repository> repo_;
  db::ConfigRow global_a_, global_b_, shared_, failed_, pruned_;
};

TEST_F(KernelTunerTest, CacheHeaderFlattensTheUnionOfVariants) {
  KernelTunerExportSummary summary;
  const json doc = json::parse(export_text(KernelTunerFormat::cache, &summary));
  const std::vector<std::string> keys = {"variant", "precision",  "block_x", "block_y",
                                         "depth",   "iterations", "zoom"};
  EXPECT_EQ(doc["tune_params_keys"].get<std::vector<std::string>>(), keys);
  EXPECT_EQ(summary.tune_params_keys, keys);
  EXPECT_EQ(doc["device_name"], "h200");
  EXPECT_EQ(doc["kernel_name"], "tvl1");
  EXPECT_EQ(doc["objective"], "time");
  EXPECT_EQ(doc["tune_params"]["variant"], json({"global", "shared_pipeline"}));
  EXPECT_EQ(doc["tune_params"]["precision"], json({"f16", "f32"}));
  EXPECT_EQ(doc["tune_params"]["block_x"], json({32, 64, 128, 256, 1024}));
  EXPECT_EQ(doc["tune_params"]["block_y"], json({0, 4, 8}));  // 0: shared_pipeline has none
  EXPECT_EQ(doc["tune_params"]["depth"], json({0, 2, 4, 8}));
  EXPECT_EQ(doc["tune_params"]["iterations"], json({10, 30}));
  EXPECT_EQ(doc["tune_params"]["zoom"], json({0.5, 0.8}));
  EXPECT_FALSE(doc["tune_params"].contains("lambda"));  // constant: in the flowtune header
  EXPECT_FALSE(doc["tune_params"].contains("clock_mhz"));
  EXPECT_EQ(doc["flowtune"]["constant_params"]["lambda"], 0.15);
  EXPECT_EQ(doc["flowtune"]["clock_mhz"], 0);
  EXPECT_EQ(doc["flowtune"]["dataset"], kDataset);
  EXPECT_EQ(doc["flowtune"]["variant_tunables"]["shared_pipeline"], json({"block_x", "depth"}));
  // tune_params is written in key order (Kernel Tuner checks the order against the keys).
  const std::string text = export_text();
  EXPECT_LT(text.find("\"variant\":[\"global\""), text.find("\"zoom\":[0.5"));
  EXPECT_EQ(summary.measured, 3u);
  EXPECT_EQ(summary.failed, 1u);
  EXPECT_EQ(summary.pruned, 1u);
  EXPECT_DOUBLE_EQ(summary.best_time_ms, 0.75);
  EXPECT_EQ(summary.dataset, kDataset);
}

TEST_F(KernelTunerTest, CacheEntriesCarryTimeInMsErrorsAndObservables) {
  const json cache = json::parse(export_text())["cache"];
  ASSERT_EQ(cache.size(), 5u);
  const json& a = cache.at("global,f32,32,8,0,10,0.5");
  EXPECT_EQ(a["variant"], "global");
  EXPECT_EQ(a["depth"], 0);
  EXPECT_DOUBLE_EQ(a["time"].get<double>(), 2.5);  // ms, flowtune's median time_ms
  EXPECT_DOUBLE_EQ(a["energy_mj"].get<double>(), 10.0);
  EXPECT_DOUBLE_EQ(a["aepe"].get<double>(), 0.3);
  EXPECT_FALSE(a.contains("aae_deg"));                        // NaN metric: absent
  EXPECT_DOUBLE_EQ(a["benchmark_time"].get<double>(), 20.0);  // 2.5 ms x 4 repeats x 2 items
  EXPECT_EQ(a["compile_time"], 0);
  EXPECT_FALSE(a.contains("flowtune_failure"));  // measured after its failure
  EXPECT_EQ(db::parse_config_json(a["flowtune_config"].get<std::string>()).key, global_a_.key);

  const json& b = cache.at("global,f32,64,4,0,30,0.8");
  EXPECT_DOUBLE_EQ(b["time"].get<double>(), 1.25);
  EXPECT_FALSE(b.contains("energy_mj"));  // no sensor: absent, never 0

  const json& s = cache.at("shared_pipeline,f16,128,0,2,10,0.5");
  EXPECT_DOUBLE_EQ(s["time"].get<double>(), 0.75);
  EXPECT_EQ(s["block_y"], 0);

  const json& f = cache.at("shared_pipeline,f16,256,0,4,10,0.5");
  EXPECT_EQ(f["time"], "CompilationFailedConfig");
  EXPECT_EQ(f["flowtune_failure"], "compile");
  EXPECT_EQ(f["benchmark_time"], 0.0);

  const json& p = cache.at("shared_pipeline,f16,1024,0,8,10,0.5");
  EXPECT_EQ(p["time"], "InvalidConfig");
  EXPECT_EQ(p["flowtune_pruned"], "shared memory 300 KB > 227 KB");

  // Every key is Kernel Tuner's ",".join(str(v)) of the entry's values in key order.
  const json doc = json::parse(export_text());
  for (const auto& [key, entry] : doc["cache"].items()) {
    std::string joined;
    for (const auto& name : doc["tune_params_keys"]) {
      const json& v = entry[name.get<std::string>()];
      joined += (joined.empty() ? "" : ",") + (v.is_string() ? v.get<std::string>() : v.dump());
    }
    EXPECT_EQ(joined, key);
  }
}

TEST_F(KernelTunerTest, FailureClassesMapToKernelTunerErrors) {
  EXPECT_EQ(kernel_tuner_error("compile"), "CompilationFailedConfig");
  for (const char* c : {"launch", "runtime", "timeout", "accuracy", "environment"})
    EXPECT_EQ(kernel_tuner_error(c), "RuntimeFailedConfig") << c;
}

TEST_F(KernelTunerTest, ImportRoundTripsTheExport) {
  std::istringstream in(export_text());
  const KernelTunerImport imp = read_kernel_tuner_cache(in);
  EXPECT_EQ(imp.device_name, "h200");
  EXPECT_EQ(imp.kernel_name, "tvl1");
  EXPECT_EQ(imp.tune_params_keys.size(), 7u);
  ASSERT_EQ(imp.entries.size(), 5u);
  const std::vector<std::string> keys = {global_a_.key, global_b_.key, shared_.key, failed_.key,
                                         pruned_.key};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_TRUE(imp.entries[i].exact);
    EXPECT_EQ(imp.entries[i].config.key, keys[i]);
  }
  EXPECT_DOUBLE_EQ(imp.entries[0].time_ms, 2.5);
  EXPECT_DOUBLE_EQ(imp.entries[0].observables.at("energy_mj"), 10.0);
  EXPECT_DOUBLE_EQ(imp.entries[0].observables.at("aepe"), 0.3);
  EXPECT_EQ(imp.entries[0].coordinates.at("zoom"), "0.5");
  EXPECT_EQ(imp.entries[0].error, "");
  EXPECT_EQ(imp.entries[3].error, "CompilationFailedConfig");
  EXPECT_EQ(imp.entries[3].failure_class, "compile");
  EXPECT_TRUE(std::isnan(imp.entries[3].time_ms));
  EXPECT_EQ(imp.entries[4].error, "InvalidConfig");
}

TEST_F(KernelTunerTest, ImportRebuildsConfigsFromCoordinatesAndTheHeader) {
  json doc = json::parse(export_text());
  for (auto& [key, entry] : doc["cache"].items()) entry.erase("flowtune_config");
  std::istringstream in(doc.dump());
  const KernelTunerImport imp = read_kernel_tuner_cache(in);
  ASSERT_EQ(imp.entries.size(), 5u);
  std::set<std::string> keys;
  for (const auto& e : imp.entries) {
    EXPECT_FALSE(e.exact);
    keys.insert(e.config.key);
  }
  // Exact again: the header gives each variant's tunables, lambda and the clock.
  EXPECT_EQ(keys, (std::set<std::string>{global_a_.key, global_b_.key, shared_.key, failed_.key,
                                         pruned_.key}));

  // Without the header (a cache of another origin): tunables by name, the flattening's 0s
  // and the dropped constant cannot be told apart (the documented limitation).
  doc.erase("flowtune");
  std::istringstream bare(doc.dump());
  KernelTunerImportOptions options;
  options.tunable_names = {"block_x", "block_y", "depth"};
  const KernelTunerImport rebuilt = read_kernel_tuner_cache(bare, options);
  const db::ConfigRow& c = rebuilt.entries[0].config;
  EXPECT_EQ(c.workload, "tvl1");  // the kernel name
  EXPECT_EQ(c.tunables,
            (std::map<std::string, int>{{"block_x", 32}, {"block_y", 8}, {"depth", 0}}));
  EXPECT_EQ(c.params, (std::map<std::string, double>{{"iterations", 10}, {"zoom", 0.5}}));
}

TEST_F(KernelTunerTest, ImportReadsACacheLeftOpenByKernelTuner) {
  std::string text = export_text();
  text = text.substr(0, text.rfind("\n}\n}")) + ",";  // how an interrupted run leaves it
  std::istringstream in(text);
  EXPECT_EQ(read_kernel_tuner_cache(in).entries.size(), 5u);
}

TEST_F(KernelTunerTest, T4ExportAndImport) {
  const std::string text = export_text(KernelTunerFormat::t4);
  const json doc = json::parse(text);
  EXPECT_EQ(doc["schema_version"], "1.0.0");
  EXPECT_EQ(doc["metadata"]["timeunit"], "milliseconds");
  ASSERT_EQ(doc["results"].size(), 5u);
  const json& a = doc["results"][0];
  EXPECT_EQ(a["configuration"]["block_x"], 32);
  EXPECT_EQ(a["invalidity"], "correct");
  EXPECT_EQ(a["correctness"], 1);
  EXPECT_EQ(a["objectives"], json({"time"}));
  EXPECT_EQ(a["measurements"][0], json({{"name", "time"}, {"value", 2.5}, {"unit", "ms"}}));
  bool aepe_in_px = false;
  for (const auto& m : a["measurements"])
    if (m["name"] == "aepe") aepe_in_px = m["unit"] == "px";
  EXPECT_TRUE(aepe_in_px);
  EXPECT_EQ(doc["results"][3]["invalidity"], "compile");
  EXPECT_EQ(doc["results"][4]["invalidity"], "constraints");
  EXPECT_TRUE(doc["results"][4]["measurements"].empty());

  std::istringstream in(text);
  const KernelTunerImport imp = read_kernel_tuner_cache(in);
  ASSERT_EQ(imp.entries.size(), 5u);
  EXPECT_EQ(imp.entries[0].config.key, global_a_.key);
  EXPECT_EQ(imp.entries[0].key, "global,f32,32,8,0,10,0.5");
  EXPECT_DOUBLE_EQ(imp.entries[0].time_ms, 2.5);
  EXPECT_EQ(imp.entries[3].error, "CompilationFailedConfig");
  EXPECT_EQ(imp.entries[4].error, "InvalidConfig");
}

TEST_F(KernelTunerTest, Errors) {
  std::ostringstream out;
  EXPECT_THROW(write_kernel_tuner_cache(out, *repo_, "nano", ""), std::invalid_argument);
  EXPECT_THROW(write_kernel_tuner_cache(out, *repo_, "h200", "no:such"), std::invalid_argument);
  std::istringstream garbage("not json");
  EXPECT_THROW(read_kernel_tuner_cache(garbage), std::invalid_argument);
  std::istringstream neither("{\"a\": 1}");
  EXPECT_THROW(read_kernel_tuner_cache(neither), std::invalid_argument);
  std::istringstream missing(
      "{\"tune_params_keys\": [\"block_x\"], \"kernel_name\": \"k\", \"cache\": {\"1\": {}}}");
  EXPECT_THROW(read_kernel_tuner_cache(missing), std::invalid_argument);
  std::istringstream fractional(
      "{\"tune_params_keys\": [\"variant\", \"block_x\"], \"kernel_name\": \"k\", "
      "\"cache\": {\"g,1.5\": {\"variant\": \"g\", \"block_x\": 1.5, \"time\": 1}}}");
  KernelTunerImportOptions options;
  options.tunable_names = {"block_x"};
  EXPECT_THROW(read_kernel_tuner_cache(fractional, options), std::invalid_argument);
}

TEST_F(KernelTunerTest, DefaultDatasetIsTheMostMeasured) {
  std::ostringstream out;
  EXPECT_EQ(write_kernel_tuner_cache(out, *repo_, "h200", "").dataset, kDataset);
}

}  // namespace
}  // namespace flowtune::interop
