#include <iostream>

#include "boards/board.hpp"
#include "tuner/cli.hpp"
#include "tuner/cli_options.hpp"

namespace flowtune::cli {

int run_boards(const std::vector<std::string>& args) {
  if (args.empty()) {
    for (const std::string& name : list_boards()) {
      const Board b = load_board(name);
      std::cout << name << "\t" << (b.target == "cpu" ? std::string("cpu") : b.arch()) << "\t"
                << b.description << '\n';
    }
    return 0;
  }
  if (args[0] == "show" && args.size() == 2) {
    std::cout << format_board(load_board(resolve_board(args[1])));
    return 0;
  }
  throw UsageError("usage: tune boards [show NAME]");
}

}  // namespace flowtune::cli
