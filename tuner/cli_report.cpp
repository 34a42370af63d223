#include <filesystem>
#include <fstream>
#include <iostream>

#include "db/repository.hpp"
#include "interop/kernel_tuner.hpp"
#include "reports/export_header.hpp"
#include "reports/report.hpp"
#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"

namespace flowtune::cli {

namespace fs = std::filesystem;

int run_export(const std::vector<std::string>& args) {
  std::string board = "host", db_path = "flowtune.db", objective = "time", out, dataset,
              format = "header";
  po::options_description desc("export options");
  desc.add_options()("help,h", "this help")("board", po::value(&board)->default_value(board),
                                            "board whose measurements to export")(
      "db", po::value(&db_path)->default_value(db_path), "SQLite database")(
      "dataset", po::value(&dataset),
      "dataset key (default: the board's dataset with the most measurements)")(
      "objective", po::value(&objective)->default_value(objective),
      "time | energy | a metric of the workload (`tune params` lists them)")(
      "format", po::value(&format)->default_value(format),
      "header (the tuned header) | t4 (T4 results, schema 1.0.0) | kt-cache (Kernel Tuner "
      "cache file, which its simulation mode replays); see interop/KERNEL_TUNER.md")(
      "output,o", po::value(&out)->required(), "file to write (folders created)");
  po::variables_map vm;
  if (parse(args, desc, {}, vm,
            "tune export --board B --objective time|energy|METRIC -o tuned.h\n"
            "       tune export --board B --format t4|kt-cache -o space.json"))
    return 0;
  if (format != "header" && format != "t4" && format != "kt-cache")
    throw UsageError("--format: '" + format + "' is not header, t4 or kt-cache");
  const db::Repository repo(db_path, db::OpenMode::read_only);
  if (format != "header") {
    interop::KernelTunerExportOptions ko;
    ko.format = format == "t4" ? interop::KernelTunerFormat::t4 : interop::KernelTunerFormat::cache;
    const fs::path path(out);
    if (path.has_parent_path()) fs::create_directories(path.parent_path());
    std::ofstream file(out);
    if (!file) throw std::runtime_error(out + ": cannot open for writing");
    const interop::KernelTunerExportSummary sum =
        interop::write_kernel_tuner_cache(file, repo, resolve_board(board), dataset, ko);
    file.close();
    if (!file) throw std::runtime_error(out + ": write failed");
    std::cout << "wrote " << out << " (" << format << "): dataset " << sum.dataset << ", "
              << sum.measured << " measured, " << sum.failed << " failed, " << sum.pruned
              << " pruned; optimum " << sum.best_time_ms << " ms\n";
    return 0;
  }
  reports::export_tuned_header(repo, resolve_board(board), objective, out, dataset);
  std::cout << "wrote " << out << '\n';
  return 0;
}

int run_report(const std::vector<std::string>& args) {
  std::string board = "host", db_path = "flowtune.db", out;
  po::options_description desc("report options");
  desc.add_options()("help,h", "this help")("board", po::value(&board)->default_value(board),
                                            "board to report on")(
      "db", po::value(&db_path)->default_value(db_path), "SQLite database")(
      "output,o", po::value(&out)->required(), "output folder");
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune report --board B -o DIR")) return 0;
  const db::Repository repo(db_path, db::OpenMode::read_only);
  reports::write_report(repo, resolve_board(board), out);
  std::cout << "wrote the report of board " << board << " to " << out << '\n';
  return 0;
}

}  // namespace flowtune::cli
