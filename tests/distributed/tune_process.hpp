// Test helpers of tests/distributed: start the test build of `tune` (the fake measurer,
// tests/doubles) as a separate process, wait for it, read what it wrote.
#pragma once

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace flowtune::test {

/// Starts `tune args...` (FLOWTUNE_TEST_MEASURER_EXE) with extra environment variables;
/// stdout to out_path (if any), and then stderr to out_path.log. Returns its pid. With
/// own_group, the process leads a process group of its own (kill(-pid, SIGSTOP) then stops it
/// with its measuring process, as a hung host would).
inline pid_t spawn_tune(const std::vector<std::string>& args,
                        const std::map<std::string, std::string>& env,
                        const std::string& out_path = "", bool own_group = false) {
  const pid_t pid = fork();
  if (pid != 0) {
    if (own_group && pid > 0) setpgid(pid, pid);  // both sides: no race with exec
    return pid;
  }
  if (own_group) setpgid(0, 0);
  for (const auto& [k, v] : env) setenv(k.c_str(), v.c_str(), 1);
  if (!out_path.empty()) {
    if (!freopen(out_path.c_str(), "w", stdout)) _exit(126);
    if (!freopen((out_path + ".log").c_str(), "w", stderr)) _exit(126);
  }
  std::vector<std::string> all = {FLOWTUNE_TEST_MEASURER_EXE};
  all.insert(all.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : all) argv.push_back(a.data());
  argv.push_back(nullptr);
  execv(argv[0], argv.data());
  _exit(127);
}

/// The exit code of pid (128 + signal when killed); kills it and returns -1 after timeout.
inline int wait_exit(pid_t pid, std::chrono::seconds timeout = std::chrono::seconds(120)) {
  int status = 0;
  for (const auto t0 = std::chrono::steady_clock::now(); waitpid(pid, &status, WNOHANG) == 0;) {
    if (std::chrono::steady_clock::now() - t0 > timeout) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/// The whole text of a file ("" when absent).
inline std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// How often each config key was measured to its end, from the fake measurer's log
/// (FLOWTUNE_TEST_FAKE_MEASURE_LOG: "begin KEY" / "end KEY" lines).
inline std::map<std::string, int> measured_ends(const std::filesystem::path& log_path) {
  std::map<std::string, int> ends;
  std::ifstream log(log_path);
  for (std::string line; std::getline(log, line);)
    if (line.rfind("end ", 0) == 0) ++ends[line.substr(4)];
  return ends;
}

}  // namespace flowtune::test
