// Fuzz harness: the command-line parser of `tune` (cli/options.cpp: Boost
// program_options with the option groups, --max-METRIC, --param lists and ranges, integer
// lists, constraints). The input is split at newlines into arguments. Every outcome must be a
// parsed command or a UsageError; a hang (Boost 1.74 formats some errors in a loop that never
// ends) is caught by libFuzzer's -timeout, a crash or sanitizer report is a finding.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/cli.hpp"
#include "cli/options.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace cli = flowtune::cli;
  std::vector<std::string> args(1);
  for (std::size_t i = 0; i < size && args.size() <= 64; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      args.emplace_back();
    } else if (args.back().size() < 256) {
      args.back() += c;
    }
  }
  cli::SpaceArgs space;
  cli::StoreArgs store{"flowtune.db", ""};
  cli::InputArgs input;
  cli::SelectionArgs selection;
  flowtune::MeasureOptions measure;
  std::string board = "host";
  long long evals = 0;
  bool flag = false;
  std::vector<std::string> inputs;
  cli::po::options_description desc = cli::command_options("fuzz");
  desc.add_options()("max-evals", cli::po::value(&evals), "evals")(
      "in-process", cli::po::bool_switch(&flag), "flag")(
      "inputs", cli::po::value(&inputs)->composing(), "positional");
  desc.add(cli::board_options(board))
      .add(cli::store_options(store, "db"))
      .add(cli::input_options(input))
      .add(cli::space_options(space))
      .add(cli::measure_options(measure))
      .add(cli::selection_options(selection));
  cli::po::positional_options_description pos;
  pos.add("inputs", -1);
  cli::po::variables_map vm;
  try {
    (void)cli::parse(cli::expand_max_options(args, desc), desc, pos, vm, "tune [options]");
    (void)cli::store_path(store, vm, "tune");
    cli::check_measure_options(measure);
    (void)input.to_input_options();
    (void)selection.constraints();
  } catch (const cli::UsageError&) {
    return 0;
  }
  for (const std::string& p : space.params) {
    const auto eq = p.find('=');
    try {
      (void)cli::parse_param_values(p.substr(0, eq), eq == std::string::npos ? p : p.substr(eq + 1),
                                    p.size() % 2 == 0);
    } catch (const cli::UsageError&) {
    }
  }
  for (const std::string& t : space.tunables) {
    try {
      (void)cli::parse_int_list("tunable", t);
    } catch (const cli::UsageError&) {
    }
  }
  return 0;
}
