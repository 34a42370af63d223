// `tune`: the flowtune command line (see tuner/cli.hpp and the README).
#include <string>
#include <vector>

#include "cli/cli.hpp"

int main(int argc, char** argv) {
  return flowtune::cli::run(std::vector<std::string>(argv + 1, argv + argc));
}
