// Entries of an imported file into rows, in parallel (cli/import_rows.hpp).
#include "cli/import_rows.hpp"

#include <algorithm>
#include <atomic>
#include <exception>
#include <filesystem>
#include <map>
#include <stdexcept>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <utility>

#include "cli/options.hpp"
#include "select/config_rows.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// What check_against_schema needs of a variant, computed once per import (Variant's
/// precisions() and tunables() build their lists at each call).
struct VariantSchema {
  std::vector<std::string> precisions;
  std::vector<TunableDomain> tunables;
  std::set<std::string> names;  ///< of the tunables
};

/// What every entry's row needs; read-only while the threads run.
struct RowContext {
  const Workload* workload = nullptr;
  std::string file, board, dataset;
  std::set<std::string> metric_names;
  std::map<const Variant*, VariantSchema> schemas;  ///< every variant of the workload
};

/// Checks e.config against workload's schema: a variant of the workload, one of its
/// precisions, exactly its tunables with values of their domains, known parameters in range
/// (rebuilt configs take the absent values, else the defaults, of the parameters the file
/// lacks, and lose the 0 of a
/// tunable of another variant that the flattening wrote). A pruned entry is
/// not held to the rules between parameters or the variant's own rules (they may be why it
/// was pruned). An exact config (a file flowtune wrote) may lack a tunable added to the
/// variant since it was recorded. Throws std::runtime_error "<where>, field '<f>': <problem>".
void check_against_schema(const RowContext& x, interop::KernelTunerEntry& e,
                          std::set<std::string>& defaulted) {
  const Workload& workload = *x.workload;
  db::ConfigRow& c = e.config;
  const auto fail = [&](const std::string& field, const std::string& problem) {
    throw std::runtime_error(e.where + (field.empty() ? "" : ", field '" + field + "'") + ": " +
                             problem);
  };
  if (c.workload != workload.name())
    fail("workload", "'" + c.workload + "' in a file of workload '" + workload.name() + "'");
  const Variant* v = find_workload_variant(workload, c.variant);
  const auto schema = x.schemas.find(v);
  if (!v || schema == x.schemas.end()) {
    std::vector<std::string> names;
    for (const Variant* y : workload.variants()) names.push_back(y->name());
    fail("variant", "'" + c.variant + "' is not a variant of " + workload.name() +
                        " in this build (known: " + joined(names) + ")");
  }
  const std::vector<std::string>& precisions = schema->second.precisions;
  if (std::find(precisions.begin(), precisions.end(), c.precision) == precisions.end())
    fail("precision", "'" + c.precision + "' is not a precision of " + c.variant + " (" +
                          joined(precisions) + ")");
  const std::set<std::string>& names = schema->second.names;
  for (const TunableDomain& d : schema->second.tunables) {
    const auto it = c.tunables.find(d.name);
    if (it == c.tunables.end()) {
      // A file flowtune wrote (exact configs) may predate a tunable the variant has now.
      if (e.exact) continue;
      fail(d.name, "missing (a tunable of " + c.variant + ")");
    }
    if (std::find(d.values.begin(), d.values.end(), it->second) == d.values.end()) {
      std::vector<std::string> values;
      for (int y : d.values) values.push_back(std::to_string(y));
      fail(d.name,
           std::to_string(it->second) + " is not one of its values (" + joined(values) + ")");
    }
  }
  for (auto it = c.tunables.begin(); it != c.tunables.end();) {
    if (names.count(it->first)) {
      ++it;
    } else if (!e.exact && it->second == 0) {  // the flattening's 0 of another variant's tunable
      it = c.tunables.erase(it);
    } else {
      fail(it->first, "not a tunable of " + c.variant);
    }
  }
  c.label = c.variant + " " + c.precision;
  for (const auto& [name, value] : c.tunables) c.label += " " + name + "=" + std::to_string(value);
  // A rebuilt config (a file another tool wrote) takes the value its missing parameters mean:
  // the absent value of a parameter added after the schema's first version (the file may
  // predate it; median_window: 0, not its default 5), else the default.
  if (!e.exact)
    for (const ParamSpec& p : workload.params())
      if (!c.params.count(p.name)) {
        c.params[p.name] = p.absent_value.value_or(p.default_value);
        defaulted.insert(p.name);
      }
  for (const auto& [name, value] : c.params) {
    const ParamSpec* p = workload.find_param(name);
    if (!p) fail(name, "not a parameter of " + workload.name());
    if (auto why = p->invalid_reason(value)) fail(name, *why);
  }
  for (const ParamSpec& p : workload.params()) {
    if (c.params.count(p.name)) continue;
    // A parameter added after the file was written: its absence means its absent value
    // (ParamSpec::absent_value, the value that computes what the file's config computed).
    if (p.absent_value) {
      c.params[p.name] = *p.absent_value;
      continue;
    }
    fail(p.name, "missing (a parameter of " + workload.name() + ")");
  }
  if (e.error != "InvalidConfig") {
    const Config config = to_config(c);
    if (auto why = workload.invalid_reason(config)) fail("", *why);
  }
}

