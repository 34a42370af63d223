// The checks of the Kernel Tuner / T4 reader (interop/kernel_tuner_import.cpp): every bad
// field is refused with the entry and the field named, and the parser keeps file order.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "interop/kernel_tuner.hpp"
#include "interop/kernel_tuner_json.hpp"

namespace flowtune::interop {
namespace {

/// The message of the std::invalid_argument that reading text throws ("" when none).
std::string error_of(const std::string& text,
                     const std::vector<std::string>& tunables = {"tile_x", "tile_y"}) {
  std::istringstream in(text);
  KernelTunerImportOptions options;
  options.tunable_names = tunables;
  try {
    read_kernel_tuner_cache(in, options);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

/// A Kernel Tuner cache of kernel tvl1 with these entries (JSON members, key: value).
std::string cache(const std::string& entries) {
  return R"({"kernel_name": "tvl1", "device_name": "cpu",
             "tune_params_keys": ["variant", "precision", "tile_x", "tile_y"],
             "cache": {)" +
         entries + "}}";
}

const std::string kGood =
    R"("kokkos_global,f32,8,1": {"variant": "kokkos_global", "precision": "f32", "tile_x": 8,
       "tile_y": 1, "time": 2.5})";

std::string entry(const std::string& tile_x, const std::string& time_field) {
  return R"("kokkos_global,f32,X,1": {"variant": "kokkos_global", "precision": "f32",
            "tile_x": )" +
         tile_x + R"(, "tile_y": 1)" + (time_field.empty() ? "" : ", " + time_field) + "}";
}

void expect_names(const std::string& message, const std::string& field) {
  EXPECT_NE(message.find("entry 'kokkos_global,f32,X,1'"), std::string::npos) << message;
  EXPECT_NE(message.find("field '" + field + "'"), std::string::npos) << message;
}

TEST(KernelTunerValidation, AGoodCacheReads) {
  std::istringstream in(cache(kGood));
  KernelTunerImportOptions options;
  options.tunable_names = {"tile_x", "tile_y"};
  const KernelTunerImport imp = read_kernel_tuner_cache(in, options);
  ASSERT_EQ(imp.entries.size(), 1u);
  EXPECT_EQ(imp.entries[0].where, "entry 'kokkos_global,f32,8,1'");
  EXPECT_EQ(imp.entries[0].config.tunables,
            (std::map<std::string, int>{{"tile_x", 8}, {"tile_y", 1}}));
  EXPECT_DOUBLE_EQ(imp.entries[0].time_ms, 2.5);
}

TEST(KernelTunerValidation, AStringTunableIsRefusedNotDropped) {
  // A string where a tunable belongs is refused; it must never become a config without tunables.
  expect_names(
      error_of(cache(kGood + "," + entry(R"("<img src=x onerror=alert(1)>")", "\"time\": 1"))),
      "tile_x");
  // Without tunable names, a string coordinate is neither a tunable nor a parameter.
  expect_names(error_of(cache(entry(R"("big")", "\"time\": 1")), {}), "tile_x");
  expect_names(error_of(cache(entry("8.5", "\"time\": 1"))), "tile_x");
  expect_names(error_of(cache(entry("[8]", "\"time\": 1"))), "tile_x");
}

TEST(KernelTunerValidation, TheTimeIsPresentFiniteNonNegativeAndBounded) {
  expect_names(error_of(cache(kGood + "," + entry("16", ""))), "time");
  expect_names(error_of(cache(entry("16", "\"time\": -5"))), "time");
  expect_names(error_of(cache(entry("16", "\"time\": 1.2e29"))), "time");
  expect_names(error_of(cache(entry("16", "\"time\": \"fast\""))), "time");
  expect_names(error_of(cache(entry("16", "\"time\": null"))), "time");
  // 1e400 is not a finite double: not JSON flowtune reads.
  EXPECT_NE(error_of(cache(entry("16", "\"time\": 1e400"))), "");
  // An error entry needs no time.
  EXPECT_EQ(error_of(cache(entry("16", "\"time\": \"CompilationFailedConfig\""))), "");
  EXPECT_EQ(error_of(cache(entry("16", "\"time\": 0"))), "");
}

TEST(KernelTunerValidation, ObservablesAndFlowtuneFieldsAreChecked) {
  expect_names(error_of(cache(entry("16", "\"time\": 1, \"energy_mj\": -1"))), "energy_mj");
  expect_names(error_of(cache(entry("16", "\"time\": 1, \"aepe\": -0.5"))), "aepe");
  expect_names(error_of(cache(
                   entry("16", "\"time\": \"RuntimeFailedConfig\", \"flowtune_failure\": \"x\""))),
               "flowtune_failure");
  expect_names(error_of(cache(entry("16", "\"time\": 1, \"flowtune_config\": 3"))),
               "flowtune_config");
  expect_names(error_of(cache(entry("16", "\"time\": 1, \"flowtune_config\": \"{}\""))),
               "flowtune_config");
}

TEST(KernelTunerValidation, TheFileStructureIsChecked) {
  EXPECT_NE(error_of(cache(kGood + "," + kGood)).find("duplicate key"), std::string::npos);
  EXPECT_NE(error_of(R"({"tune_params_keys": ["a", "a"], "cache": {}})").find("listed twice"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"tune_params_keys": [1], "cache": {}})").find("tune_params_keys"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"flowtune": {"clock_mhz": -3}, "tune_params_keys": [], "cache": {}})")
                .find("clock_mhz"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"flowtune": {"constant_params": {"zoom": "x"}}, "tune_params_keys": [],
                         "cache": {}})")
                .find("constant_params.zoom"),
            std::string::npos);
  expect_names(error_of(cache(R"("kokkos_global,f32,X,1": {"variant": "kokkos_global",
                                  "precision": "f32", "tile_x": 8, "time": 1})")),
               "tile_y");
}

