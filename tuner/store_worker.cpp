#include "tuner/store_worker.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <ostream>
#include <sstream>
#include <thread>
#include <vector>

#include "boards/board.hpp"
#include "boards/gpu_clocks.hpp"
#include "db/repository.hpp"
#include "db/store_url.hpp"
#include "tuner/kernel_store.hpp"
#include "tuner/tune_run.hpp"

namespace flowtune {
namespace {

std::atomic<bool> g_worker_stop{false};
extern "C" void on_store_worker_signal(int) {
  g_worker_stop = true;
}

std::string host_name() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : "unknown";
}

std::string pinned_gpu() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  return v ? std::string("CUDA_VISIBLE_DEVICES=") + v : std::string();
}

// Renews the worker's heartbeat and the lease of the task it holds every lease/3 seconds,
// from construction to destruction, on its own connection (a Repository is not
// thread-safe), so a slow measurement or a busy machine never loses the lease of a live
// worker.
class Heartbeat {
  // The heartbeat's own connection: a beat retries a busy store for one period at most (the
  // next beat tries again), so that the worker's end never waits for it longer.
  static db::Repository with_retry_limit(const std::string& storage, double seconds) {
    db::Repository repo(storage);
    repo.set_retry_limit_s(seconds);
    return repo;
  }

 public:
  Heartbeat(const std::string& storage, std::int64_t worker_id, double lease_s)
      : repo_(with_retry_limit(storage, lease_s / 3)), thread_([this, worker_id, lease_s] {
          std::unique_lock<std::mutex> lock(mutex_);
          while (!done_) {
            try {
              repo_.heartbeat(worker_id, repo_.store_now_s(), lease_s);
            } catch (const std::exception&) {
              // A busy store: the next beat retries; the lease has two more beats of slack.
            }
            cv_.wait_for(lock, std::chrono::duration<double>(lease_s / 3),
                         [this] { return done_; });
          }
        }) {}
  ~Heartbeat() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Heartbeat(const Heartbeat&) = delete;
  Heartbeat& operator=(const Heartbeat&) = delete;

 private:
  db::Repository repo_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  std::thread thread_;
};

// "claim latency: N claims, median X ms, p99 Y ms, max Z ms" (nearest-rank percentiles).
std::string claim_latency_text(std::vector<double> ms) {
  if (ms.empty()) return "no claim";
  std::sort(ms.begin(), ms.end());
  const auto rank = [&](double p) {
    return ms[std::min(ms.size() - 1, std::size_t(std::ceil(p * double(ms.size()))) - 1)];
  };
  std::ostringstream out;
  out.setf(std::ios::fixed);
  out.precision(2);
  out << "claim latency: " << ms.size() << " claims, median " << rank(0.5) << " ms, p99 "
      << rank(0.99) << " ms, max " << ms.back() << " ms";
  return out.str();
}

}  // namespace

int run_store_worker(const StoreWorkerOptions& options, std::ostream& log) {
  std::error_code ec;
  if (!db::is_postgresql_url(options.storage) && !std::filesystem::exists(options.storage, ec))
    throw std::runtime_error(options.storage +
                             ": no such database (a worker joins the store of a run; check "
                             "--storage)");
  db::Repository repo(options.storage);
  const std::int64_t me = repo.register_worker(options.run_id, host_name(), ::getpid(),
                                               pinned_gpu(), repo.store_now_s());
  const std::string who = "worker " + std::to_string(me) + " (pid " + std::to_string(::getpid()) +
                          (pinned_gpu().empty() ? "" : ", " + pinned_gpu()) + ")";
  log << who << ": run " << options.run_id << " on " << repo.path() << '\n';
  log << who << ": "
      << use_kernel_store(resolve_kernel_store(options.kernel_store, options.storage)) << '\n';
  g_worker_stop = false;
  const auto old_int = std::signal(SIGINT, on_store_worker_signal);
  const auto old_term = std::signal(SIGTERM, on_store_worker_signal);
  WorkerProcess measurer;
  int code = 0;
  std::vector<double> claim_ms;  // every claim transaction, the empty ones included
  std::size_t n_claimed = 0;
  const Heartbeat beat(options.storage, me, options.lease_s);
  try {
    while (!g_worker_stop) {
      const auto claim_start = std::chrono::steady_clock::now();
      const std::optional<db::TaskRow> task =
          repo.claim_task(options.run_id, me, repo.store_now_s(), options.lease_s);
      claim_ms.push_back(
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - claim_start)
              .count());
      if (task) ++n_claimed;
      if (!task) {
        if (repo.run(options.run_id).status != "running") break;
        std::this_thread::sleep_for(std::chrono::duration<double>(options.poll_s));
        continue;
      }
      TaskRequest t;
      db::ConfigRow row;
      try {
        t = parse_task_request(task->request_json);
        row = to_config_row(t.request.board, to_config(t.request.config));
      } catch (const std::exception& e) {
        log << who << ": task " << task->id << " is malformed (" << e.what() << ")\n";
        code = 1;
        break;
      }
      WorkerResult r;
      {
        const Board board = load_board(t.request.board);
        ClockGuard clock_guard(board, row.clock_mhz, t.allow_clock_control);
        r = measurer.measure(t.request, t.config_timeout_s, [] { return g_worker_stop.load(); });
        if (r.ok) {
          r.measurement.clock_mhz_observed = observed_gpu_clock_mhz(board);
          r.measurement.resources_json = t.resources_json;
        }
      }
      if (r.cancelled) {
        repo.release_task(task->id, me);
        break;
      }
      bool kept = false;
      if (r.ok) {
        r.measurement.run_id = task->run_id;
        r.measurement.dataset = t.dataset;
        kept = repo.finish_task_measured(task->id, me, row, r.measurement, repo.store_now_s());
      } else {
        kept = repo.finish_task_failed(task->id, me, row, t.dataset, r.failure_class, r.message,
                                       repo.store_now_s());
      }
      if (!kept) {
        const std::string status = repo.run(options.run_id).status;
        if (status != "running")
          log << who << ": run " << options.run_id << " ended (" << status << ") while task "
              << task->id << " (" << row.label << ") was measured; its result was dropped\n";
        else
          log << who << ": lost the lease of task " << task->id << " (" << row.label
              << "); its result was dropped, another worker measures it\n";
      }
    }
  } catch (const std::exception& e) {
    log << who << ": error: " << e.what() << '\n';
    code = 1;
  }
  std::signal(SIGINT, old_int);
  std::signal(SIGTERM, old_term);
  log << who << ": kernel builds: " << kernel_build_counts_text(measurer.kernel_builds()) << '\n';
  log << who << ": " << n_claimed << " task(s) claimed; " << claim_latency_text(claim_ms) << '\n';
  try {
    repo.end_worker(me);
  } catch (const std::exception&) {
  }
  return code;
}

}  // namespace flowtune