/// Entry i of f as the row to store (checked against the schema). Throws std::runtime_error
/// "<file>: <problem>".
db::ImportedEntry row(const interop::KernelTunerFile& f, std::size_t i, const RowContext& x,
                      std::set<std::string>& defaulted) {
  interop::KernelTunerEntry e;
  try {
    e = f.entry(i);
    check_against_schema(x, e, defaulted);
  } catch (const std::invalid_argument& problem) {
    throw std::runtime_error(x.file + ": " + problem.what());
  } catch (const std::runtime_error& problem) {
    throw std::runtime_error(x.file + ": " + problem.what());
  }
  db::ImportedEntry r;
  r.where = std::move(e.where);
  r.config = std::move(e.config);
  r.config.board = x.board;
  // The texts of the configs row, made here on every core; the maps are freed here too.
  r.tunables_json = db::tunables_json(r.config.tunables);
  r.params_json = db::params_json(r.config.params);
  r.config.key = db::config_key(r.config, r.tunables_json, r.params_json);
  r.config.tunables.clear();
  r.config.params.clear();
  r.measurement.dataset = x.dataset;
  if (e.error == "InvalidConfig") {
    r.kind = db::ImportedEntry::Kind::pruned;
    r.message = "imported from " + x.file + ": InvalidConfig";
  } else if (!e.error.empty()) {
    r.kind = db::ImportedEntry::Kind::failed;
    r.failure_class = !e.failure_class.empty()               ? e.failure_class
                      : e.error == "CompilationFailedConfig" ? "compile"
                                                             : "runtime";
    r.message = "imported from " + x.file + ": " + e.error;
  } else {
    db::MeasurementRow& m = r.measurement;
    m.time_ms_median = m.time_ms_min = m.time_ms_max = e.time_ms;
    m.n_repeats = 1;
    m.ns_per_unit = 0;  // the work of the file's inputs is unknown
    for (const auto& [name, value] : e.observables) {
      if (name == "energy_mj")
        m.energy_mj = value;
      else if (x.metric_names.count(name))
        m.metrics[name] = value;
    }
  }
  return r;
}

