#include "tuner/worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "boards/board.hpp"
#include "boards/energy_sensor.hpp"
#include "kernels/cancellation.hpp"
#include "tuner/kernel_store.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {
namespace {

extern "C" void on_worker_signal(int) {
  cancellation_requested().store(true);
}

nlohmann::json builds_json(const KernelBuildCounts& c) {
  return {{"compiled", c.compiled},   {"local_hits", c.local_hits},
          {"fetched", c.fetched},     {"rejected", c.rejected},
          {"published", c.published}, {"store_errors", c.store_errors},
          {"compile_s", c.compile_s}, {"fetch_s", c.fetch_s}};
}

// A measurement's phases (MeasurePhases) as {"build": s, "first_run": s, ...}.
nlohmann::json phases_json(const MeasurePhases& p) {
  return {{"build", p.build_s},       {"first_run", p.first_run_s}, {"score", p.score_s},
          {"pictures", p.pictures_s}, {"warmup", p.warmup_s},       {"timed", p.timed_s},
          {"teardown", p.teardown_s}, {"protocol", p.protocol_s}};
}

MeasurePhases parse_phases(const nlohmann::json& j) {
  MeasurePhases p;
  p.build_s = j.value("build", 0.0);
  p.first_run_s = j.value("first_run", 0.0);
  p.score_s = j.value("score", 0.0);
  p.pictures_s = j.value("pictures", 0.0);
  p.warmup_s = j.value("warmup", 0.0);
  p.timed_s = j.value("timed", 0.0);
  p.teardown_s = j.value("teardown", 0.0);
  p.protocol_s = j.value("protocol", 0.0);
  return p;
}

KernelBuildCounts parse_builds(const nlohmann::json& j) {
  KernelBuildCounts c;
  c.compiled = j.value("compiled", std::uint64_t(0));
  c.local_hits = j.value("local_hits", std::uint64_t(0));
  c.fetched = j.value("fetched", std::uint64_t(0));
  c.rejected = j.value("rejected", std::uint64_t(0));
  c.published = j.value("published", std::uint64_t(0));
  c.store_errors = j.value("store_errors", std::uint64_t(0));
  c.compile_s = j.value("compile_s", 0.0);
  c.fetch_s = j.value("fetch_s", 0.0);
  return c;
}

std::string signal_text(int sig) {
  const char* name = strsignal(sig);
  return "signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
}

}  // namespace

int run_worker() {
  cancellation_requested().store(false);
  std::signal(SIGINT, on_worker_signal);
  std::signal(SIGTERM, on_worker_signal);
  std::map<std::string, std::unique_ptr<InputSet>> input_sets;  // by workload + inputs JSON
  std::unique_ptr<EnergySensor> sensor;
  std::string sensor_board;
  use_kernel_store_from_environment();
  for (std::string line; std::getline(std::cin, line);) {
    const auto request_start = std::chrono::steady_clock::now();
    nlohmann::json answer;
    bool failed = false;
    try {
      const WorkerRequest req = parse_worker_request(line);
      const Workload& workload = find_workload(req.config.workload);
      const std::string key = workload.name() + " " + input_options_json(req.inputs);
      if (!input_sets.count(key)) input_sets[key] = workload.load_inputs(req.inputs);
      if (req.board != sensor_board) {
        sensor = make_energy_sensor(load_board(req.board));
        sensor_board = req.board;
      }
      const MeasureResult r =
          measure_config(workload, req.config, *input_sets[key], sensor.get(), req.measure);
      if (r.ok) {
        answer = {{"ok", nlohmann::json::parse(db::measurement_json(r.measurement))}};
        // The request's wall time outside measure_config's own phases: decoding, the inputs'
        // look-up, the sensor and the measurement's encoding.
        MeasurePhases phases = r.phases;
        phases.protocol_s = std::max(
            0.0, std::chrono::duration<double>(std::chrono::steady_clock::now() - request_start)
                         .count() -
                     r.phases.total_s());
        answer["phases"] = phases_json(phases);
      } else if (r.cancelled) {
        answer = {{"cancelled", true}};
      } else {
        answer = {{"error", r.message}, {"class", r.failure_class}};
      }
      failed = !r.ok;
    } catch (const std::exception& e) {  // a malformed request, unloadable inputs
      answer = {{"error", e.what()}, {"class", classify_failure(e)}};
      failed = true;
    }
    answer["builds"] = builds_json(kernel_build_counters().get());  // this process's, so far
    std::cout << answer.dump() << std::endl;
    if (failed) return 3;  // a fault may leave the CUDA context unusable: start afresh
  }
  return 0;
}

WorkerProcess::~WorkerProcess() {
  if (pid_ > 0) stop(SIGTERM);
}

void WorkerProcess::start() {
  int in[2], out[2];
  if (pipe(in) != 0 || pipe(out) != 0)
    throw std::runtime_error(std::string("cannot create the worker's pipes: ") +
                             std::strerror(errno));
  const pid_t parent = getpid();
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0)
    throw std::runtime_error(std::string("cannot fork a worker: ") + std::strerror(errno));
  if (pid == 0) {
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(1);
    dup2(in[0], STDIN_FILENO);
    dup2(out[1], STDOUT_FILENO);
    close(in[0]);
    close(in[1]);
    close(out[0]);
    close(out[1]);
    char self[] = "/proc/self/exe";
    char worker[] = "worker";
    char* argv[] = {self, worker, nullptr};
    execv(self, argv);
    _exit(127);
  }
  close(in[0]);
  close(out[1]);
  fcntl(in[1], F_SETFD, FD_CLOEXEC);
  fcntl(out[0], F_SETFD, FD_CLOEXEC);
  pid_ = pid;
  to_worker_ = in[1];
  from_worker_ = out[0];
  pending_.clear();
}

