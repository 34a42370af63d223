#include "tuner/constraint_checks.hpp"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <stdexcept>

namespace flowtune {

ConstraintChecks::ConstraintChecks(const Board& board, const Workload& workload,
                                   const ConfigSpace& configs, unsigned threads,
                                   ResourceSource source)
    : board_(board), workload_(workload), configs_(configs), source_(source) {
  if (configs.size() <= kDenseChecks) dense_.reset(new Entry[configs.size()]);
  for (unsigned t = 0; t < threads; ++t)
    threads_.emplace_back([this] {
      std::size_t i = 0;
      while (next_config(&i)) {
        Entry& e = entry(i);
        std::call_once(e.once, [this, i, &e] { compute(i, e); });
      }
    });
}

bool ConstraintChecks::next_config(std::size_t* i) {
  std::unique_lock<std::mutex> lock(queue_mutex_);
  for (;;) {
    if (stop_) return false;
    if (!prefetched_.empty()) {
      *i = prefetched_.front();
      prefetched_.pop_front();
      return true;
    }
    if (dense_) {
      const std::size_t k = next_++;
      if (k < configs_.size()) {
        *i = k;
        return true;
      }
    }
    queue_ready_.wait(lock);
  }
}

void ConstraintChecks::prefetch(const std::vector<std::size_t>& points) {
  if (threads_.empty()) return;
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    for (std::size_t i : points) {
      if (i >= configs_.size()) continue;
      if (!dense_) {
        std::lock_guard<std::mutex> sparse(sparse_mutex_);
        if (sparse_.count(i)) continue;  // checked, or being checked
      }
      if (std::find(prefetched_.begin(), prefetched_.end(), i) == prefetched_.end())
        prefetched_.push_back(i);
    }
  }
  queue_ready_.notify_all();
}

ConstraintChecks::Entry& ConstraintChecks::entry(std::size_t i) {
  if (i >= configs_.size())
    throw std::out_of_range("constraint check of config " + std::to_string(i) + " of a space of " +
                            std::to_string(configs_.size()));
  if (dense_) return dense_[i];
  std::lock_guard<std::mutex> lock(sparse_mutex_);
  std::unique_ptr<Entry>& e = sparse_[i];
  if (!e) e = std::make_unique<Entry>();
  return *e;
}

ConstraintChecks::~ConstraintChecks() {
  {
    std::lock_guard<std::mutex> lock(queue_mutex_);
    stop_ = true;
  }
  queue_ready_.notify_all();
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
  auto check = std::make_shared<const ConstraintCheck>(
      check_kernel_constraints(board_, variant, config, source_));
  std::lock_guard<std::mutex> lock(shared_mutex_);
  return shared_.emplace(std::move(key), std::move(check)).first->second;
}

void ConstraintChecks::compute(std::size_t i, Entry& e) {
  const auto start = std::chrono::steady_clock::now();
  try {
    const Config config = configs_[i];
    const Variant* variant = find_workload_variant(workload_, config.variant);
    // check_constraints' order: the workload, the parameters, then the kernel checks.
    if (variant->workload() == config.workload && variant->checks_ignore_params() &&
        !find_workload(config.workload).check_params(config))
      e.result = shared_check(*variant, config);
    else
      e.result = std::make_shared<const ConstraintCheck>(
          check_constraints(board_, *variant, config, source_));
  } catch (...) {
    e.error = std::current_exception();
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++checked_;
  check_us_ += static_cast<long long>(s * 1e6);
}

ConstraintChecks::Stats ConstraintChecks::stats() const {
  return {checked_.load(), double(check_us_.load()) * 1e-6};
}

const ConstraintCheck& ConstraintChecks::get(std::size_t i) {
  Entry& e = entry(i);
  std::call_once(e.once, [this, i, &e] { compute(i, e); });
  if (e.error) std::rethrow_exception(e.error);
  return *e.result;
}

void ConstraintChecks::wait_all(std::ostream* log) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = configs_.size(), step = std::max<std::size_t>(1, n / 20);
  for (std::size_t i = 0; i < n; ++i) {
    Entry& e = entry(i);
    std::call_once(e.once, [this, i, &e] { compute(i, e); });
    if (!log || ((i + 1) % step != 0 && i + 1 != n)) continue;
    const double s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    *log << "checking the space: " << i + 1 << "/" << n << " configs (kernel builds), "
         << std::fixed << std::setprecision(1) << s << " s elapsed, ETA "
         << s / double(i + 1) * double(n - i - 1) << " s" << std::defaultfloat << std::endl;
  }
}

}  // namespace flowtune
