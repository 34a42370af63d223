// Runs a reader in a forked child and reports what it threw, how long it took and the
// child's peak resident memory: the memory test of the decompression-bomb checks.
#pragma once

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>

namespace flowtune::test {

/// A /proc/self/status field in KiB (VmRSS, VmHWM, VmSize), -1 when absent.
inline long proc_status_kib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line))
    if (line.rfind(field + ":", 0) == 0) return std::atol(line.c_str() + field.size() + 1);
  return -1;
}

struct ChildReport {
  bool ran = false;       ///< the child reported back (did not crash)
  bool threw = false;     ///< fn threw a std::exception
  std::string message;    ///< its what()
  double seconds = 0;     ///< wall time of fn
  long peak_rss_kib = 0;  ///< the child's VmHWM after fn (peak reset just before fn)
  long rss_before_kib = 0;
};

/// Runs fn() in a forked child. The child resets its peak-RSS counter (/proc/self/clear_refs
/// "5", Linux >= 4.0), caps its address space at its current size + 1 GiB (so a regression
/// fails with bad_alloc instead of taking the machine's memory), runs fn and reports.
template <typename Fn>
ChildReport run_in_child(Fn fn) {
  int fds[2];
  ChildReport report;
  if (::pipe(fds) != 0) return report;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    { std::ofstream("/proc/self/clear_refs") << "5"; }
    const long before = proc_status_kib("VmRSS");
    rlimit cap{};
    cap.rlim_cur = cap.rlim_max = rlim_t(proc_status_kib("VmSize") + (1L << 20)) * 1024;
    ::setrlimit(RLIMIT_AS, &cap);
    bool threw = false;
    std::string message;
    const auto t0 = std::chrono::steady_clock::now();
    try {
      fn();
    } catch (const std::exception& e) {
      threw = true;
      message = e.what();
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::ostringstream out;
    out << threw << ' ' << seconds << ' ' << proc_status_kib("VmHWM") << ' ' << before << '\n'
        << message;
    const std::string text = out.str();
    std::size_t done = 0;
    while (done < text.size()) {
      const ssize_t n = ::write(fds[1], text.data() + done, text.size() - done);
      if (n <= 0) break;
      done += std::size_t(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) text.append(buf, std::size_t(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0 || text.empty()) return report;
  std::istringstream in(text);
  in >> report.threw >> report.seconds >> report.peak_rss_kib >> report.rss_before_kib;
  in.get();
  std::getline(in, report.message, '\0');
  report.ran = true;
  return report;
}

}  // namespace flowtune::test
