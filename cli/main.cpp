// `tune`: the flowtune command line (cli/cli.hpp and the README).
#include "cli/cli.hpp"

int main(int argc, char** argv) {
  return flowtune::cli::run(argc, argv);
}