std::string t4(const std::string& result) {
  return R"({"schema_version": "1.0.0", "results": [)" + result + "]}";
}

TEST(KernelTunerValidation, T4ResultsAreChecked) {
  const std::string conf =
      R"("configuration": {"variant": "kokkos_global", "precision": "f32", "tile_x": 8,
                            "tile_y": 1})";
  EXPECT_EQ(error_of(t4("{" + conf + R"(, "invalidity": "correct", "measurements":
                                         [{"name": "time", "value": 1.5, "unit": "ms"}]})")),
            "");
  const std::string no_time = error_of(t4("{" + conf + R"(, "invalidity": "correct"})"));
  EXPECT_NE(no_time.find("result 0, field 'measurements.time'"), std::string::npos) << no_time;
  const std::string negative = error_of(t4("{" + conf + R"(, "measurements":
                                          [{"name": "time", "value": -1}]})"));
  EXPECT_NE(negative.find("result 0, field 'measurements.time'"), std::string::npos) << negative;
  EXPECT_NE(error_of(t4("{" + conf + R"(, "invalidity": "nice"})")).find("field 'invalidity'"),
            std::string::npos);
  EXPECT_NE(error_of(t4("{" + conf + R"(, "measurements": [3]})")).find("measurements"),
            std::string::npos);
  EXPECT_NE(error_of(t4(R"({"configuration": 3})")).find("result 0, field 'configuration'"),
            std::string::npos);
  EXPECT_NE(error_of(R"({"results": {}})").find("results"), std::string::npos);
}

TEST(KernelTunerValidation, TheParserKeepsFileOrderAndRefusesDuplicates) {
  std::string text = "{";
  for (int i = 0; i < 2000; ++i)
    text += (i ? ",\"" : "\"") + std::to_string(1999 - i) + "\":" + std::to_string(i);
  text += "}";
  const detail::ojson doc = detail::parse_ordered(text);
  ASSERT_EQ(doc.size(), 2000u);
  int i = 0;
  for (const auto& [key, value] : doc.items()) {
    EXPECT_EQ(key, std::to_string(1999 - i));
    EXPECT_EQ(value.get<int>(), i);
    ++i;
  }
  EXPECT_EQ(detail::parse_ordered(R"([1, {"a": [true, null, "x"]}, 2.5])").dump(),
            R"([1,{"a":[true,null,"x"]},2.5])");
  EXPECT_THROW(detail::parse_ordered(R"({"a": 1, "b": {"c": 1, "c": 2}})"), std::invalid_argument);
  EXPECT_THROW(detail::parse_ordered("[1, 2"), nlohmann::json::parse_error);
}

