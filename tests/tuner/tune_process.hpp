// Runs the `tune` executable of this build (FLOWTUNE_TUNE_EXE) for the command-line tests.
#pragma once

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace flowtune::test {

/// Exit code and output of one `tune` command.
struct TuneResult {
  int exit_code;
  std::string output;  ///< stdout, and stderr too when with_stderr
};

/// Whether the `tune` executable of this build exists (absent where only the test binaries
/// were copied, e.g. onto the GPU machine without the build tree).
inline bool tune_exe_exists() {
  std::error_code ec;
  return std::filesystem::exists(FLOWTUNE_TUNE_EXE, ec);
}

/// Runs a shell command line; its exit code and stdout.
inline TuneResult run_shell(const std::string& cmd) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(cmd.c_str(), "r"), pclose);
  std::string out;
  std::array<char, 4096> buf{};
  while (std::fgets(buf.data(), int(buf.size()), pipe.get())) out += buf.data();
  const int status = pclose(pipe.release());
  return {WEXITSTATUS(status), out};
}

/// Runs `tune ARGS` through the shell (args are shell words); stderr is merged into the
/// output when with_stderr, else discarded (for JSON on stdout).
inline TuneResult run_tune(const std::string& args, bool with_stderr = true) {
  return run_shell(std::string(FLOWTUNE_TUNE_EXE) + " " + args +
                   (with_stderr ? " 2>&1" : " 2>/dev/null"));
}

}  // namespace flowtune::test
