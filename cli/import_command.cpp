// `tune import`: Kernel Tuner cache or T4 results into the DB (interop/kernel_tuner.hpp),
// every entry checked against the workload's schema, the whole file in one transaction.
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/import_rows.hpp"
#include "cli/options.hpp"
#include "db/repository.hpp"
#include "interop/kernel_tuner.hpp"
#include "select/config_rows.hpp"
#include "tuner/tune_run.hpp"
#include "variants/variant.hpp"
#include "workloads/workload.hpp"

namespace flowtune::cli {
namespace {

std::string joined(const std::set<std::string>& names) {
  std::string s;
  for (const std::string& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
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
  // Every entry is read, checked against the workload's schema and made the row to store on
  // every core; nothing is written before the whole file passed.
  std::optional<interop::KernelTunerFile> read;
  try {
    read.emplace(in, io);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(file + ": " + e.what());
  }
  const ImportRows rows = import_rows(*read, file, board, dataset);
  read.reset();  // the file's text
  const std::vector<db::ImportedEntry>& entries = rows.entries;
  board = rows.board;
  dataset = rows.dataset;
  const std::string wl = rows.workload->name();
  const Workload* known = rows.workload;
  const std::set<std::string>& defaulted = rows.defaulted;
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
    std::cout << "parameters the file does not give take their absent values (added later) or "
                 "defaults: "
              << joined(defaulted) << "\n";
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
