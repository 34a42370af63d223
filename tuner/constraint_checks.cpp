#include "tuner/constraint_checks.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>

namespace flowtune {

ConstraintChecks::ConstraintChecks(const Board& board, const Workload& workload,
                                   const ConfigSpace& configs, unsigned threads)
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

std::shared_ptr<const ConstraintCheck> ConstraintChecks::shared_check(const Variant& variant,
                                                                      const Config& config) {
  // The key names what the label names (variant, precision, tunables) with separators no
  // name or number holds.
  std::string key = config.variant + '\n' + config.precision;
  for (const auto& [name, value] : config.tunables)
    key += '\n' + name + '=' + std::to_string(value);
  {
    std::lock_guard<std::mutex> lock(shared_mutex_);
    if (auto it = shared_.find(key); it != shared_.end()) return it->second;
  }
  // Two threads may compute the same key at once (nvrtc_build builds it once); the first
  // stored is kept, and both are the same.
  auto check =
      std::make_shared<const ConstraintCheck>(check_kernel_constraints(board_, variant, config));
  std::lock_guard<std::mutex> lock(shared_mutex_);
  return shared_.emplace(std::move(key), std::move(check)).first->second;
}

void ConstraintChecks::compute(std::size_t i) {
  const auto start = std::chrono::steady_clock::now();
  try {
    const Config config = configs_[i];
    const Variant* variant = find_workload_variant(workload_, config.variant);
    // check_constraints' order: the workload, the parameters, then the kernel checks.
    if (variant->workload() == config.workload && variant->checks_ignore_params() &&
        !find_workload(config.workload).check_params(config))
      results_[i] = shared_check(*variant, config);
    else
      results_[i] =
          std::make_shared<const ConstraintCheck>(check_constraints(board_, *variant, config));
  } catch (...) {
    errors_[i] = std::current_exception();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++checked_;
  check_us_ += static_cast<long long>(s * 1e6);
}

ConstraintChecks::Stats ConstraintChecks::stats() const {
  return {checked_.load(), double(check_us_.load()) * 1e-6};
}

const ConstraintCheck& ConstraintChecks::get(std::size_t i) {
  std::call_once(once_[i], [this, i] { compute(i); });
  if (errors_[i]) std::rethrow_exception(errors_[i]);
  return *results_[i];
}

void ConstraintChecks::wait_all(std::ostream* log) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = configs_.size(), step = std::max<std::size_t>(1, n / 20);
  for (std::size_t i = 0; i < n; ++i) {
    std::call_once(once_[i], [this, i] { compute(i); });
    if (!log || ((i + 1) % step != 0 && i + 1 != n)) continue;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *log << "checking the space: " << i + 1 << "/" << n << " configs (kernel builds), "
         << std::fixed << std::setprecision(1) << s << " s elapsed, ETA "
         << s / double(i + 1) * double(n - i - 1) << " s" << std::defaultfloat << std::endl;
  }
}

}  // namespace flowtune
