#include "tuner/constraint_checks.hpp"

namespace flowtune {

ConstraintChecks::ConstraintChecks(const Board& board, const Workload& workload,
                                   const std::vector<Config>& configs, unsigned threads)
    : board_(board),
      workload_(workload),
      configs_(configs),
      results_(configs.size()),
      errors_(configs.size()),
      once_(new std::once_flag[configs.size()]) {
  for (unsigned t = 0; t < threads; ++t)
    threads_.emplace_back([this] {
      for (std::size_t i = next_++; i < configs_.size() && !stop_; i = next_++)
        std::call_once(once_[i], [this, i] { compute(i); });
    });
}

ConstraintChecks::~ConstraintChecks() {
  stop_ = true;
  for (std::thread& t : threads_) t.join();
}

void ConstraintChecks::compute(std::size_t i) {
  try {
    const Variant* variant = find_workload_variant(workload_, configs_[i].variant);
    results_[i] = check_constraints(board_, *variant, configs_[i]);
  } catch (...) {
    errors_[i] = std::current_exception();
  }
}

const ConstraintCheck& ConstraintChecks::get(std::size_t i) {
  std::call_once(once_[i], [this, i] { compute(i); });
  if (errors_[i]) std::rethrow_exception(errors_[i]);
  return results_[i];
}

void ConstraintChecks::wait_all() {
  for (std::size_t i = 0; i < configs_.size(); ++i)
    std::call_once(once_[i], [this, i] { compute(i); });
}

}  // namespace flowtune
