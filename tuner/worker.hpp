// Fault isolation: configs are measured in a worker process (`tune worker`), so a kernel
// that faults (illegal address, a sticky CUDA error), crashes (SIGSEGV) or hangs costs that
// config only: the tuner records the failure, starts a fresh worker and goes on.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <deque>
#include <functional>
#include <string>

#include "db/repository.hpp"
#include "tuner/measure.hpp"
#include "variants/kernel_binary_cache.hpp"

namespace flowtune {

/// What the tuner asks a worker to measure: one config on one input set.
struct WorkerRequest {
  std::string board;     ///< board profile (the worker opens its energy sensor)
  db::ConfigRow config;  ///< key/label not needed
  InputOptions inputs;
  MeasureOptions measure;
};

/// The request as one JSON object {"board", "config", "inputs", "measure"}: the line a
/// worker process reads, and the body of a distributed task (db::TaskRow::request_json).
std::string worker_request_json(const WorkerRequest& request);
/// The "inputs" object of a request line, as JSON text (also the key of a worker's loaded
/// input sets).
std::string input_options_json(const InputOptions& inputs);
/// Inverse of worker_request_json; throws std::invalid_argument naming a missing or
/// malformed field.
WorkerRequest parse_worker_request(const std::string& text);

/// The outcome of one request (measure_config's).
using WorkerResult = MeasureResult;

/// The worker's loop (`tune worker`): reads one JSON request per line from stdin, answers
/// one JSON line on stdout (with "builds": this process's kernel build counts so far); keeps
/// loaded input sets between requests; shares kernels through $FLOWTUNE_KERNEL_STORE
/// (tuner/kernel_store.hpp). After a failed
/// request it exits with 3 (a CUDA context may be unusable after a fault), after EOF with 0.
/// Each request is measured by measure_config (tuner/measure.hpp).
int run_worker();

/// A worker process of the current executable, started on first use and restarted after
/// it died, hung or failed. It dies with its parent (PR_SET_PDEATHSIG). Not thread-safe.
class WorkerProcess {
 public:
  WorkerProcess() = default;
  ~WorkerProcess();
  WorkerProcess(const WorkerProcess&) = delete;
  WorkerProcess& operator=(const WorkerProcess&) = delete;

  /// Sends request and waits at most timeout_s seconds (<= 0: no limit) for the answer,
  /// polling stop_requested() every 100 ms (then the worker gets SIGTERM and the result is
  /// `cancelled`). A worker that dies or times out is killed, reaped and described in the
  /// result; the next call starts a new one. Throws std::runtime_error when no worker can be
  /// started (fork/exec failed).
  WorkerResult measure(const WorkerRequest& request, double timeout_s,
                       const std::function<bool()>& stop_requested);
  /// measure() in two halves, so that the caller works (builds the next point's kernels)
  /// while the worker measures: send() starts the worker if needed and hands it the request;
  /// it returns false (and fills *failure) when the request cannot be sent. send() may be
  /// called again before receive(): the worker reads its requests in order, so the next one
  /// waits in its pipe and starts the moment the one before is answered, whenever the caller
  /// collects that answer. receive() waits for the answer of the oldest request sent, as
  /// measure() does; its timeout counts from the later of its send() and the receipt of the
  /// answer before it. A worker that fails, dies, times out or is stopped loses the requests
  /// sent behind the one answered: outstanding() then drops to 0, and the caller sends them
  /// again (to a new worker). A send that finds the worker dead while older requests are
  /// outstanding returns false without a failure: their receive() tells what happened.
  bool send(const WorkerRequest& request, WorkerResult* failure);
  WorkerResult receive(double timeout_s, const std::function<bool()>& stop_requested);
  /// A request was sent and its answer not yet received.
  bool busy() const { return !sent_at_.empty(); }
  /// Requests sent to the running worker and not yet answered.
  std::size_t outstanding() const { return sent_at_.size(); }
  /// Seconds from the start of the request last received (the later of its send and the
  /// receipt of the answer before it) to the receipt of its answer.
  double last_wait_s() const { return last_wait_s_; }
  /// Pid of the running worker, or 0.
  pid_t pid() const { return pid_; }
  /// The kernel builds of every worker this object started (each answer carries its
  /// process's counts so far): compiles, local cache hits, store fetches.
  KernelBuildCounts kernel_builds() const;

 private:
  void start();
  void stop(int signal);
  pid_t pid_ = 0;
  int to_worker_ = -1, from_worker_ = -1;
  std::string pending_;  ///< bytes read past the last answer line
  /// When each outstanding request was sent, oldest first.
  std::deque<std::chrono::steady_clock::time_point> sent_at_;
  std::chrono::steady_clock::time_point answered_at_;  ///< receipt of the last answer
  double last_wait_s_ = 0;
  KernelBuildCounts child_builds_;  ///< the running worker's counts (its last answer)
  KernelBuildCounts past_builds_;   ///< the counts of the workers that ended
};

}  // namespace flowtune
