// Import of Kernel Tuner cache and T4 results files (see read_kernel_tuner_cache).
#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <istream>
#include <iterator>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>

#include "interop/kernel_tuner.hpp"
#include "interop/kernel_tuner_json.hpp"

namespace flowtune::interop {
namespace {

using detail::ojson;

const std::set<std::string> kErrorNames = {"ErrorConfig", "InvalidConfig",
                                           "CompilationFailedConfig", "RuntimeFailedConfig"};
const std::set<std::string> kFailureClasses = {"compile", "launch",   "runtime",
                                               "timeout", "accuracy", "environment"};
const std::set<std::string> kInvalidities = {"correct", "compile",     "runtime",
                                             "timeout", "correctness", "constraints"};
/// Kernel Tuner's own timing fields of a cache entry (not observables of the config).
const std::set<std::string> kTimingFields = {"compile_time",  "verification_time", "benchmark_time",
                                             "strategy_time", "framework_time",    "timestamp"};

/// Thrown for a bad entry: std::invalid_argument "<where>, field '<field>': <problem>".
[[noreturn]] void bad(const std::string& where, const std::string& field,
                      const std::string& problem) {
  throw std::invalid_argument(where + (field.empty() ? "" : ", field '" + field + "'") + ": " +
                              problem);
}

std::string shown(const ojson& v) {
  std::string s = v.dump();
  if (s.size() > 60) s = s.substr(0, 57) + "...";
  return s;
}

/// A time per execution in ms: a finite number in [0, kMaxTimeMs] (a longer one is no
/// measurement of a kernel, e.g. 1.2e29).
double check_time(const std::string& where, const std::string& field, const ojson& v) {
  if (!v.is_number()) bad(where, field, shown(v) + " is not a number of milliseconds");
  const double t = v.get<double>();
  if (!std::isfinite(t) || t < 0 || t > kMaxImportedTimeMs)
    bad(where, field,
        shown(v) + " is outside [0, " + ojson(kMaxImportedTimeMs).dump() + "] milliseconds");
  return t;
}

/// An observable (energy_mj, a metric): a finite non-negative number.
double check_observable(const std::string& where, const std::string& field, const ojson& v) {
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < 0) bad(where, field, shown(v) + " is negative or not finite");
  return x;
}

/// What the file's "flowtune" object says (empty when absent).
struct Header {
  std::string workload;
  std::map<std::string, std::set<std::string>> variant_tunables;
  std::map<std::string, double> constants;
  int clock_mhz = 0;
};

Header read_header(const ojson& doc) {
  Header h;
  if (!doc.contains("flowtune")) return h;
  const ojson& f = doc["flowtune"];
  const std::string where = "the \"flowtune\" object";
  if (!f.is_object()) bad(where, "", "not an object");
  if (f.contains("workload")) {
    if (!f["workload"].is_string()) bad(where, "workload", "not a string");
    h.workload = f["workload"].get<std::string>();
  }
  if (f.contains("variant_tunables")) {
    if (!f["variant_tunables"].is_object()) bad(where, "variant_tunables", "not an object");
    for (const auto& [variant, names] : f["variant_tunables"].items()) {
      if (!names.is_array()) bad(where, "variant_tunables." + variant, "not a list of names");
      for (const auto& n : names) {
        if (!n.is_string()) bad(where, "variant_tunables." + variant, shown(n) + " is not a name");
        h.variant_tunables[variant].insert(n.get<std::string>());
      }
    }
  }
  if (f.contains("constant_params")) {
    if (!f["constant_params"].is_object()) bad(where, "constant_params", "not an object");
    for (const auto& [name, value] : f["constant_params"].items()) {
      if (!value.is_number()) bad(where, "constant_params." + name, "not a number");
      h.constants[name] = value.get<double>();
    }
  }
  if (f.contains("clock_mhz")) {
    const ojson& c = f["clock_mhz"];
    if (!c.is_number_integer() || c.get<std::int64_t>() < 0 || c.get<std::int64_t>() > 100000)
      bad(where, "clock_mhz", shown(c) + " is not a whole number of MHz in [0, 100000]");
    h.clock_mhz = c.get<int>();
  }
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

/// What rebuilding a config from coordinates needs, computed once per file.
struct RebuildContext {
  const Header& header;
  std::string workload;
  std::set<std::string> named;        ///< options.tunable_names
  std::set<std::string> any_variant;  ///< tunables of some variant (the file's header)
};

/// The config of coordinates (checked: variant and precision strings, tunables integers,
/// parameters and clock numbers; a coordinate that is none of these is an error).
db::ConfigRow rebuild(const std::string& where, const ojson& coords, const RebuildContext& x) {
  const Header& h = x.header;
  db::ConfigRow c;
  c.workload = x.workload;
  for (const char* name : {"variant", "precision"}) {
    const auto it = coords.find(name);
    if (it == coords.end()) bad(where, name, "missing (a flowtune config needs it)");
    if (!it->is_string()) bad(where, name, shown(*it) + " is not a name");
    (name[0] == 'v' ? c.variant : c.precision) = it->get<std::string>();
  }
  c.clock_mhz = h.clock_mhz;
  const auto clock = coords.find("clock_mhz");
  if (clock != coords.end()) {
    if (!clock->is_number_integer() || clock->get<std::int64_t>() < 0 ||
        clock->get<std::int64_t>() > 100000)
      bad(where, "clock_mhz", shown(*clock) + " is not a whole number of MHz in [0, 100000]");
    c.clock_mhz = clock->get<int>();
  }
  const auto known = h.variant_tunables.find(c.variant);
  c.params = h.constants;
  for (const auto& [name, value] : coords.items()) {
    if (name == "variant" || name == "precision" || name == "clock_mhz") continue;
    const bool tunable =
        known != h.variant_tunables.end() ? known->second.count(name) > 0 : x.named.count(name) > 0;
    if (tunable) {
      if (!value.is_number_integer() || value.get<std::int64_t>() < INT32_MIN ||
          value.get<std::int64_t>() > INT32_MAX)
        bad(where, name, shown(value) + " is not an integer (a tunable)");
      c.tunables[name] = value.get<int>();
    } else if (x.any_variant.count(name)) {
      // a tunable of another variant, 0 by the flattening: not part of this config
      if (!value.is_number_integer()) bad(where, name, shown(value) + " is not an integer");
    } else if (value.is_number()) {
      c.params[name] = value.get<double>();
    } else {
      bad(where, name,
          shown(value) + " is neither a tunable (integer) nor a parameter (number)" +
              (known == h.variant_tunables.end() && x.named.empty()
                   ? " (the file names no tunables: a \"flowtune\" object or tunable names)"
                   : ""));
    }
  }
  c.label = c.variant + " " + c.precision;
  for (const auto& [name, value] : c.tunables) c.label += " " + name + "=" + std::to_string(value);
  c.key = db::config_key(c);
  return c;
}

RebuildContext context(const Header& h, const std::string& workload,
                       const KernelTunerImportOptions& options) {
  RebuildContext x{h, workload, {options.tunable_names.begin(), options.tunable_names.end()}, {}};
  for (const auto& [variant, names] : h.variant_tunables)
    x.any_variant.insert(names.begin(), names.end());
  return x;
}

/// Fills time, error and observables from a Kernel Tuner result dict (a cache entry).
void read_cache_fields(const std::string& where, const ojson& entry,
                       const std::set<std::string>& dims, KernelTunerEntry& e) {
  const ojson* time = nullptr;
  for (const auto& [name, value] : entry.items()) {
    if (dims.count(name) || name == "flowtune_config" || name == "flowtune_message" ||
        name == "flowtune_pruned")
      continue;
    if (value.is_string() && kErrorNames.count(value.get<std::string>())) {
      e.error = value.get<std::string>();
    } else if (name == "time") {
      time = &value;
    } else if (name == "flowtune_failure") {
      if (!value.is_string() || !kFailureClasses.count(value.get<std::string>()))
        bad(where, name,
            shown(value) +
                " is not a failure class (compile, launch, runtime, "
                "timeout, accuracy, environment)");
      e.failure_class = value.get<std::string>();
    } else if (value.is_number() && !kTimingFields.count(name)) {
      e.observables[name] = check_observable(where, name, value);
    }
  }
  if (!e.error.empty()) return;
  if (!time) bad(where, "time", "missing (neither a time nor a Kernel Tuner error name)");
  if (time->is_string())
    bad(where, "time", shown(*time) + " is neither a number nor a Kernel Tuner error name");
  e.time_ms = check_time(where, "time", *time);
}

std::string t4_error(const std::string& invalidity) {
  if (invalidity == "correct") return "";
  if (invalidity == "constraints") return "InvalidConfig";
  if (invalidity == "compile") return "CompilationFailedConfig";
  return "RuntimeFailedConfig";  // runtime, timeout, correctness
}

void finish(const std::string& where, KernelTunerEntry& e, const ojson& coords,
            const ojson* flowtune_config, const RebuildContext& x) {
  e.where = where;
  for (const auto& [name, value] : coords.items()) {
    if (!value.is_string() && !value.is_number() && !value.is_boolean())
      bad(where, name, shown(value) + " is not a value of a tune parameter");
    e.coordinates[name] = detail::key_text(value);
  }
  if (e.key.empty()) e.key = detail::cache_key(coords);
  if (flowtune_config) {
    if (!flowtune_config->is_string()) bad(where, "flowtune_config", "not a string");
    try {
      e.config = db::parse_config_json(flowtune_config->get<std::string>());
    } catch (const std::invalid_argument& problem) {
      bad(where, "flowtune_config", problem.what());
    }
    e.exact = true;
  } else {
    e.config = rebuild(where, coords, x);
  }
}

/// The JSON of entry e of a split document of text (a duplicate key in it is an error).
ojson entry_json(const detail::SplitDocument::Entry& e, const std::string& text) {
  if (e.begin == e.end) return e.value;
  try {
    return detail::parse_ordered(text.data() + e.begin, text.data() + e.end);
  } catch (const std::invalid_argument& problem) {  // a duplicate key
    throw std::invalid_argument(std::string("Kernel Tuner file: ") + problem.what());
  }
}

/// The fields of a cache's root: device and kernel names, tune_params_keys (checked).
void read_cache_header(const ojson& doc, KernelTunerImport& out, std::set<std::string>& dims) {
  for (const char* name : {"device_name", "kernel_name"})
    if (doc.contains(name) && !doc[name].is_string())
      bad("Kernel Tuner cache", name, "not a string");
  out.device_name = doc.value("device_name", "");
  out.kernel_name = doc.value("kernel_name", "");
  if (!doc.contains("tune_params_keys") || !doc["tune_params_keys"].is_array())
    throw std::invalid_argument("Kernel Tuner cache: no \"tune_params_keys\" list");
  for (const ojson& k : doc["tune_params_keys"]) {
    if (!k.is_string() || k.get<std::string>().empty())
      bad("Kernel Tuner cache", "tune_params_keys", shown(k) + " is not a name");
    if (!dims.insert(k.get<std::string>()).second)
      bad("Kernel Tuner cache", "tune_params_keys", shown(k) + " is listed twice");
    out.tune_params_keys.push_back(k.get<std::string>());
  }
  if (!doc["cache"].is_object())
    throw std::invalid_argument("Kernel Tuner cache: \"cache\" is not an object");
}

/// One member of a cache's "cache" object.
KernelTunerEntry read_cache_entry(const detail::SplitDocument::Entry& item, const std::string& text,
                                  const KernelTunerImport& out, const std::set<std::string>& dims,
                                  const RebuildContext& x) {
  const std::string where = "entry '" + item.key + "'";
  const ojson entry = entry_json(item, text);
  if (!entry.is_object()) bad(where, "", "not an object");
  KernelTunerEntry e;
  e.key = item.key;
  ojson coords = ojson::object();
  for (const std::string& name : out.tune_params_keys) {
    const auto it = entry.find(name);
    if (it == entry.end()) bad(where, name, "missing (a tune parameter)");
    coords[name] = *it;
  }
  read_cache_fields(where, entry, dims, e);
  const auto fc = entry.find("flowtune_config");
  finish(where, e, coords, fc == entry.end() ? nullptr : &*fc, x);
  return e;
}

/// Result index of a T4 file's "results" array.
KernelTunerEntry read_t4_entry(const detail::SplitDocument::Entry& item, const std::string& text,
                               std::size_t index, const RebuildContext& x) {
  const std::string where = "result " + std::to_string(index);
  const ojson r = entry_json(item, text);
  if (!r.is_object()) bad(where, "", "not an object");
  if (!r.contains("configuration") || !r["configuration"].is_object())
    bad(where, "configuration", "missing or not an object");
  const ojson& coords = r["configuration"];
  KernelTunerEntry e;
  if (r.contains("invalidity")) {
    const ojson& v = r["invalidity"];
    if (!v.is_string() || !kInvalidities.count(v.get<std::string>()))
      bad(where, "invalidity",
          shown(v) +
              " is not one of correct, compile, runtime, timeout, correctness, "
              "constraints");
    e.error = t4_error(v.get<std::string>());
  }
  const ojson* flowtune_config = nullptr;
  if (r.contains("flowtune_config")) flowtune_config = &r["flowtune_config"];
  if (r.contains("flowtune_failure")) {
    const ojson& v = r["flowtune_failure"];
    if (!v.is_string() || !kFailureClasses.count(v.get<std::string>()))
      bad(where, "flowtune_failure", shown(v) + " is not a failure class");
    e.failure_class = v.get<std::string>();
  }
  const ojson* time = nullptr;
  if (r.contains("measurements")) {
    if (!r["measurements"].is_array()) bad(where, "measurements", "not a list");
    for (const ojson& m : r["measurements"]) {
      if (!m.is_object() || !m.contains("name") || !m["name"].is_string() || !m.contains("value"))
        bad(where, "measurements", shown(m) + " is not {\"name\": ..., \"value\": ...}");
      const std::string name = m["name"].get<std::string>();
      const ojson& v = m["value"];
      const std::string field = "measurements." + name;
      if (name == "flowtune_config") {
        flowtune_config = &v;
      } else if (name == "flowtune_failure") {
        if (!v.is_string() || !kFailureClasses.count(v.get<std::string>()))
          bad(where, field, shown(v) + " is not a failure class");
        e.failure_class = v.get<std::string>();
      } else if (name == "time") {
        time = &v;
      } else if (v.is_number()) {
        e.observables[name] = check_observable(where, field, v);
      }
    }
  }
  if (e.error.empty()) {
    if (!time) bad(where, "measurements.time", "missing (a correct result needs its time)");
    e.time_ms = check_time(where, "measurements.time", *time);
  }
  finish(where, e, coords, flowtune_config, x);
  return e;
}

/// T4's tune_params_keys: the configuration order of the first result whose configuration is
/// a non-empty object (what reading the results in order finds; a result before it that is
/// not one fails the import anyway).
std::vector<std::string> t4_keys(const detail::SplitDocument& d, const std::string& text,
                                 const std::vector<std::size_t>& items) {
  for (std::size_t i : items) {
    try {
      const ojson r = entry_json(d.entries[i], text);
      if (!r.is_object() || !r.contains("configuration")) return {};
      const ojson& c = r["configuration"];
      if (!c.is_object()) return {};
      if (c.empty()) continue;
      std::vector<std::string> keys;
      for (const auto& [name, value] : c.items()) keys.push_back(name);
      return keys;
    } catch (const std::exception&) {
      return {};
    }
  }
  return {};
}

/// The rest of in: read at once where the stream knows its size (a file of 10^6 entries is
/// ~200 MB; character by character took a second), else character by character.
std::string read_all(std::istream& in) {
  const std::istream::pos_type at = in.tellg();
  if (at != std::istream::pos_type(-1) && in.seekg(0, std::ios::end)) {
    const std::istream::pos_type end = in.tellg();
    in.seekg(at);
    if (end != std::istream::pos_type(-1) && end >= at && in) {
      std::string text(static_cast<std::size_t>(end - at), '\0');
      in.read(text.data(), static_cast<std::streamsize>(text.size()));
      text.resize(static_cast<std::size_t>(in.gcount()));
      return text;
    }
  }
  in.clear();
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

}  // namespace

struct KernelTunerFile::Parsed {
  std::string text;
  detail::SplitDocument d;
  Header h;
  KernelTunerImport header;
  std::set<std::string> dims;       ///< cache: tune_params_keys
  bool t4 = false;                  ///< a T4 file (its "results"), else a cache
  std::vector<std::size_t> items;   ///< the indices in d.entries of the file's entries
  std::optional<RebuildContext> x;  ///< refers to h
};

KernelTunerFile::KernelTunerFile(std::istream& in, const KernelTunerImportOptions& options) {
  auto p = std::make_unique<Parsed>();
  p->text = read_all(in);
  try {
    p->d = detail::parse_split(p->text.data(), p->text.data() + p->text.size());
  } catch (const std::invalid_argument& e) {  // a duplicate key
    throw std::invalid_argument(std::string("Kernel Tuner file: ") + e.what());
  } catch (const nlohmann::json::exception&) {
    try {  // a cache Kernel Tuner left open (it appends entries as it measures them)
      p->text = close_open_cache(std::move(p->text));
      p->d = detail::parse_split(p->text.data(), p->text.data() + p->text.size());
    } catch (const std::invalid_argument& e) {
      throw std::invalid_argument(std::string("Kernel Tuner file: ") + e.what());
    } catch (const nlohmann::json::exception& e) {
      throw std::invalid_argument(std::string("Kernel Tuner file: not JSON (") + e.what() + ")");
    }
  }
  const ojson& doc = p->d.root;
  if (!doc.is_object()) throw std::invalid_argument("Kernel Tuner file: not a JSON object");
  try {
    p->h = read_header(doc);
    std::string workload;
    if (doc.contains("results")) {
      if (!doc["results"].is_array()) bad("T4 results", "results", "not a list");
      p->t4 = true;
      workload = !p->h.workload.empty() ? p->h.workload : options.workload;
    } else if (doc.contains("cache")) {
      read_cache_header(doc, p->header, p->dims);
      workload = !p->h.workload.empty()      ? p->h.workload
                 : !options.workload.empty() ? options.workload
                                             : p->header.kernel_name;
    } else {
      throw std::invalid_argument(
          "Kernel Tuner file: neither a cache (\"cache\") nor T4 (\"results\")");
    }
    for (std::size_t i = 0; i < p->d.entries.size(); ++i)
      if (p->d.entries[i].result == p->t4) p->items.push_back(i);
    if (p->t4) p->header.tune_params_keys = t4_keys(p->d, p->text, p->items);
    p->x.emplace(context(p->h, workload, options));
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("Kernel Tuner file: ") + e.what());
  }
  parsed_ = std::move(p);
}

KernelTunerFile::~KernelTunerFile() = default;
KernelTunerFile::KernelTunerFile(KernelTunerFile&&) noexcept = default;
KernelTunerFile& KernelTunerFile::operator=(KernelTunerFile&&) noexcept = default;

const KernelTunerImport& KernelTunerFile::header() const {
  return parsed_->header;
}

std::size_t KernelTunerFile::size() const {
  return parsed_->items.size();
}

KernelTunerEntry KernelTunerFile::entry(std::size_t i) const {
  const Parsed& p = *parsed_;
  const detail::SplitDocument::Entry& item = p.d.entries[p.items.at(i)];
  try {
    return p.t4 ? read_t4_entry(item, p.text, i, *p.x)
                : read_cache_entry(item, p.text, p.header, p.dims, *p.x);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("Kernel Tuner file: ") + e.what());
  }
}

KernelTunerImport read_kernel_tuner_entries(std::istream& in,
                                            const KernelTunerImportOptions& options,
                                            const KernelTunerEntrySink& sink) {
  const KernelTunerFile file(in, options);
  for (std::size_t i = 0; i < file.size(); ++i) sink(file.header(), file.entry(i));
  return file.header();
}

KernelTunerImport read_kernel_tuner_cache(std::istream& in,
                                          const KernelTunerImportOptions& options) {
  std::vector<KernelTunerEntry> entries;
  KernelTunerImport out = read_kernel_tuner_entries(
      in, options,
      [&](const KernelTunerImport&, KernelTunerEntry&& e) { entries.push_back(std::move(e)); });
  out.entries = std::move(entries);
  return out;
}

}  // namespace flowtune::interop
