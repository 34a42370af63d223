// Parallel host memcpy of frame planes (see host_copy.hpp).
#include "variants/cuda/host_copy.hpp"

#include <algorithm>
#include <cstring>

namespace flowtune::cuda {

HostCopier::HostCopier(int threads) {
  for (int i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

HostCopier::~HostCopier() {
  {
    std::lock_guard<std::mutex> g(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

void HostCopier::copy_slice(int slice) {
  // Bytes [begin, end) of the concatenated jobs.
  const std::size_t n = workers_.size() + 1;
  const std::size_t begin = total_ * std::size_t(slice) / n;
  const std::size_t end = total_ * std::size_t(slice + 1) / n;
  std::size_t offset = 0;
  for (const HostCopyJob& j : jobs_) {
    const std::size_t lo = std::max(begin, offset), hi = std::min(end, offset + j.bytes);
    if (lo < hi)
      std::memcpy(static_cast<char*>(j.dst) + (lo - offset),
                  static_cast<const char*>(j.src) + (lo - offset), hi - lo);
    offset += j.bytes;
  }
}

void HostCopier::work(int index) {
  long seen = 0;
  while (true) {
    {
      std::unique_lock<std::mutex> g(mutex_);
      wake_.wait(g, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
    }
    copy_slice(index);
    std::lock_guard<std::mutex> g(mutex_);
    if (--pending_ == 0) done_.notify_one();
  }
}

void HostCopier::copy(const std::vector<HostCopyJob>& jobs) {
  std::size_t total = 0;
  for (const auto& j : jobs) total += j.bytes;
  if (workers_.empty() || total < 256 * 1024) {
    for (const auto& j : jobs) std::memcpy(j.dst, j.src, j.bytes);
    return;
  }
  {
    std::lock_guard<std::mutex> g(mutex_);
    jobs_ = jobs;
    total_ = total;
    pending_ = int(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
  copy_slice(0);
  std::unique_lock<std::mutex> g(mutex_);
  done_.wait(g, [&] { return pending_ == 0; });
}

}  // namespace flowtune::cuda
