// The canonical text of a config (its identity in the DB) and the JSON of its tunables and
// parameters, through nlohmann::json (sorted keys, shortest round-trip numbers).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <unordered_map>

#include "db/base64.hpp"
#include "db/rows.hpp"

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

// tunables_json and params_json write what nlohmann::json's dump() of the object writes
// (members in key order, no spaces) member by member: a name of plain ASCII as it is, any other
// through nlohmann (escapes, and its error for invalid UTF-8); an integer in decimal, any other
// number as nlohmann writes it (shortest round trip). An import builds 10^6 keys.
namespace {
void append_name(std::string& out, const std::string& name) {
  const bool plain = std::all_of(name.begin(), name.end(), [](char ch) {
    return ch >= 0x20 && ch <= 0x7e && ch != '"' && ch != '\\';
  });
  if (plain) {
    out += '"';
    out += name;
    out += "\":";
  } else {
    out += nlohmann::json(name).dump();
    out += ':';
  }
}

/// nlohmann's text of a number that is not whole, remembered per thread: the parameters of
/// 10^6 imported configs take a few distinct values, each written three times per config.
const std::string& number_text(double v) {
  thread_local std::unordered_map<std::uint64_t, std::string> texts;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &v, sizeof bits);
  const auto it = texts.find(bits);
  if (it != texts.end()) return it->second;
  if (texts.size() >= 4096) texts.clear();  // bounded: a run of ever new values
  return texts.emplace(bits, nlohmann::json(v).dump()).first->second;
}
}  // namespace

std::string tunables_json(const std::map<std::string, int>& tunables) {
  std::string out = "{";
  for (const auto& [name, value] : tunables) {
    if (out.size() > 1) out += ',';
    append_name(out, name);
    out += std::to_string(value);
  }
  return out + "}";
}

std::string params_json(const std::map<std::string, double>& params) {
  std::string out = "{";
  for (const auto& [name, value] : params) {
    if (out.size() > 1) out += ',';
    append_name(out, name);
    const nlohmann::json v = number(value);
    if (v.is_number_integer())
      out += std::to_string(v.get<std::int64_t>());
    else
      out += number_text(value);
  }
  return out + "}";
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
  return config_key(c, tunables_json(c.tunables), params_json(c.params));
}

std::string config_key(const ConfigRow& c, const std::string& tunables_json,
                       const std::string& params_json) {
  return c.workload + " " + c.variant + " " + c.precision + " " + tunables_json +
         " clock=" + std::to_string(c.clock_mhz) + " " + params_json;
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

namespace {
nlohmann::json metrics_to_json(const std::map<std::string, double>& metrics) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, value] : metrics)
    j[name] = std::isfinite(value) ? nlohmann::json(value) : nlohmann::json();
  return j;
}
std::map<std::string, double> metrics_from_json(const nlohmann::json& j) {
  std::map<std::string, double> out;
  for (const auto& [name, value] : j.items())
    out[name] = value.is_null() ? std::nan("") : value.get<double>();
  return out;
}
nlohmann::json optional_to_json(const std::optional<double>& v) {
  return v && std::isfinite(*v) ? nlohmann::json(*v) : nlohmann::json();
}
std::optional<double> optional_from_json(const nlohmann::json& j) {
  if (j.is_null()) return std::nullopt;
  return j.get<double>();
}
}  // namespace

std::string measurement_json(const MeasurementRow& m) {
  nlohmann::json j;
  j["run_id"] = m.run_id;
  j["dataset"] = m.dataset;
  j["time_ms_median"] = m.time_ms_median;
  j["time_ms_min"] = m.time_ms_min;
  j["time_ms_max"] = m.time_ms_max;
  j["n_repeats"] = m.n_repeats;
  j["ns_per_unit"] = m.ns_per_unit;
  j["energy_mj"] = optional_to_json(m.energy_mj);
  j["nj_per_unit"] = optional_to_json(m.nj_per_unit);
  j["power_w"] = optional_to_json(m.power_w);
  j["clock_mhz_observed"] =
      m.clock_mhz_observed ? nlohmann::json(*m.clock_mhz_observed) : nlohmann::json();
  j["metrics"] = metrics_to_json(m.metrics);
  j["resources_json"] = m.resources_json;
  nlohmann::json items = nlohmann::json::array();
  for (const ItemResult& r : m.items)
    items.push_back(
        {{"item", r.item}, {"time_ms", r.time_ms}, {"metrics", metrics_to_json(r.metrics)}});
  j["items"] = items;
  nlohmann::json images = nlohmann::json::array();
  for (const ItemImage& im : m.images)
    images.push_back({{"item", im.item},
                      {"kind", im.kind},
                      {"width", im.width},
                      {"height", im.height},
                      {"scale", im.scale},
                      {"png_base64", base64_encode(im.png)}});
  j["images"] = images;
  return j.dump();
}

MeasurementRow parse_measurement_json(const std::string& text) {
  MeasurementRow m;
  try {
    const nlohmann::json j = nlohmann::json::parse(text);
    m.run_id = j.at("run_id").get<std::int64_t>();
    m.dataset = j.at("dataset").get<std::string>();
    m.time_ms_median = j.at("time_ms_median").get<double>();
    m.time_ms_min = j.at("time_ms_min").get<double>();
    m.time_ms_max = j.at("time_ms_max").get<double>();
    m.n_repeats = j.at("n_repeats").get<int>();
    m.ns_per_unit = j.at("ns_per_unit").get<double>();
    m.energy_mj = optional_from_json(j.at("energy_mj"));
    m.nj_per_unit = optional_from_json(j.at("nj_per_unit"));
    m.power_w = optional_from_json(j.at("power_w"));
    if (!j.at("clock_mhz_observed").is_null())
      m.clock_mhz_observed = j.at("clock_mhz_observed").get<int>();
    m.metrics = metrics_from_json(j.at("metrics"));
    m.resources_json = j.at("resources_json").get<std::string>();
    for (const auto& it : j.at("items"))
      m.items.push_back({it.at("item").get<std::string>(), it.at("time_ms").get<double>(),
                         metrics_from_json(it.at("metrics"))});
    if (j.contains("images"))
      for (const auto& im : j.at("images"))
        m.images.push_back({im.at("item").get<std::string>(), im.at("kind").get<std::string>(),
                            im.at("width").get<int>(), im.at("height").get<int>(),
                            im.at("scale").get<double>(),
                            base64_decode(im.at("png_base64").get<std::string>())});
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("measurement: ") + e.what());
  }
  return m;
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
  if (name == "edp_mj_ms") return m.energy_mj ? *m.energy_mj * m.time_ms_median : std::nan("");
  return m.metric(name);
}

}  // namespace flowtune::db
