// The `tune` command line: one function per sub-command, each returning the exit code.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune::cli {

/// Entry point: args without the program name. Sub-commands: (none) tune, boards, space,
/// params, search, replay, export, import, report, run (alias flow), worker, status; `tune help`
/// lists them. Errors are printed as "tune: <message>" to stderr and give exit code 1 (2 for a
/// usage error).
int run(const std::vector<std::string>& args);

/// "0.1.0 (162ac4f)": the project version and the git revision it was built from.
std::string version();

int run_tune(const std::vector<std::string>& args);
int run_boards(const std::vector<std::string>& args);
int run_space(const std::vector<std::string>& args);
int run_export(const std::vector<std::string>& args);
int run_report(const std::vector<std::string>& args);
int run_flow(const std::vector<std::string>& args);
int run_params(const std::vector<std::string>& args);
int run_search(const std::vector<std::string>& args);
int run_replay(const std::vector<std::string>& args);
int run_import(const std::vector<std::string>& args);
/// `tune worker`: the internal measuring process without arguments, else a distributed worker.
int run_worker_command(const std::vector<std::string>& args);
int run_status(const std::vector<std::string>& args);

/// Thrown for a bad command line (exit code 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace flowtune::cli
