#include <iostream>

#include "db/repository.hpp"
#include "reports/export_header.hpp"
#include "reports/report.hpp"
#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"

namespace flowtune::cli {

int run_export(const std::vector<std::string>& args) {
  std::string board = "host", db_path = "flowtune.db", objective = "time", out, dataset;
  po::options_description desc("export options");
  desc.add_options()("help,h", "this help")("board", po::value(&board)->default_value(board),
                                            "board whose measurements to export")(
      "db", po::value(&db_path)->default_value(db_path), "SQLite database")(
      "dataset", po::value(&dataset),
      "dataset key (default: the board's dataset with the most measurements)")(
      "objective", po::value(&objective)->default_value(objective),
      "time | energy | a metric of the workload (`tune params` lists them)")(
      "output,o", po::value(&out)->required(), "header file to write (folders created)");
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune export --board B --objective time|energy|METRIC -o tuned.h"))
    return 0;
  const db::Repository repo(db_path, db::OpenMode::read_only);
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
