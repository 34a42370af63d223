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
#include "db/host_name.hpp"
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

std::string pinned_gpu() {
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  return v ? std::string("CUDA_VISIBLE_DEVICES=") + v : std::string();
}

// Renews the worker's heartbeat and the lease of the task it holds every lease/3 seconds,
// from construction to destruction, on its own connection (a Repository is not
// thread-safe), so a slow measurement or a busy machine never loses the lease of a live
// worker. The lease tracks progress, not the process: past the renew-until time the main
// thread sets for its task (its progress deadline plus one lease), the beats keep the worker
// alive but no longer renew the task, whose lease then runs out for another worker.
class Heartbeat {
  // The heartbeat's own connection: a beat retries a busy store for one period at most (the
  // next beat tries again), so that the worker's end never waits for it longer.
  static db::Repository with_retry_limit(const std::string& storage, double seconds) {
    db::Repository repo(storage);
    repo.set_retry_limit_s(seconds);
    return repo;
  }

 public:
  using Clock = std::chrono::steady_clock;

  Heartbeat(const std::string& storage, std::int64_t worker_id, double lease_s)
      : repo_(with_retry_limit(storage, lease_s / 3)), thread_([this, worker_id, lease_s] {
          std::unique_lock<std::mutex> lock(mutex_);
          while (!done_) {
            try {
              const bool renew = Clock::now() < renew_until_;
              repo_.heartbeat(worker_id, repo_.store_now_s(), lease_s, renew);
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

  /// The task in hand has its lease renewed for seconds from now (< 0: without limit).
  void renew_for(double seconds) {
    std::lock_guard<std::mutex> lock(mutex_);
    renew_until_ = seconds < 0 ? Clock::time_point::max()
                               : Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                                    std::chrono::duration<double>(seconds));
  }

 private:
  db::Repository repo_;
  std::mutex mutex_;
  std::condition_variable cv_;
  bool done_ = false;
  Clock::time_point renew_until_ = Clock::time_point::max();
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

std::string seconds_text(double s) {
  std::ostringstream out;
  out << s;
  return out.str();
}

// While nothing is left to claim: false (stop) once the run's coordinator has been gone for
// longer than options.coordinator_wait_s; gone_since tracks since when (this host's steady
// clock), with one line on log when it goes and when it comes back.
struct GoneSince {
  bool gone = false;
  std::chrono::steady_clock::time_point since{};
};

bool coordinator_away(const std::string& who, const db::RunRow& run,
                      const StoreWorkerOptions& options, GoneSince& gone_since, std::ostream& log) {
  const auto now = std::chrono::steady_clock::now();
  if (run.coordinator_alive) {
    if (gone_since.gone) log << who << ": run " << run.id << " has a coordinator again\n";
    gone_since.gone = false;
    return true;
  }
  if (!gone_since.gone) {
    gone_since = {true, now};
    log << who << ": the coordinator of run " << run.id
        << " is gone; this worker measures what is published and waits up to "
        << seconds_text(options.coordinator_wait_s)
        << " s (--coordinator-wait-s) for `tune` with the run's command to resume it\n";
  }
  if (std::chrono::duration<double>(now - gone_since.since).count() <= options.coordinator_wait_s)
    return true;
  log << who << ": run " << run.id << " has had no coordinator for "
      << seconds_text(options.coordinator_wait_s)
      << " s (--coordinator-wait-s); stopping. `tune` with the run's command resumes the run "
         "while a worker of it lives, or else begins a new run; then start workers for it\n";
  return false;
}

}  // namespace

double progress_deadline_s(double option, double longest_task_s) {
  if (option >= 0) return option;
  return std::max(kAutoProgressDeadlineFloorS, kAutoProgressDeadlineFactor * longest_task_s);
}

int run_store_worker(const StoreWorkerOptions& options, std::ostream& log) {
  std::error_code ec;
  if (!db::is_postgresql_url(options.storage) && !std::filesystem::exists(options.storage, ec))
    throw std::runtime_error(options.storage +
                             ": no such database (a worker joins the store of a run; check "
                             "--storage)");
  db::Repository repo(options.storage);
  const std::int64_t me = repo.register_worker(options.run_id, db::host_name(), ::getpid(),
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
  Heartbeat beat(options.storage, me, options.lease_s);
  GoneSince coordinator_gone_since;
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
        const db::RunRow run = repo.run(options.run_id);
        if (run.status != "running") break;
        if (!coordinator_away(who, run, options, coordinator_gone_since, log)) {
          code = 1;
          break;
        }
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
        // The progress deadline stops a measurement that hangs while this process lives; its
        // heartbeat renews the point's lease for one lease more at most (if this thread
        // itself hangs, another worker then claims the point).
        const double deadline = t.progress_deadline_s;
        const bool deadline_binds =
            deadline > 0 && (t.config_timeout_s <= 0 || deadline < t.config_timeout_s);
        beat.renew_for(deadline > 0 ? deadline + options.lease_s : -1);
        r = measurer.measure(t.request, deadline_binds ? deadline : t.config_timeout_s,
                             [] { return g_worker_stop.load(); });
        beat.renew_for(-1);
        if (!r.ok && !r.cancelled && deadline_binds && r.failure_class == "timeout")
          r.message = "no result within the progress deadline of " + seconds_text(deadline) +
                      " s (tune --progress-deadline-s): the measurement hung while its worker "
                      "lived; the measuring process was killed";
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
