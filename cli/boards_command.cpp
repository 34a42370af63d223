// `tune boards`: the board profiles (boards/*.toml), one line each, as JSON, or one in full.
#include <fstream>
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
    const std::string name = resolve_board(args[1]);
    std::cout << format_board(load_board(name));
    // The sources are the profile's comments (every figure cites its source there).
    const std::string file = name.size() > 5 && name.compare(name.size() - 5, 5, ".toml") == 0
                                 ? name
                                 : boards_dir() + "/" + name + ".toml";
    std::ifstream in(file);
    std::cout << "sources (the comments of " << file << "):\n";
    for (std::string line; std::getline(in, line);) {
      const std::size_t hash = line.find('#');
      const std::size_t text =
          hash == std::string::npos ? hash : line.find_first_not_of("# ", hash);
      if (text == std::string::npos) continue;
      const std::string key = line.substr(0, line.find_first_of(" =", 0));
      const std::string comment = line.substr(text);
      std::cout << "  " << (hash > 0 && !key.empty() ? key + ": " : "") << comment << '\n';
    }
    return 0;
  }
  throw UsageError("usage: tune boards [--json] | tune boards show NAME");
}

}  // namespace flowtune::cli