void WorkerProcess::stop(int sig) {
  if (pid_ <= 0) return;
  // Its stdin closed first: an idle worker ends its request loop at once (end of file) instead
  // of waiting out the grace period below; a measuring one ends after the signal's cancellation.
  close(to_worker_);
  to_worker_ = -1;
  kill(pid_, sig);
  int status = 0;
  for (int i = 0; i < 50 && waitpid(pid_, &status, WNOHANG) == 0; ++i) usleep(20000);
  if (waitpid(pid_, &status, WNOHANG) == 0) {
    kill(pid_, SIGKILL);
    waitpid(pid_, &status, 0);
  }
  close(from_worker_);
  pid_ = 0;
  to_worker_ = from_worker_ = -1;
  past_builds_ += child_builds_;
  child_builds_ = {};
  sent_at_.clear();  // the requests behind the one answered are lost with the worker
}

KernelBuildCounts WorkerProcess::kernel_builds() const {
  KernelBuildCounts c = past_builds_;
  c += child_builds_;
  return c;
}

WorkerResult WorkerProcess::measure(const WorkerRequest& request, double timeout_s,
                                    const std::function<bool()>& stop_requested) {
  WorkerResult failure;
  if (!send(request, &failure)) return failure;
  return receive(timeout_s, stop_requested);
}

bool WorkerProcess::send(const WorkerRequest& request, WorkerResult* failure) {
  if (pid_ <= 0) start();
  const std::string line = worker_request_json(request) + "\n";
  std::signal(SIGPIPE, SIG_IGN);
  if (write(to_worker_, line.data(), line.size()) != static_cast<ssize_t>(line.size())) {
    if (!sent_at_.empty()) return false;  // the oldest one's receive() reads what happened
    stop(SIGKILL);
    *failure = WorkerResult{};
    failure->failure_class = "environment";
    failure->message = "cannot send the request to the worker";
    return false;
  }
  sent_at_.push_back(std::chrono::steady_clock::now());
  return true;
}

WorkerResult WorkerProcess::receive(double timeout_s, const std::function<bool()>& stop_requested) {
  if (sent_at_.empty()) throw std::logic_error("WorkerProcess::receive: no request was sent");
  WorkerResult result;
  using clock = std::chrono::steady_clock;
  // The worker starts a request when it has answered the one before (and the tuner has
  // read that answer no earlier than this).
  const auto start_time = std::max(sent_at_.front(), answered_at_);
  const auto answered = [&] {
    answered_at_ = clock::now();
    last_wait_s_ = std::chrono::duration<double>(answered_at_ - start_time).count();
  };
  for (;;) {
    const auto nl = pending_.find('\n');
    if (nl != std::string::npos) {
      const std::string text = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      if (text.empty() || text.front() != '{') {  // a library printed to stdout: pass it on
        std::cerr << "worker: " << text << '\n';
        continue;
      }
      const nlohmann::json answer = nlohmann::json::parse(text);
      sent_at_.pop_front();
      answered();
      if (answer.contains("builds")) child_builds_ = parse_builds(answer.at("builds"));
      if (answer.contains("ok")) {
        result.ok = true;
        result.measurement = db::parse_measurement_json(answer.at("ok").dump());
        if (answer.contains("phases")) result.phases = parse_phases(answer.at("phases"));
        return result;
      }
      stop(SIGTERM);  // the worker exits after a failure; reap it
      if (answer.contains("cancelled")) {
        result.cancelled = true;
        return result;
      }
      result.failure_class = answer.at("class").get<std::string>();
      result.message = answer.at("error").get<std::string>();
      return result;
    }
    if (stop_requested && stop_requested()) {
      answered();
      stop(SIGTERM);
      result.cancelled = true;
      return result;
    }
    const double elapsed = std::chrono::duration<double>(clock::now() - start_time).count();
    if (timeout_s > 0 && elapsed > timeout_s) {
      answered();
      stop(SIGKILL);
      result.failure_class = "timeout";
      result.message = "no result after " + std::to_string(int(timeout_s)) +
                       " s (--config-timeout-s); the worker was killed";
      return result;
    }
    pollfd p{from_worker_, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char buf[65536];
    const ssize_t n = read(from_worker_, buf, sizeof buf);
    if (n > 0) {
      pending_.append(buf, std::size_t(n));
      continue;
    }
    // EOF: the worker died (crash, abort, killed).
    answered();
    sent_at_.clear();
    int status = 0;
    waitpid(pid_, &status, 0);
    close(to_worker_);
    close(from_worker_);
    pid_ = 0;
    to_worker_ = from_worker_ = -1;
    past_builds_ += child_builds_;
    child_builds_ = {};
    result.failure_class = "runtime";
    result.message = WIFSIGNALED(status)
                         ? "worker died: " + signal_text(WTERMSIG(status))
                         : "worker exited with " + std::to_string(WEXITSTATUS(status));
    return result;
  }
}

}  // namespace flowtune
