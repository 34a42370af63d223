// Import of Kernel Tuner cache and T4 results files (see read_kernel_tuner_cache).
#include <algorithm>
#include <cctype>
#include <istream>
#include <iterator>
#include <set>
#include <stdexcept>

#include "interop/kernel_tuner.hpp"
#include "interop/kernel_tuner_json.hpp"

namespace flowtune::interop {
namespace {

using detail::ojson;

const std::set<std::string> kErrorNames = {"ErrorConfig", "InvalidConfig",
                                           "CompilationFailedConfig", "RuntimeFailedConfig"};

/// What the file's "flowtune" object says (empty when absent).
struct Header {
  std::string workload;
  std::map<std::string, std::set<std::string>> variant_tunables;
  std::map<std::string, double> constants;
  int clock_mhz = 0;
};

Header read_header(const ojson& doc) {
  Header h;
  if (!doc.contains("flowtune") || !doc["flowtune"].is_object()) return h;
  const ojson& f = doc["flowtune"];
  h.workload = f.value("workload", "");
  if (f.contains("variant_tunables"))
    for (const auto& [variant, names] : f["variant_tunables"].items())
      for (const auto& n : names) h.variant_tunables[variant].insert(n.get<std::string>());
  if (f.contains("constant_params"))
    for (const auto& [name, value] : f["constant_params"].items())
      h.constants[name] = value.get<double>();
  if (f.contains("clock_mhz")) h.clock_mhz = f["clock_mhz"].get<int>();
  return h;
}

/// The text of a cache file Kernel Tuner left open (it appends "key: entry," lines as it
/// measures; an interrupted run leaves them so): what util.correct_open_cache does, the
/// trailing comma removed and "}\n}" appended. Only tried on text that does not parse.
std::string close_open_cache(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  const std::string tail = text.size() >= 3 ? text.substr(text.size() - 3) : text;
  if (!text.empty() && tail != "}\n}" && tail != "}}}") {
    if (text.back() == ',') text.pop_back();
    text += "}\n}";
  }
  return text;
}

db::ConfigRow rebuild(const ojson& coords, const Header& h, const std::string& workload,
                      const KernelTunerImportOptions& options) {
  ojson c = ojson::object();
  c["workload"] = workload;
  c["variant"] = coords.value("variant", "");
  c["precision"] = coords.value("precision", "");
  c["clock_mhz"] = coords.contains("clock_mhz") ? coords["clock_mhz"] : ojson(h.clock_mhz);
  const auto known = h.variant_tunables.find(c["variant"].get<std::string>());
  const std::set<std::string> named(options.tunable_names.begin(), options.tunable_names.end());
  std::set<std::string> any_variant;  // tunables of some variant (the file's header)
  for (const auto& [variant, names] : h.variant_tunables)
    any_variant.insert(names.begin(), names.end());
  ojson tunables = ojson::object(), params = ojson::object();
  for (const auto& [name, value] : h.constants) params[name] = detail::number(value);
  for (const auto& [name, value] : coords.items()) {
    if (name == "variant" || name == "precision" || name == "clock_mhz") continue;
    const bool tunable =
        known != h.variant_tunables.end() ? known->second.count(name) > 0 : named.count(name) > 0;
    if (tunable)
      tunables[name] = value;
    else if (!any_variant.count(name) && value.is_number())
      params[name] = value;
    // else: a tunable of another variant, 0 by the flattening: not part of this config
  }
  c["tunables"] = tunables;
  c["params"] = params;
  return db::parse_config_json(c.dump());
}

/// Fills time, error and observables from a Kernel Tuner result dict (a cache entry).
void read_cache_fields(const ojson& entry, const std::vector<std::string>& keys,
                       KernelTunerEntry& e) {
  const std::set<std::string> dims(keys.begin(), keys.end());
  for (const auto& [name, value] : entry.items()) {
    if (dims.count(name)) continue;
    if (value.is_string() && kErrorNames.count(value.get<std::string>()))
      e.error = value.get<std::string>();
    else if (name == "time" && value.is_number())
      e.time_ms = value.get<double>();
    else if (name == "flowtune_failure" && value.is_string())
      e.failure_class = value.get<std::string>();
    else if (value.is_number() && name != "compile_time" && name != "verification_time" &&
             name != "benchmark_time" && name != "strategy_time" && name != "framework_time")
      e.observables[name] = value.get<double>();
  }
  if (!e.error.empty()) e.time_ms = std::nan("");
}

std::string t4_error(const std::string& invalidity) {
  if (invalidity == "correct") return "";
  if (invalidity == "constraints") return "InvalidConfig";
  if (invalidity == "compile") return "CompilationFailedConfig";
  return "RuntimeFailedConfig";  // runtime, timeout, correctness
}

void finish(KernelTunerEntry& e, const ojson& coords, const std::string& flowtune_config,
            const Header& h, const std::string& workload, const KernelTunerImportOptions& options) {
  for (const auto& [name, value] : coords.items()) e.coordinates[name] = detail::key_text(value);
  if (e.key.empty()) e.key = detail::cache_key(coords);
  if (!flowtune_config.empty()) {
    e.config = db::parse_config_json(flowtune_config);
    e.exact = true;
  } else {
    e.config = rebuild(coords, h, workload, options);
  }
}

KernelTunerImport read_cache(const ojson& doc, const Header& h,
                             const KernelTunerImportOptions& options) {
  KernelTunerImport out;
  out.device_name = doc.value("device_name", "");
  out.kernel_name = doc.value("kernel_name", "");
  if (!doc.contains("tune_params_keys") || !doc["tune_params_keys"].is_array())
    throw std::invalid_argument("Kernel Tuner cache: no \"tune_params_keys\" list");
  out.tune_params_keys = doc["tune_params_keys"].get<std::vector<std::string>>();
  const std::string workload = !h.workload.empty()         ? h.workload
                               : !options.workload.empty() ? options.workload
                                                           : out.kernel_name;
  if (!doc["cache"].is_object())
    throw std::invalid_argument("Kernel Tuner cache: \"cache\" is not an object");
  for (const auto& [key, entry] : doc["cache"].items()) {
    if (!entry.is_object())
      throw std::invalid_argument("Kernel Tuner cache: entry '" + key + "' is not an object");
    KernelTunerEntry e;
    e.key = key;
    ojson coords = ojson::object();
    for (const std::string& name : out.tune_params_keys) {
      if (!entry.contains(name))
        throw std::invalid_argument("Kernel Tuner cache: entry '" + key + "' has no '" + name +
                                    "'");
      coords[name] = entry[name];
    }
    read_cache_fields(entry, out.tune_params_keys, e);
    finish(e, coords, entry.value("flowtune_config", ""), h, workload, options);
    out.entries.push_back(std::move(e));
  }
  return out;
}

KernelTunerImport read_t4(const ojson& doc, const Header& h,
                          const KernelTunerImportOptions& options) {
  KernelTunerImport out;
  const std::string workload = !h.workload.empty() ? h.workload : options.workload;
  for (const ojson& r : doc["results"]) {
    if (!r.is_object() || !r.contains("configuration") || !r["configuration"].is_object())
      throw std::invalid_argument("T4 results: a result without a \"configuration\" object");
    const ojson& coords = r["configuration"];
    if (out.tune_params_keys.empty())
      for (const auto& [name, value] : coords.items()) out.tune_params_keys.push_back(name);
    KernelTunerEntry e;
    e.error = t4_error(r.value("invalidity", "correct"));
    std::string flowtune_config = r.value("flowtune_config", "");
    e.failure_class = r.value("flowtune_failure", "");
    if (r.contains("measurements"))
      for (const ojson& m : r["measurements"]) {
        const std::string name = m.value("name", "");
        if (!m.contains("value")) continue;
        const ojson& v = m["value"];
        if (name == "flowtune_config" && v.is_string())
          flowtune_config = v.get<std::string>();
        else if (name == "flowtune_failure" && v.is_string())
          e.failure_class = v.get<std::string>();
        else if (name == "time" && v.is_number())
          e.time_ms = v.get<double>();
        else if (v.is_number())
          e.observables[name] = v.get<double>();
      }
    if (!e.error.empty()) e.time_ms = std::nan("");
    finish(e, coords, flowtune_config, h, workload, options);
    out.entries.push_back(std::move(e));
  }
  return out;
}

}  // namespace

KernelTunerImport read_kernel_tuner_cache(std::istream& in,
                                          const KernelTunerImportOptions& options) {
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ojson doc;
  try {
    doc = ojson::parse(text);
  } catch (const nlohmann::json::exception&) {
    try {  // a cache Kernel Tuner left open (it appends entries as it measures them)
      doc = ojson::parse(close_open_cache(text));
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(std::string("Kernel Tuner file: not JSON (") + e.what() + ")");
    }
  }
  if (!doc.is_object()) throw std::invalid_argument("Kernel Tuner file: not a JSON object");
  try {
    const Header h = read_header(doc);
    if (doc.contains("results") && doc["results"].is_array()) return read_t4(doc, h, options);
    if (doc.contains("cache")) return read_cache(doc, h, options);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("Kernel Tuner file: ") + e.what());
  }
  throw std::invalid_argument(
      "Kernel Tuner file: neither a cache (\"cache\") nor T4 (\"results\")");
}

}  // namespace flowtune::interop