// parse_split locates the entries of "cache" and "results" (their text, parsed one by one
// later) and builds the rest; the oracle is parse_ordered of the same text.
TEST(KernelTunerValidation, TheSplitParserLocatesEntriesAndBuildsTheRest) {
  const std::string text =
      R"( {"cache": {"a": {"x": [1, {"y": "}"}]}, "b": 7, "c": {}},
           "tune_params_keys": ["x"], "nested": {"cache": {"k": {"v": 1}}},
           "results": [{"r": 1}, [2, 3], "s"]} )";
  const detail::SplitDocument d = detail::parse_split(text.data(), text.data() + text.size());
  const detail::ojson whole = detail::parse_ordered(text);
  EXPECT_EQ(d.root["cache"], detail::ojson::object());
  EXPECT_EQ(d.root["results"], detail::ojson::array());
  EXPECT_EQ(d.root["nested"], whole["nested"]);  // only the root's "cache" is split
  EXPECT_EQ(d.root["tune_params_keys"], whole["tune_params_keys"]);
  ASSERT_EQ(d.entries.size(), 6u);
  const auto value = [&](const detail::SplitDocument::Entry& e) {
    return e.begin == e.end ? e.value
                            : detail::parse_ordered(text.data() + e.begin, text.data() + e.end);
  };
  const std::vector<std::string> keys = {"a", "b", "c"};
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_FALSE(d.entries[i].result);
    EXPECT_EQ(d.entries[i].key, keys[i]);
    EXPECT_EQ(value(d.entries[i]), whole["cache"][keys[i]]);
  }
  for (std::size_t i = 3; i < 6; ++i) {
    EXPECT_TRUE(d.entries[i].result);
    EXPECT_EQ(value(d.entries[i]), whole["results"][i - 3]);
  }
  const std::string twice = R"({"cache": {"a": {}, "a": {}}})";
  EXPECT_THROW(detail::parse_split(twice.data(), twice.data() + twice.size()),
               std::invalid_argument);
  const std::string cut = R"({"cache": {"a": {"x": 1}, "b": {"y": )";
  EXPECT_THROW(detail::parse_split(cut.data(), cut.data() + cut.size()),
               nlohmann::json::parse_error);
}

// The header may follow the entries (e.g. a file written with sorted keys), and a T4 file's
// "results" are read alone even next to a "cache".
TEST(KernelTunerValidation, EntriesReadWhereverTheHeaderIs) {
  std::istringstream sorted(R"({"cache": {)" + kGood + R"(}, "device_name": "cpu",
      "kernel_name": "tvl1", "tune_params_keys": ["variant", "precision", "tile_x", "tile_y"]})");
  KernelTunerImportOptions options;
  options.tunable_names = {"tile_x", "tile_y"};
  const KernelTunerImport imp = read_kernel_tuner_cache(sorted, options);
  ASSERT_EQ(imp.entries.size(), 1u);
  EXPECT_EQ(imp.entries[0].config.workload, "tvl1");
  EXPECT_DOUBLE_EQ(imp.entries[0].time_ms, 2.5);
  std::istringstream both(R"({"cache": {)" + kGood +
                          R"(}, "results": [{"configuration": {"variant": "kokkos_global",
      "precision": "f32", "tile_x": 16, "tile_y": 2}, "invalidity": "correct",
      "measurements": [{"name": "time", "value": 4.0, "unit": "ms"}]}]})");
  options.workload = "tvl1";
  const KernelTunerImport t4 = read_kernel_tuner_cache(both, options);
  ASSERT_EQ(t4.entries.size(), 1u);
  EXPECT_EQ(t4.entries[0].where, "result 0");
  EXPECT_DOUBLE_EQ(t4.entries[0].time_ms, 4.0);
}

}  // namespace
}  // namespace flowtune::interop
