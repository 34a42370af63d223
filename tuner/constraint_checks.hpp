// The constraint checks of a whole space computed ahead: NVRTC builds of upcoming points run
// in a thread pool while the GPU measures (issue: cheaper measurement).
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "tuner/constraints.hpp"
#include "workloads/workload.hpp"

namespace flowtune {

/// check_constraints() of every config of a space, computed by `threads` background threads
/// in enumeration order and on demand by get(). Each config is checked once (std::call_once);
/// nvrtc_build's cache makes configs that share a kernel build (configs differing only in
/// parameters such as iterations) share one compilation. With threads = 0 every check runs in
/// get(). The configs and board must outlive this object. Not copyable.
class ConstraintChecks {
 public:
  ConstraintChecks(const Board& board, const Workload& workload, const std::vector<Config>& configs,
                   unsigned threads);
  ~ConstraintChecks();
  ConstraintChecks(const ConstraintChecks&) = delete;
  ConstraintChecks& operator=(const ConstraintChecks&) = delete;

  /// The check of configs[i], computing it now if no thread has started it, else waiting for
  /// it. An exception thrown by the check is rethrown by every get(i).
  const ConstraintCheck& get(std::size_t i);
  /// Every check done (computed here and by the threads).
  void wait_all();

 private:
  void compute(std::size_t i);
  const Board& board_;
  const Workload& workload_;
  const std::vector<Config>& configs_;
  std::vector<ConstraintCheck> results_;
  std::vector<std::exception_ptr> errors_;
  std::unique_ptr<std::once_flag[]> once_;
  std::atomic<std::size_t> next_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

}  // namespace flowtune
