// The canonical text of a config (its identity in the DB) and the JSON of its tunables and
// parameters, through nlohmann::json (sorted keys, shortest round-trip numbers).
#include <cmath>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "db/repository.hpp"

namespace flowtune::db {
namespace {

// Whole numbers within the exactly representable range are written as integers, so that
// "iterations": 300 does not read "300.0" and a key never depends on how a value was typed.
nlohmann::json number(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 9.0e15)
    return static_cast<std::int64_t>(v);
  return v;
}

nlohmann::json parse_object(const std::string& text, const char* what) {
  if (text.empty()) return nlohmann::json::object();
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string(what) + ": not JSON: '" + text + "' (" + e.what() +
                                ")");
  }
  if (!j.is_object())
    throw std::invalid_argument(std::string(what) + ": not a JSON object: '" + text + "'");
  return j;
}

}  // namespace

std::string tunables_json(const std::map<std::string, int>& tunables) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : tunables) j[name] = value;
  return j.dump();
}

std::string params_json(const std::map<std::string, double>& params) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : params) j[name] = number(value);
  return j.dump();
}

std::map<std::string, double> parse_params_json(const std::string& text) {
  std::map<std::string, double> out;
  const nlohmann::json j = parse_object(text, "parameters");
  for (const auto& [name, value] : j.items()) {
    if (!value.is_number())
      throw std::invalid_argument("parameters: '" + name + "' is not a number in '" + text + "'");
    out[name] = value.get<double>();
  }
  return out;
}

std::map<std::string, int> parse_tunables_json(const std::string& text) {
  std::map<std::string, int> out;
  const nlohmann::json j = parse_object(text, "tunables");
  for (const auto& [name, value] : j.items()) {
    if (!value.is_number_integer())
      throw std::invalid_argument("tunables: '" + name + "' is not an integer in '" + text + "'");
    const auto v = value.get<std::int64_t>();
    if (v < INT32_MIN || v > INT32_MAX)
      throw std::invalid_argument("tunables: '" + name + "' is outside int in '" + text + "'");
    out[name] = static_cast<int>(v);
  }
  return out;
}

std::string config_key(const ConfigRow& c) {
  return c.workload + " " + c.variant + " " + c.precision + " " + tunables_json(c.tunables) +
         " clock=" + std::to_string(c.clock_mhz) + " " + params_json(c.params);
}

std::string config_json(const ConfigRow& c) {
  nlohmann::json j;
  j["workload"] = c.workload;
  j["variant"] = c.variant;
  j["precision"] = c.precision;
  j["clock_mhz"] = c.clock_mhz;
  j["tunables"] = nlohmann::json::parse(tunables_json(c.tunables));
  j["params"] = nlohmann::json::parse(params_json(c.params));
  return j.dump();
}

ConfigRow parse_config_json(const std::string& text) {
  const nlohmann::json j = parse_object(text, "config");
  ConfigRow c;
  try {
    c.workload = j.at("workload").get<std::string>();
    c.variant = j.at("variant").get<std::string>();
    c.precision = j.at("precision").get<std::string>();
    const nlohmann::json& clock = j.at("clock_mhz");
    if (!clock.is_number_integer() || clock.get<std::int64_t>() < 0 ||
        clock.get<std::int64_t>() > 100000)
      throw std::invalid_argument("config: clock_mhz must be a whole number in [0, 100000] in '" +
                                  text + "'");
    c.clock_mhz = static_cast<int>(clock.get<std::int64_t>());
    c.tunables = parse_tunables_json(j.at("tunables").dump());
    c.params = parse_params_json(j.at("params").dump());
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("config: ") + e.what() + " in '" + text + "'");
  }
  c.label = c.variant + " " + c.precision;
  for (const auto& [name, value] : c.tunables) c.label += " " + name + "=" + std::to_string(value);
  c.key = config_key(c);
  return c;
}

double MeasurementRow::metric(const std::string& name) const {
  const auto it = metrics.find(name);
  return it == metrics.end() ? std::nan("") : it->second;
}

double MeasuredConfig::value(const std::string& name) const {
  const MeasurementRow& m = measurement;
  if (name == "time_ms") return m.time_ms_median;
  if (name == "ns_per_unit") return m.ns_per_unit;
  if (name == "energy_mj") return m.energy_mj ? *m.energy_mj : std::nan("");
  if (name == "power_w") return m.power_w ? *m.power_w : std::nan("");
  return m.metric(name);
}

}  // namespace flowtune::db
