// `tune import`: Kernel Tuner cache or T4 results into the DB (interop/kernel_tuner.hpp),
// every entry checked against the workload's schema, the whole file in one transaction.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <unordered_map>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "interop/kernel_tuner.hpp"
#include "select/config_rows.hpp"
#include "tuner/tune_run.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {
namespace {

std::string joined(const std::vector<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

/// Checks e.config against workload's schema: a variant of the workload, one of its
/// precisions, exactly its tunables with values of their domains, known parameters in range
/// (rebuilt configs take the defaults of the parameters the file lacks, and lose the 0 of a
/// tunable of another variant that the flattening wrote). A pruned entry is
/// not held to the rules between parameters or the variant's own rules (they may be why it
/// was pruned). An exact config (a file flowtune wrote) may lack a tunable added to the
/// variant since it was recorded. Throws std::runtime_error "<where>, field '<f>': <problem>".
/// What check_against_schema needs of a variant, computed once per import (Variant's
/// precisions() and tunables() build their lists at each call).
struct VariantSchema {
  std::vector<std::string> precisions;
  std::vector<TunableDomain> tunables;
  std::set<std::string> names;  ///< of the tunables
};

void check_against_schema(const Workload& workload, interop::KernelTunerEntry& e,
                          std::set<std::string>& defaulted,
                          std::map<const Variant*, VariantSchema>& schemas) {
  db::ConfigRow& c = e.config;
  const auto fail = [&](const std::string& field, const std::string& problem) {
    throw std::runtime_error(e.where + (field.empty() ? "" : ", field '" + field + "'") + ": " +
                             problem);
  };
  if (c.workload != workload.name())
    fail("workload", "'" + c.workload + "' in a file of workload '" + workload.name() + "'");
  const Variant* v = find_workload_variant(workload, c.variant);
  if (!v) {
    std::vector<std::string> names;
    for (const Variant* x : workload.variants()) names.push_back(x->name());
    fail("variant", "'" + c.variant + "' is not a variant of " + workload.name() +
                        " in this build (known: " + joined(names) + ")");
  }
  auto schema = schemas.find(v);
  if (schema == schemas.end()) {
    schema = schemas.emplace(v, VariantSchema{v->precisions(), v->tunables(), {}}).first;
    for (const TunableDomain& d : schema->second.tunables) schema->second.names.insert(d.name);
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
      for (int x : d.values) values.push_back(std::to_string(x));
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
  if (!e.exact)
    for (const ParamSpec& p : workload.params())
      if (!c.params.count(p.name)) {
        c.params[p.name] = p.default_value;
        defaulted.insert(p.name);
      }
  for (const auto& [name, value] : c.params) {
    const ParamSpec* p = workload.find_param(name);
    if (!p) fail(name, "not a parameter of " + workload.name());
    if (auto why = p->invalid_reason(value)) fail(name, *why);
  }
  for (const ParamSpec& p : workload.params()) {
    if (c.params.count(p.name)) continue;
    // A parameter added after the file was written, whose absence means its default (its
    // spec says so): the config is the same point as with the default.
    if (p.absent_means_default) {
      c.params[p.name] = p.default_value;
      continue;
    }
    fail(p.name, "missing (a parameter of " + workload.name() + ")");
  }
  if (e.error != "InvalidConfig") {
    const Config config = to_config(c);
    if (auto why = workload.invalid_reason(config)) fail("", *why);
  }
}

}  // namespace

int run_import(const std::vector<std::string>& args) {
  std::string file, board = "host", dataset, workload;
  StoreArgs store{"flowtune.db", ""};
  po::options_description desc = command_options("import options");
  desc.add_options()("file", po::value(&file)->required(),
                     "Kernel Tuner cache file or T4 results file")(
      "dataset", po::value(&dataset),
      "dataset key of the results (default: kernel_tuner:<device name of the file>, or "
      "kernel_tuner:<file name without extension> for a file without one, e.g. T4)")(
      "workload", po::value(&workload),
      "workload of configs rebuilt from coordinates (default: the file's)");
  desc.add(board_options(board, "board the results belong to"))
      .add(store_options(store, "SQLite database (created if absent)"));
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (parse(args, desc, pos, vm, "tune import FILE --board B --db D [--dataset KEY]")) return 0;
  const std::string db_path = store_path(store, vm, "tune import");
  std::ifstream in(file);
  if (!in) throw std::runtime_error(file + ": cannot open");
  interop::KernelTunerImportOptions io;
  io.workload = workload;
  {  // a file without a "flowtune" object: the tunables are the names the variants tune
    std::set<std::string> names;
    for (const Workload* w : all_workloads())
      if (workload.empty() || w->name() == workload)
        for (const Variant* v : w->variants())
          for (const TunableDomain& d : v->tunables()) names.insert(d.name);
    io.tunable_names.assign(names.begin(), names.end());
  }
  // Each entry is checked against the workload's schema as the reader hands it over (the
  // file's header first: its device names the dataset, its first entry the workload), so
  // that only the rows to store are held; nothing is written before the whole file passed.
  std::string wl;
  const Workload* known = nullptr;
  std::set<std::string> metric_names, defaulted;
  std::map<const Variant*, VariantSchema> schemas;
  std::vector<db::ImportedEntry> entries;
  std::unordered_map<std::string, std::size_t> measured_at;  // config key -> its entry's index
  const auto take = [&](const interop::KernelTunerImport& header, interop::KernelTunerEntry&& e) {
    if (!known) {
      // A T4 file names no device: the file's stem tells its datasets apart (not one shared
      // "kernel_tuner:t4" for every T4 file).
      if (dataset.empty())
        dataset = "kernel_tuner:" + (header.device_name.empty()
                                         ? std::filesystem::path(file).stem().string()
                                         : header.device_name);
      board = resolve_board(board);
      wl = e.config.workload;
      if (wl.empty())
        throw std::runtime_error(file +
                                 ": the file names no workload (no \"flowtune\" object, no "
                                 "kernel_name); give it with --workload");
      try {
        known = &find_workload(wl);
      } catch (const std::invalid_argument& x) {
        throw std::runtime_error(file + ": " + x.what() + " (give the workload with --workload)");
      }
      for (const MetricSpec& m : known->metrics()) metric_names.insert(m.name);
    }
    try {
      check_against_schema(*known, e, defaulted, schemas);
    } catch (const std::runtime_error& x) {
      throw std::runtime_error(file + ": " + x.what());
    }
    db::ImportedEntry r;
    r.where = std::move(e.where);
    r.config = std::move(e.config);
    r.config.board = board;
    r.config.key = db::config_key(r.config);
    r.measurement.dataset = dataset;
    if (e.error == "InvalidConfig") {
      r.kind = db::ImportedEntry::Kind::pruned;
      r.message = "imported from " + file + ": InvalidConfig";
    } else if (!e.error.empty()) {
      r.kind = db::ImportedEntry::Kind::failed;
      r.failure_class = !e.failure_class.empty()               ? e.failure_class
                        : e.error == "CompilationFailedConfig" ? "compile"
                                                               : "runtime";
      r.message = "imported from " + file + ": " + e.error;
    } else {
      const auto [it, fresh] = measured_at.emplace(r.config.key, entries.size());
      if (!fresh)
        throw std::runtime_error(file + ": " + r.where + ": the same config as " +
                                 entries[it->second].where +
                                 " (one measurement per config and dataset)");
      db::MeasurementRow& m = r.measurement;
      m.time_ms_median = m.time_ms_min = m.time_ms_max = e.time_ms;
      m.n_repeats = 1;
      m.ns_per_unit = 0;  // the work of the file's inputs is unknown
      for (const auto& [name, value] : e.observables) {
        if (name == "energy_mj")
          m.energy_mj = value;
        else if (metric_names.count(name))
          m.metrics[name] = value;
      }
    }
    entries.push_back(std::move(r));
  };
  try {
    interop::read_kernel_tuner_entries(in, io, take);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  if (entries.empty()) throw std::runtime_error(file + ": no entry to import");
  db::Repository repo(db_path);
  repo.record_workload(to_workload_row(*known));
  db::RunInfo info;
  info.board = board;
  info.workload = wl;
  info.dataset = dataset;
  info.command = "tune import " + file;
  db::ImportOutcome done;
  try {
    done = repo.record_import(info, entries);
  } catch (const db::DbError& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  if (!defaulted.empty())
    std::cout << "parameters the file does not give take their defaults: "
              << joined(std::vector<std::string>(defaulted.begin(), defaulted.end())) << "\n";
  if (done.run_id == 0) {
    std::cout << file << " is in " << repo.path() << " already (board " << board << ", dataset "
              << dataset << ", " << done.already << " entries): nothing imported\n";
    return 0;
  }
  std::cout << "imported " << file << " into " << repo.path() << " (board " << board << ", dataset "
            << dataset << "): " << done.measured << " measured, " << done.failed << " failed, "
            << done.pruned << " pruned";
  if (done.already) std::cout << " (" << done.already << " entries were there already)";
  std::cout << "\n";
  return 0;
}

}  // namespace flowtune::cli
