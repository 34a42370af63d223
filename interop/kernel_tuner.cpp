// Export of a flowtune recording as a Kernel Tuner cache file or T4 results file (the format
// is documented on write_kernel_tuner_cache in kernel_tuner.hpp and in KERNEL_TUNER.md).
#include "interop/kernel_tuner.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <ostream>
#include <set>
#include <stdexcept>

#include "interop/kernel_tuner_json.hpp"

namespace flowtune::interop {
namespace {

using detail::ojson;

enum class Kind { measured, failed, pruned };

/// One config of the export, pointing into the rows read from the repository.
struct Entry {
  Kind kind;
  const db::ConfigRow* config;
  const db::MeasuredConfig* measured = nullptr;
  const db::FailureRow* failure = nullptr;
  const db::PrunedRow* pruned = nullptr;
};

/// The rows of one board + dataset, read once.
struct Recording {
  std::string dataset, workload;
  std::vector<db::MeasuredConfig> measured;
  std::vector<db::FailureRow> failures;
  std::vector<db::PrunedRow> pruned;
  std::vector<Entry> entries;  ///< measured, then failed, then pruned
};

Recording read_recording(const db::Repository& repo, const std::string& board,
                         const std::string& dataset) {
  Recording r;
  r.dataset = dataset;
  if (r.dataset.empty()) {
    const std::vector<std::string> datasets = repo.datasets(board);
    if (datasets.empty())
      throw std::invalid_argument("board '" + board + "' has no measurement in " + repo.path());
    r.dataset = datasets.front();
  }
  r.measured = repo.measured(board, r.dataset);
  std::vector<db::FailureRow> all_failures = repo.failures(board);
  std::set<std::string> workloads, measured_keys, failed_keys;
  for (const auto& m : r.measured) {
    workloads.insert(m.config.workload);
    measured_keys.insert(m.config.key);
  }
  // The last failure of each config on the dataset, unless it was measured there since.
  for (auto it = all_failures.rbegin(); it != all_failures.rend(); ++it)
    if (it->dataset == r.dataset && !measured_keys.count(it->config.key) &&
        failed_keys.insert(it->config.key).second) {
      workloads.insert(it->config.workload);
      r.failures.push_back(*it);
    }
  std::reverse(r.failures.begin(), r.failures.end());
  if (workloads.empty())
    throw std::invalid_argument("board '" + board + "' has no measurement or failure on dataset '" +
                                r.dataset + "' in " + repo.path());
  if (workloads.size() > 1)
    throw std::invalid_argument("board '" + board + "', dataset '" + r.dataset +
                                "' mixes workloads (" + *workloads.begin() + ", " +
                                *std::next(workloads.begin()) + "): one kernel per cache file");
  r.workload = *workloads.begin();
  for (auto& p : repo.pruned(board))
    if (p.config.workload == r.workload && !measured_keys.count(p.config.key) &&
        !failed_keys.count(p.config.key))
      r.pruned.push_back(std::move(p));
  for (const auto& m : r.measured) r.entries.push_back({Kind::measured, &m.config, &m});
  for (const auto& f : r.failures) r.entries.push_back({Kind::failed, &f.config, nullptr, &f});
  for (const auto& p : r.pruned)
    r.entries.push_back({Kind::pruned, &p.config, nullptr, nullptr, &p});
  return r;
}

/// Numbers before strings; numbers by value, strings lexicographically.
bool value_less(const ojson& a, const ojson& b) {
  if (a.is_number() != b.is_number()) return a.is_number();
  if (a.is_number()) return a.get<double>() < b.get<double>();
  return detail::key_text(a) < detail::key_text(b);
}

/// The flattened space: its dimensions and what the flattening dropped.
struct Flattening {
  std::vector<std::string> tunables, params;  ///< sorted
  bool clock_varies = false;
  int clock_mhz = 0;                        ///< when constant
  std::map<std::string, double> constants;  ///< parameters with one value
  std::map<std::string, std::set<std::string>> variant_tunables;
  std::vector<std::string> keys;  ///< every dimension in order
};

double param_or_zero(const db::ConfigRow& c, const std::string& name) {
  const auto it = c.params.find(name);
  return it == c.params.end() ? 0.0 : it->second;
}

Flattening flatten(const Recording& r, const std::set<std::string>& observable_names) {
  Flattening f;
  std::set<std::string> tunables, params, clocks;
  for (const Entry& e : r.entries) {
    auto& names = f.variant_tunables[e.config->variant];
    for (const auto& [name, value] : e.config->tunables) {
      tunables.insert(name);
      names.insert(name);
    }
    for (const auto& [name, value] : e.config->params) params.insert(name);
    clocks.insert(std::to_string(e.config->clock_mhz));
  }
  f.tunables.assign(tunables.begin(), tunables.end());
  for (const std::string& name : params) {
    std::set<std::string> values;
    for (const Entry& e : r.entries)
      values.insert(detail::number(param_or_zero(*e.config, name)).dump());
    if (values.size() > 1)
      f.params.push_back(name);
    else
      f.constants[name] = param_or_zero(*r.entries.front().config, name);
  }
  f.clock_varies = clocks.size() > 1;
  f.clock_mhz = r.entries.front().config->clock_mhz;
  f.keys = {"variant", "precision"};
  f.keys.insert(f.keys.end(), f.tunables.begin(), f.tunables.end());
  f.keys.insert(f.keys.end(), f.params.begin(), f.params.end());
  if (f.clock_varies) f.keys.push_back("clock_mhz");
  // Names Kernel Tuner forbids or that the entries use for something else.
  std::set<std::string> taken = {"time",
                                 "times",
                                 "compile_time",
                                 "benchmark_time",
                                 "verification_time",
                                 "strategy_time",
                                 "framework_time",
                                 "timestamp",
                                 "grid_size_x",
                                 "grid_size_y",
                                 "grid_size_z",
                                 "energy_mj",
                                 "flowtune_config",
                                 "flowtune_failure",
                                 "flowtune_message",
                                 "flowtune_pruned"};
  taken.insert(observable_names.begin(), observable_names.end());
  std::set<std::string> seen;
  for (const std::string& key : f.keys)
    if (taken.count(key) || !seen.insert(key).second)
      throw std::invalid_argument("cannot flatten for Kernel Tuner: dimension '" + key +
                                  "' is named like another dimension or a result field");
  return f;
}

/// The entry's values of the dimensions, in order.
ojson coordinates(const Flattening& f, const db::ConfigRow& c) {
  ojson values = ojson::object();
  values["variant"] = c.variant;
  values["precision"] = c.precision;
  for (const std::string& name : f.tunables) {
    const auto it = c.tunables.find(name);
    values[name] = it == c.tunables.end() ? 0 : it->second;
  }
  for (const std::string& name : f.params) values[name] = detail::number(param_or_zero(c, name));
  if (f.clock_varies) values["clock_mhz"] = c.clock_mhz;
  return values;
}

std::string error_name(const Entry& e) {
  if (e.kind == Kind::pruned) return "InvalidConfig";
  if (e.kind == Kind::failed) return kernel_tuner_error(e.failure->failure_class);
  return "";
}

/// T4's invalidity enum: timeout, compile, runtime, correctness, constraints, correct.
std::string t4_invalidity(const Entry& e) {
  if (e.kind == Kind::measured) return "correct";
  if (e.kind == Kind::pruned) return "constraints";
  const std::string& c = e.failure->failure_class;
  if (c == "compile" || c == "timeout") return c;
  if (c == "accuracy") return "correctness";
  return "runtime";
}

/// energy_mj and the finite metrics of a measurement, by name.
std::map<std::string, double> observables(const db::MeasurementRow& m) {
  std::map<std::string, double> out;
  if (m.energy_mj && std::isfinite(*m.energy_mj)) out["energy_mj"] = *m.energy_mj;
  for (const auto& [name, value] : m.metrics)
    if (std::isfinite(value)) out[name] = value;
  return out;
}

double benchmark_time_ms(const db::MeasurementRow& m) {
  const double items = m.items.empty() ? 1.0 : static_cast<double>(m.items.size());
  return m.time_ms_median * std::max(m.n_repeats, 1) * items;
}

ojson flowtune_header(const Recording& r, const std::string& board, const Flattening& f) {
  ojson h = ojson::object();
  h["format"] = "flowtune kernel_tuner export 1";
  h["board"] = board;
  h["workload"] = r.workload;
  h["dataset"] = r.dataset;
  h["time"] = "time_ms: median time per execution, mean over the dataset's items (ms)";
  h["energy_mj"] = "energy per execution (mJ); absent where the board has no sensor";
  ojson vt = ojson::object();
  for (const auto& [variant, names] : f.variant_tunables)
    vt[variant] = ojson(std::vector<std::string>(names.begin(), names.end()));
  h["variant_tunables"] = vt;
  ojson constants = ojson::object();
  for (const auto& [name, value] : f.constants) constants[name] = detail::number(value);
  h["constant_params"] = constants;
  if (!f.clock_varies) h["clock_mhz"] = f.clock_mhz;
  return h;
}

ojson tune_params(const Flattening& f, const std::vector<ojson>& coords) {
  ojson out = ojson::object();
  for (const std::string& name : f.keys) {
    std::vector<ojson> values;
    std::set<std::string> seen;
    for (const ojson& c : coords)
      if (seen.insert(detail::key_text(c.at(name))).second) values.push_back(c.at(name));
    std::sort(values.begin(), values.end(), value_less);
    out[name] = ojson(values);
  }
  return out;
}

/// The cache entry (Kernel Tuner's result dict) of one config.
ojson cache_entry(const Entry& e, const ojson& coords) {
  ojson j = coords;
  const std::string error = error_name(e);
  if (error.empty())
    j["time"] = e.measured->measurement.time_ms_median;
  else
    j["time"] = error;
  j["compile_time"] = 0;
  j["verification_time"] = 0;
  j["benchmark_time"] = error.empty() ? benchmark_time_ms(e.measured->measurement) : 0.0;
  j["strategy_time"] = 0;
  j["framework_time"] = 0;
  if (e.kind == Kind::measured) {
    j["timestamp"] = e.measured->measured_at;
    for (const auto& [name, value] : observables(e.measured->measurement)) j[name] = value;
  } else if (e.kind == Kind::failed) {
    j["timestamp"] = e.failure->failed_at;
    j["flowtune_failure"] = e.failure->failure_class;
    j["flowtune_message"] = e.failure->message;
  } else {
    j["flowtune_pruned"] = e.pruned->reason;
  }
  j["flowtune_config"] = db::config_json(*e.config);
  return j;
}

/// The T4 result of one config; units maps a metric to its unit.
ojson t4_result(const Entry& e, const ojson& coords,
                const std::map<std::string, std::string>& units) {
  ojson j = ojson::object();
  if (e.kind == Kind::measured) j["timestamp"] = e.measured->measured_at;
  if (e.kind == Kind::failed) j["timestamp"] = e.failure->failed_at;
  j["configuration"] = coords;
  j["objectives"] = ojson::array({"time"});
  ojson times = ojson::object();
  times["compilation"] = 0;
  times["benchmark"] = e.kind == Kind::measured ? benchmark_time_ms(e.measured->measurement) : 0.0;
  times["framework"] = 0;
  times["search_algorithm"] = 0;
  times["validation"] = 0;
  times["runtimes"] = ojson::array();
  j["times"] = times;
  j["invalidity"] = t4_invalidity(e);
  j["correctness"] = e.kind == Kind::failed && e.failure->failure_class == "accuracy" ? 0 : 1;
  ojson measurements = ojson::array();
  if (e.kind == Kind::measured) {
    measurements.push_back(
        {{"name", "time"}, {"value", e.measured->measurement.time_ms_median}, {"unit", "ms"}});
    for (const auto& [name, value] : observables(e.measured->measurement)) {
      const auto unit = units.find(name);
      measurements.push_back({{"name", name},
                              {"value", value},
                              {"unit", name == "energy_mj"   ? "mJ"
                                       : unit == units.end() ? ""
                                                             : unit->second}});
    }
  }
  j["measurements"] = measurements;
  j["flowtune_config"] = db::config_json(*e.config);
  if (e.kind == Kind::failed) {
    j["flowtune_failure"] = e.failure->failure_class;
    j["flowtune_message"] = e.failure->message;
  }
  if (e.kind == Kind::pruned) j["flowtune_pruned"] = e.pruned->reason;
  return j;
}

std::map<std::string, std::string> metric_units(const db::Repository& repo,
                                                const std::string& workload) {
  std::map<std::string, std::string> units;
  try {
    for (const auto& m : repo.workload(workload).metrics) units[m.name] = m.unit;
  } catch (const db::DbError&) {
    // a DB without the workload row (written before v3 or by a test): no units
  }
  return units;
}

}  // namespace

std::string kernel_tuner_error(const std::string& failure_class) {
  return failure_class == "compile" ? "CompilationFailedConfig" : "RuntimeFailedConfig";
}

KernelTunerExportSummary write_kernel_tuner_cache(std::ostream& out, const db::Repository& repo,
                                                  const std::string& board,
                                                  const std::string& dataset,
                                                  const KernelTunerExportOptions& options) {
  const Recording r = read_recording(repo, board, dataset);
  std::set<std::string> observable_names;
  for (const auto& m : r.measured)
    for (const auto& [name, value] : observables(m.measurement)) observable_names.insert(name);
  const Flattening f = flatten(r, observable_names);

  KernelTunerExportSummary summary;
  summary.dataset = r.dataset;
  summary.tune_params_keys = f.keys;
  summary.measured = r.measured.size();
  summary.failed = r.failures.size();
  summary.pruned = r.pruned.size();
  for (const auto& m : r.measured)
    if (!(m.measurement.time_ms_median >= summary.best_time_ms))
      summary.best_time_ms = m.measurement.time_ms_median;

  std::vector<ojson> coords;
  std::map<std::string, const db::ConfigRow*> by_key;
  for (const Entry& e : r.entries) {
    coords.push_back(coordinates(f, *e.config));
    const auto [it, inserted] = by_key.emplace(detail::cache_key(coords.back()), e.config);
    if (!inserted)
      throw std::invalid_argument("cannot flatten for Kernel Tuner: '" + e.config->key + "' and '" +
                                  it->second->key + "' have the same key '" + it->first + "'");
  }

  if (options.format == KernelTunerFormat::t4) {
    const auto units = metric_units(repo, r.workload);
    ojson doc = ojson::object();
    doc["schema_version"] = "1.0.0";
    doc["metadata"] = {{"timeunit", "milliseconds"}};
    doc["flowtune"] = flowtune_header(r, board, f);
    doc["results"] = ojson::array();
    for (std::size_t i = 0; i < r.entries.size(); ++i)
      doc["results"].push_back(t4_result(r.entries[i], coords[i], units));
    out << doc.dump(1) << "\n";
    return summary;
  }

  // The header as Kernel Tuner writes it (one item per line), then one entry per line.
  out << "{\n\"device_name\": "
      << ojson(options.device_name.empty() ? board : options.device_name).dump()
      << ",\n\"kernel_name\": "
      << ojson(options.kernel_name.empty() ? r.workload : options.kernel_name).dump()
      << ",\n\"problem_size\": [1]"
      << ",\n\"tune_params_keys\": " << ojson(f.keys).dump()
      << ",\n\"tune_params\": " << tune_params(f, coords).dump() << ",\n\"objective\": \"time\""
      << ",\n\"flowtune\": " << flowtune_header(r, board, f).dump() << ",\n\"cache\": {";
  for (std::size_t i = 0; i < r.entries.size(); ++i)
    out << (i ? ",\n" : "\n") << ojson(detail::cache_key(coords[i])).dump() << ": "
        << cache_entry(r.entries[i], coords[i]).dump();
  out << "\n}\n}\n";
  if (!out) throw std::runtime_error("cannot write the Kernel Tuner cache (stream error)");
  return summary;
}

}  // namespace flowtune::interop
