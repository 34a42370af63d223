// The JSON texts of a config's tunables and parameters (part of its key, db/config_key.cpp)
// are written member by member; they must equal nlohmann::json's dump of the same object
// (the oracle: how every key in existing DBs was written).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "db/rows.hpp"

namespace flowtune::db {
namespace {

std::string dumped_params(const std::map<std::string, double>& params) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : params) {
    // the documented rule: whole numbers within the exactly representable range as integers
    const bool whole =
        std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 9.0e15;
    if (whole)
      j[name] = static_cast<std::int64_t>(value);
    else
      j[name] = value;
  }
  return j.dump();
}

TEST(ConfigKeyText, TunablesAndParamsAreWrittenAsNlohmannDumpsThem) {
  const std::map<std::string, int> tunables = {
      {"tile_x", 32},   {"block_y", -4},    {"q\"uote", 1}, {"back\\slash", 2},
      {"tab\tname", 3}, {"caf\xc3\xa9", 4}, {"", 5}};
  nlohmann::json t = nlohmann::json::object();
  for (const auto& [name, value] : tunables) t[name] = value;
  EXPECT_EQ(tunables_json(tunables), t.dump());
  EXPECT_EQ(tunables_json({}), "{}");

  const std::map<std::string, double> params = {
      {"lambda", 0.15},      {"iterations", 300}, {"theta", 0.3},   {"tiny", 1e-300},
      {"big", 1.5e300},      {"negative", -2.5},  {"zero", 0},      {"third", 1.0 / 3},
      {"ctl\x01name", 0.25}, {"whole_big", 4e15}, {"epsilon", 0.01}};
  EXPECT_EQ(params_json(params), dumped_params(params));
  EXPECT_EQ(params_json({}), "{}");
  // Exactly as before the change (hand-written): whole numbers as integers, others shortest.
  EXPECT_EQ(params_json({{"a", 2.0}, {"b", 0.1}}), R"({"a":2,"b":0.1})");
}

TEST(ConfigKeyText, InvalidUtf8InANameIsRefusedAsNlohmannRefusesIt) {
  EXPECT_THROW(tunables_json({{"bad\xff", 1}}), nlohmann::json::type_error);
}

}  // namespace
}  // namespace flowtune::db
