#include "tuner/dispatch.hpp"

#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "boards/nvml.hpp"
#include "db/store_url.hpp"

namespace flowtune {
namespace {

bool is_number(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isdigit(c) != 0; });
}

}  // namespace

std::vector<std::string> visible_gpus() {
  std::vector<std::string> out;
  if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES")) {
    std::stringstream ss(env);
    for (std::string s; std::getline(ss, s, ',');)
      if (!s.empty()) out.push_back(s);
    return out;
  }
  for (unsigned int i = 0; i < Nvml::device_count(); ++i) out.push_back(std::to_string(i));
  return out;
}

Dispatcher::Dispatcher(db::Repository& repo, std::int64_t run_id, std::string storage,
                       double lease_s)
    : repo_(repo), run_id_(run_id), storage_(std::move(storage)), lease_s_(lease_s) {}

Dispatcher::~Dispatcher() {
  try {
    shut_down();
  } catch (...) {
  }
}

void Dispatcher::start_local_workers(int n, const std::vector<std::string>& gpus) {
  const std::string run = std::to_string(run_id_);
  std::ostringstream lease;
  lease << lease_s_;
  const std::string lease_text = lease.str();
  std::ostringstream retry;  // formatted before fork: the child only calls execv-safe code
  retry << db::store_retry_limit_s();
  const std::string retry_text = retry.str();
  for (int i = 0; i < n; ++i) {
    const std::string gpu = gpus.empty() ? "" : gpus[std::size_t(i) % gpus.size()];
    const pid_t parent = ::getpid();
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("cannot fork a worker: ") + strerror(errno));
    if (pid == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (::getppid() != parent) _exit(1);
      ::signal(SIGINT, SIG_IGN);  // a Ctrl-C stops the coordinator, which stops its workers
      if (!gpu.empty()) {
        ::setenv("CUDA_VISIBLE_DEVICES", gpu.c_str(), 1);
        ::setenv("CUDA_DEVICE_ORDER", "PCI_BUS_ID", 1);
        if (is_number(gpu)) ::setenv("FLOWTUNE_NVML_INDEX", gpu.c_str(), 1);
      }
      // The password goes through the environment (libpq's PGPASSWORD, readable by this user
      // only), never the arguments that `ps` shows to everyone.
      const std::string password = db::store_url_password(storage_);
      if (!password.empty()) ::setenv("PGPASSWORD", password.c_str(), 1);
      std::vector<std::string> args = {
          "/proc/self/exe",  "worker",  "--storage", db::redact_store_url(storage_),
          "--run",           run,       "--lease-s", lease_text,
          "--store-retry-s", retry_text};
      std::vector<char*> argv;
      for (std::string& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      ::execv(argv[0], argv.data());
      _exit(127);
    }
    local_.push_back(pid);
  }
}

void Dispatcher::publish(std::size_t point, const std::string& config_key,
                         const TaskRequest& task) {
  const std::int64_t id =
      repo_.publish_task(run_id_, config_key, task_request_json(task), repo_.store_now_s());
  point_of_[id] = point;
}

std::vector<Dispatcher::Finished> Dispatcher::wait(const std::function<bool()>& stop,
                                                   double poll_s) {
  std::vector<Finished> out;
  while (!point_of_.empty()) {
    // Tasks finish in any order: read from the oldest outstanding one on.
    for (db::TaskRow& t : repo_.finished_tasks(run_id_, point_of_.begin()->first - 1)) {
      const auto it = point_of_.find(t.id);
      if (it == point_of_.end()) continue;
      if (t.claimed_s > 0 && t.finished_s > t.claimed_s)
        longest_task_s_ = std::max(longest_task_s_, t.finished_s - t.claimed_s);
      out.push_back({it->second, std::move(t)});
      point_of_.erase(it);
    }
    if (!out.empty() || (stop && stop())) break;
    for (pid_t& pid : local_) {
      int status = 0;
      if (pid > 0 && ::waitpid(pid, &status, WNOHANG) == pid) {
        pid = -pid;  // reaped; kept (negated) for the count
        ++n_exited_;
      }
    }
    if (!local_.empty() && n_exited_ == local_.size())
      throw std::runtime_error("all " + std::to_string(local_.size()) +
                               " local workers exited with " + std::to_string(point_of_.size()) +
                               " task(s) unfinished (their messages are above)");
    std::this_thread::sleep_for(std::chrono::duration<double>(poll_s));
  }
  return out;
}

void Dispatcher::shut_down() {
  // The local workers are stopped and reaped even when the store fails here (then the error
  // goes on after them), so that the run's end can sign them off.
  std::exception_ptr store_error;
  try {
    if (!run_lost_ || !run_lost_()) repo_.cancel_pending_tasks(run_id_);
  } catch (...) {
    store_error = std::current_exception();
  }
  for (pid_t pid : local_)
    if (pid > 0) ::kill(pid, SIGTERM);
  for (pid_t& pid : local_) {
    if (pid <= 0) continue;
    int status = 0;
    ::waitpid(pid, &status, 0);
    pid = -pid;
    ++n_exited_;
  }
  if (store_error) std::rethrow_exception(store_error);
}

}  // namespace flowtune
