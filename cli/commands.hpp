// The sub-commands of `tune`, one per file (cli/<name>_command.cpp): each takes the arguments
// after its name and returns the exit code; cli::run (cli/cli.cpp) picks one. They throw
// UsageError for a bad command line and other exceptions for errors (cli::run prints both).
#pragma once

#include <string>
#include <vector>

namespace flowtune::cli {

/// `tune [tune] [options]`: tunes a workload on a board, stores every result, prints the
/// Pareto front (cli/tune_command.cpp).
int run_tune(const std::vector<std::string>& args);
/// `tune boards [--json] | boards show NAME`: the board profiles (cli/boards_command.cpp).
int run_boards(const std::vector<std::string>& args);
/// `tune space`: the space of a board with the reason of every pruned config
/// (cli/space_command.cpp).
int run_space(const std::vector<std::string>& args);
/// `tune predict`: the model's prediction for a board (cli/predict_command.cpp).
int run_predict(const std::vector<std::string>& args);
/// `tune export`: the config selected from the store as a tuned header or for Kernel Tuner
/// (cli/export_command.cpp).
int run_export(const std::vector<std::string>& args);
/// `tune report`: the Pareto report of a board from the store, optionally a selected config
/// (cli/report_command.cpp).
int run_report(const std::vector<std::string>& args);
/// `tune run` / `tune flow`: one config on files given on the command line
/// (cli/flow_command.cpp).
int run_flow(const std::vector<std::string>& args);
/// `tune stream`: one config over a stream of frames, the time per frame in steady state
/// (cli/stream_command.cpp).
int run_stream(const std::vector<std::string>& args);
/// `tune params`: the parameter schema of each workload (cli/params_command.cpp).
int run_params(const std::vector<std::string>& args);
/// `tune search`: grid + refinement search of real parameters, held out
/// (cli/search_command.cpp).
int run_search(const std::vector<std::string>& args);
/// `tune replay`: strategies replayed on a recorded run (cli/replay_command.cpp).
int run_replay(const std::vector<std::string>& args);
/// `tune import`: Kernel Tuner cache or T4 results into the store (cli/import_command.cpp).
int run_import(const std::vector<std::string>& args);
/// `tune worker`: the internal measuring process without arguments, else a distributed worker
/// (cli/worker_command.cpp).
int run_worker_command(const std::vector<std::string>& args);
/// `tune status`: the tasks and workers of distributed runs (cli/status_command.cpp).
int run_status(const std::vector<std::string>& args);

}  // namespace flowtune::cli
