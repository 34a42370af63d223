// The constraint checks of a whole space computed ahead: NVRTC builds of upcoming points run
// in a thread pool while the GPU measures, so that building costs no measuring time.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <ostream>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "tuner/constraints.hpp"
#include "tuner/space.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// check_constraints() of the configs of a space, computed by `threads` background threads
/// ahead of the caller and on demand by get(). Each config is checked once (std::call_once);
/// nvrtc_build's cache makes configs that share a kernel build (configs differing only in
/// parameters such as iterations) share one compilation. With threads = 0 every check runs in
/// get(). Configs of a variant whose checks ignore the parameters
/// (Variant::checks_ignore_params) and that pass the workload's parameter checks share one
/// result per variant, precision and tunables. A space of up to kDenseChecks configs holds a
/// slot per config and its threads check every config in enumeration order; a larger one
/// (a generated space of ranges may hold 10^11) holds the checks asked for only, and its
/// threads check only what prefetch() names (the points a strategy expects to propose:
/// checking its ~10^4 kernel configs in enumeration order would take the cores from the
/// measuring for builds that are mostly never used). Prefetched points go before the
/// enumeration order in a small space too. The configs and board must outlive this object.
/// Not copyable.
class ConstraintChecks {
 public:
  /// source: where cuda kernel resources come from (ResourceSource::build: NVRTC, as a run
  /// does; table_or_build: the committed reports first, for `tune space` and `tune predict`).
  ConstraintChecks(const Board& board, const Workload& workload, const ConfigSpace& configs,
                   unsigned threads, ResourceSource source = ResourceSource::build);
  ~ConstraintChecks();
  /// The largest space whose checks are held per config (see the class comment).
  static constexpr std::size_t kDenseChecks = std::size_t(1) << 24;
  ConstraintChecks(const ConstraintChecks&) = delete;
  ConstraintChecks& operator=(const ConstraintChecks&) = delete;

  /// The check of configs[i], computing it now if no thread has started it, else waiting for
  /// it. An exception thrown by the check is rethrown by every get(i).
  const ConstraintCheck& get(std::size_t i);
  /// Asks the threads to check these configs next (before any not asked for), in this order;
  /// a config already checked or queued is skipped. Thread-safe; a no-op without threads.
  void prefetch(const std::vector<std::size_t>& points);
  /// Every check done (computed here and by the threads).
  /// Checks done so far (by the threads and by get()) and the time they took, summed over
  /// threads (seconds): mostly kernel builds (NVRTC, or its disk cache).
  struct Stats {
    std::size_t checked = 0;
    double seconds = 0;
  };
  Stats stats() const;
  /// Waits until every config is checked; with log, prints the count done, the elapsed
  /// time and an ETA every ~5% ("checking the space: 120/3168 configs (kernel builds) ...").
  void wait_all(std::ostream* log = nullptr);

 private:
  /// One config's check, computed once.
  struct Entry {
    std::once_flag once;
    std::shared_ptr<const ConstraintCheck> result;
    std::exception_ptr error;
  };
  Entry& entry(std::size_t i);
  void compute(std::size_t i, Entry& e);
  const Board& board_;
  const Workload& workload_;
  const ConfigSpace& configs_;
  ResourceSource source_;
  /// The shared result of configs[i]'s kernel config, computed once.
  std::shared_ptr<const ConstraintCheck> shared_check(const Variant& variant, const Config& config);
  std::mutex shared_mutex_;
  std::unordered_map<std::string, std::shared_ptr<const ConstraintCheck>> shared_;
  std::unique_ptr<Entry[]> dense_;  ///< a slot per config (spaces of <= kDenseChecks)
  std::mutex sparse_mutex_;
  std::unordered_map<std::size_t, std::unique_ptr<Entry>> sparse_;  ///< else per config asked
  /// The next config a thread checks: a prefetched one, else the next of the enumeration
  /// order (a small space), else nothing until prefetch() or the end (returns false).
  bool next_config(std::size_t* i);
  std::mutex queue_mutex_;
  std::condition_variable queue_ready_;
  std::deque<std::size_t> prefetched_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
  std::atomic<std::size_t> checked_{0};
  std::atomic<long long> check_us_{0};
};

}  // namespace flowtune
