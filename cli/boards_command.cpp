// `tune boards`: the board profiles (boards/*.toml), one line each, as JSON, or one in full.
#include <iostream>
#include <nlohmann/json.hpp>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace flowtune::cli {

int run_boards(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << "tune boards [--json]        the board profiles (name, arch, description)\n"
                 "tune boards show NAME|auto  one profile, with its sources\n";
    return 0;
  }
  if (args.size() == 1 && args[0] == "--json") {
    nlohmann::json out = nlohmann::json::array();
    for (const std::string& name : list_boards()) {
      const Board b = load_board(name);
      out.push_back({{"name", name},
                     {"target", b.target},
                     {"arch", b.target == "cpu" ? std::string("cpu") : b.arch()},
                     {"description", b.description}});
    }
    std::cout << out.dump(1) << '\n';
    return 0;
  }
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
  throw UsageError("usage: tune boards [--json] | tune boards show NAME");
}

}  // namespace flowtune::cli
