// `tune import`: Kernel Tuner cache or T4 results into the DB (interop/kernel_tuner.hpp).
#include <fstream>
#include <iostream>
#include <set>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "interop/kernel_tuner.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune::cli {

int run_import(const std::vector<std::string>& args) {
  std::string file, board = "host", dataset, workload;
  StoreArgs store{"flowtune.db", ""};
  po::options_description desc = command_options("import options");
  desc.add_options()("file", po::value(&file)->required(),
                     "Kernel Tuner cache file or T4 results file")(
      "dataset", po::value(&dataset),
      "dataset key of the results (default: kernel_tuner:<device name of the file>)")(
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
  interop::KernelTunerImport imported;
  try {
    imported = interop::read_kernel_tuner_cache(in, io);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  if (imported.entries.empty()) throw std::runtime_error(file + ": no entry to import");
  if (dataset.empty())
    dataset =
        "kernel_tuner:" + (imported.device_name.empty() ? std::string("t4") : imported.device_name);
  board = resolve_board(board);
  db::Repository repo(db_path);
  const std::string wl = imported.entries.front().config.workload;
  const Workload* known = nullptr;
  try {
    known = &find_workload(wl);
    repo.record_workload(to_workload_row(*known));
  } catch (const std::exception&) {
  }
  std::set<std::string> metric_names;
  if (known)
    for (const MetricSpec& m : known->metrics()) metric_names.insert(m.name);
  db::RunInfo info;
  info.board = board;
  info.workload = wl;
  info.dataset = dataset;
  info.command = "tune import " + file;
  const std::int64_t run = repo.begin_run(info);
  std::size_t n_measured = 0, n_failed = 0, n_pruned = 0;
  for (const interop::KernelTunerEntry& e : imported.entries) {
    db::ConfigRow row = e.config;
    row.board = board;
    row.key = db::config_key(row);
    if (e.error == "InvalidConfig") {
      repo.record_pruned(run, row, "imported from " + file + ": InvalidConfig");
      ++n_pruned;
    } else if (!e.error.empty()) {
      const std::string cls = !e.failure_class.empty()               ? e.failure_class
                              : e.error == "CompilationFailedConfig" ? "compile"
                                                                     : "runtime";
      repo.record_failure(run, row, dataset, cls, "imported from " + file + ": " + e.error);
      ++n_failed;
    } else {
      db::MeasurementRow m;
      m.run_id = run;
      m.dataset = dataset;
      m.time_ms_median = m.time_ms_min = m.time_ms_max = e.time_ms;
      m.n_repeats = 1;
      m.ns_per_unit = 0;  // the work of the file's inputs is unknown
      for (const auto& [name, value] : e.observables) {
        if (name == "energy_mj")
          m.energy_mj = value;
        else if (metric_names.count(name))
          m.metrics[name] = value;
      }
      repo.record_measurement(row, m);
      ++n_measured;
    }
  }
  repo.end_run(run, "done");
  std::cout << "imported " << file << " into " << db_path << " (board " << board << ", dataset "
            << dataset << "): " << n_measured << " measured, " << n_failed << " failed, "
            << n_pruned << " pruned\n";
  return 0;
}

}  // namespace flowtune::cli