/// The first entry: settles dataset, board and workload (x), then its row.
db::ImportedEntry first_row(const interop::KernelTunerFile& f, RowContext& x,
                            std::set<std::string>& defaulted) {
  interop::KernelTunerEntry e;
  try {
    e = f.entry(0);
  } catch (const std::invalid_argument& problem) {
    throw std::runtime_error(x.file + ": " + problem.what());
  }
  // A T4 file names no device: the file's stem tells its datasets apart (not one shared
  // "kernel_tuner:t4" for every T4 file).
  if (x.dataset.empty())
    x.dataset = "kernel_tuner:" + (f.header().device_name.empty()
                                       ? std::filesystem::path(x.file).stem().string()
                                       : f.header().device_name);
  x.board = resolve_board(x.board);
  const std::string& wl = e.config.workload;
  if (wl.empty())
    throw std::runtime_error(x.file +
                             ": the file names no workload (no \"flowtune\" object, no "
                             "kernel_name); give it with --workload");
  try {
    x.workload = &find_workload(wl);
  } catch (const std::invalid_argument& problem) {
    throw std::runtime_error(x.file + ": " + problem.what() +
                             " (give the workload with --workload)");
  }
  for (const MetricSpec& m : x.workload->metrics()) x.metric_names.insert(m.name);
  for (const Variant* v : x.workload->variants()) {
    VariantSchema& s = x.schemas[v];
    s.precisions = v->precisions();
    s.tunables = v->tunables();
    for (const TunableDomain& d : s.tunables) s.names.insert(d.name);
  }
  return row(f, 0, x, defaulted);
}

/// What one thread read: the first entry it found bad (its index, n when none) and the
/// parameters that took their defaults.
struct ThreadResult {
  std::size_t bad = 0;
  std::exception_ptr error;
  std::set<std::string> defaulted;
};

}  // namespace

ImportRows import_rows(const interop::KernelTunerFile& f, const std::string& file,
                       const std::string& board, const std::string& dataset, unsigned threads,
                       std::size_t block) {
  const std::size_t n = f.size();
  if (n == 0) throw std::runtime_error(file + ": no entry to import");
  RowContext x;
  x.file = file;
  x.board = board;
  x.dataset = dataset;
  ImportRows out;
  out.entries.resize(n);
  out.entries[0] = first_row(f, x, out.defaulted);

  // Blocks of entries 1..n-1 are handed out in file order; a thread stops at the first bad
  // entry of its block and no block starting after the first bad entry found so far is
  // read. Every block before the first bad entry is read whole, so the smallest bad index
  // over the threads is the file's first bad entry.
  block = std::max<std::size_t>(block, 1);
  if (threads == 0) threads = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, (n - 1 + block - 1) / block));
  std::atomic<std::size_t> next{1}, first_bad{n};
  std::vector<ThreadResult> results(std::max(threads, 1u));
  const auto work = [&](ThreadResult& r) {
    r.bad = n;
    for (;;) {
      const std::size_t begin = next.fetch_add(block);
      if (begin >= n || begin > first_bad.load()) return;
      for (std::size_t i = begin; i < std::min(n, begin + block); ++i) {
        try {
          out.entries[i] = row(f, i, x, r.defaulted);
        } catch (...) {
          r.bad = i;
          r.error = std::current_exception();
          std::size_t seen = first_bad.load();
          while (i < seen && !first_bad.compare_exchange_weak(seen, i)) {
          }
          return;
        }
      }
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work, std::ref(results[t]));
  work(results[0]);
  for (std::thread& t : pool) t.join();

  const ThreadResult* first = nullptr;
  for (const ThreadResult& r : results) {
    if (r.error && (!first || r.bad < first->bad)) first = &r;
    out.defaulted.insert(r.defaulted.begin(), r.defaulted.end());
  }
  const std::size_t end = first ? first->bad : n;
  // One measurement per config: the first entry measuring a config again, in file order.
  std::unordered_map<std::string_view, std::size_t> measured_at;
  measured_at.reserve(end);
  for (std::size_t i = 0; i < end; ++i) {
    const db::ImportedEntry& r = out.entries[i];
    if (r.kind != db::ImportedEntry::Kind::measured) continue;
    const auto [it, fresh] = measured_at.emplace(r.config.key, i);
    if (!fresh)
      throw std::runtime_error(file + ": " + r.where + ": the same config as " +
                               out.entries[it->second].where +
                               " (one measurement per config and dataset)");
  }
  if (first) std::rethrow_exception(first->error);
  out.workload = x.workload;
  out.board = x.board;
  out.dataset = x.dataset;
  return out;
}

}  // namespace flowtune::cli
