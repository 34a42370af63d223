// The `tune` command line as a library (flowtune_cli): cli/main.cpp is `tune`, and other
// executables (test binaries, a tune with extra workloads) run the same command line from a
// main of their own. The sub-commands are in cli/commands.hpp, their shared options in
// cli/options.hpp.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune::cli {

/// The whole command line: argv[1..argc) as `tune` takes them (argv[0], the program name, is
/// not read). Sub-commands: (none) tune, boards, space, params, search, replay, export,
/// import, report, run (alias flow), worker, status; `tune help` lists them. Errors are printed
/// as "tune: <message>" to stderr and give exit code 1 (2 for a usage error). Returns the exit
/// code for main to return.
int run(int argc, char** argv);

/// The same with the arguments after the program name.
int run(const std::vector<std::string>& args);

/// "0.1.0 (162ac4f)": the project version and the git revision it was built from.
std::string version();

/// Thrown for a bad command line (exit code 2).
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace flowtune::cli
