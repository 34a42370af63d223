// Distributed tuning, the coordinator side (ARCHITECTURE.md "Scale-out"): the strategy's points
// are published as tasks in the store and their results read back from it; workers
// (tuner/store_worker.hpp) started here or by any launcher measure them.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "db/repository.hpp"
#include "tuner/store_worker.hpp"

namespace flowtune {

/// The GPUs a local worker may be pinned to: the entries of CUDA_VISIBLE_DEVICES when it is
/// set (empty when it is set to ""), else "0".."n-1" for the n GPUs NVML sees; empty on a
/// machine without GPU.
std::vector<std::string> visible_gpus();

/// Publishes points of one run and collects what the workers made of them. Local workers it
/// started get SIGTERM (they release their task) and are reaped when it is destroyed, and
/// die with the coordinator (PR_SET_PDEATHSIG); pending tasks are then cancelled.
class Dispatcher {
 public:
  /// repo: the coordinator's connection; storage: what workers open (the same database).
  Dispatcher(db::Repository& repo, std::int64_t run_id, std::string storage, double lease_s);
  ~Dispatcher();
  Dispatcher(const Dispatcher&) = delete;
  Dispatcher& operator=(const Dispatcher&) = delete;

  /// Starts n worker processes of this executable (`tune worker --storage S --run ID
  /// --lease-s L --store-retry-s R`, R this process's db::store_retry_limit_s()). With gpus
  /// non-empty, worker i gets CUDA_VISIBLE_DEVICES=gpus[i % size] (CUDA_DEVICE_ORDER=PCI_BUS_ID,
  /// and FLOWTUNE_NVML_INDEX for a numeric entry, so that its energy and clock readings are those
  /// of its GPU). Throws std::runtime_error when fork fails.
  void start_local_workers(int n, const std::vector<std::string>& gpus);
  /// Number of local workers started.
  std::size_t n_local() const { return local_.size(); }

  /// Publishes point (an index of the caller's space) as a task for config_key.
  void publish(std::size_t point, const std::string& config_key, const TaskRequest& task);
  /// Published tasks not finished yet.
  std::size_t outstanding() const { return point_of_.size(); }

  struct Finished {
    std::size_t point;
    db::TaskRow task;  ///< state "done" or "failed"
  };
  /// Waits (polling the store every poll_s) until at least one published task finished,
  /// and returns every one finished since the last call; returns what it has (maybe
  /// nothing) as soon as stop() is true. Throws std::runtime_error when local workers were
  /// started and all of them exited with tasks outstanding.
  std::vector<Finished> wait(const std::function<bool()>& stop, double poll_s = 0.05);

  /// Cancels the pending tasks (unless run_lost(): the run is another coordinator's now)
  /// and stops the local workers (SIGTERM, then reaped; also when cancelling throws the
  /// store's DbError, which is rethrown after them).
  void shut_down();
  /// Makes shut_down leave the run's tasks alone once run_lost() is true.
  void set_run_lost(std::function<bool()> run_lost) { run_lost_ = std::move(run_lost); }
  /// The longest task finished so far (claim to finish, store clock, s; 0 before any).
  double longest_task_s() const { return longest_task_s_; }

 private:
  db::Repository& repo_;
  std::int64_t run_id_;
  std::string storage_;
  double lease_s_;
  std::map<std::int64_t, std::size_t> point_of_;  ///< outstanding task id -> point
  std::vector<pid_t> local_;
  std::size_t n_exited_ = 0;
  std::function<bool()> run_lost_;
  double longest_task_s_ = 0;
};

}  // namespace flowtune
