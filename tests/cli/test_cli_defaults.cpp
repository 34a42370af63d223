// Defaults in every sub-command's --help print as written (0.05, not 0.050000000000000003).
#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <memory>
#include <regex>
#include <string>

#include "tests/tuner/tune_process.hpp"

namespace flowtune {
namespace {

std::string help_of(const std::string& sub) {
  return test::run_tune(sub + " --help").output;
}

TEST(CliDefaults, NoBinaryFloatingPointNoiseInHelp) {
  const std::regex noise("[0-9]\\.[0-9]*(0000000|9999999)[0-9]");
  for (const char* sub : {"", "space", "search", "replay", "export", "report", "flow", "import",
                          "params", "worker", "status"}) {
    const std::string help = help_of(sub);
    EXPECT_NE(help.find("--help"), std::string::npos) << sub;
    std::smatch m;
    EXPECT_FALSE(std::regex_search(help, m, noise)) << "tune " << sub << ": " << m.str();
  }
}

}  // namespace
}  // namespace flowtune
