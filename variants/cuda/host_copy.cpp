// Parallel host memcpy of frame planes (see host_copy.hpp).
#include "variants/cuda/host_copy.hpp"

#include <algorithm>
#include <cstring>
#include <utility>

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

void HostCopier::copy_range(std::size_t begin, std::size_t end) {
  std::size_t offset = 0;
  for (const HostCopyJob& j : jobs_) {
    const std::size_t lo = std::max(begin, offset), hi = std::min(end, offset + j.bytes);
    if (lo < hi)
      std::memcpy(static_cast<char*>(j.dst) + (lo - offset),
                  static_cast<const char*>(j.src) + (lo - offset), hi - lo);
    offset += j.bytes;
  }
}

void HostCopier::copy_slice(int slice) {
  // Bytes [begin, end) of the concatenated jobs.
  const std::size_t n = workers_.size() + 1;
  copy_range(total_ * std::size_t(slice) / n, total_ * std::size_t(slice + 1) / n);
}

std::size_t HostCopier::chunk_begin(std::size_t total, int chunks, int k) {
  if (k >= chunks) return total;
  const std::size_t b = total * std::size_t(k) / std::size_t(chunks);
  return b & ~std::size_t(4095);
}

void HostCopier::run_chunks(int first, int step) {
  for (int k = first; k < chunks_; k += step) {
    try {
      if (before_) before_(k);
      copy_range(chunk_begin(total_, chunks_, k), chunk_begin(total_, chunks_, k + 1));
      if (after_) after_(k);
    } catch (...) {
      std::lock_guard<std::mutex> g(mutex_);
      if (!error_) error_ = std::current_exception();
    }
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
    if (chunks_ > 0)
      run_chunks(index, int(workers_.size()) + 1);
    else
      copy_slice(index);
    std::lock_guard<std::mutex> g(mutex_);
    if (--pending_ == 0) done_.notify_one();
  }
}

void HostCopier::start(const std::vector<HostCopyJob>& jobs, std::size_t total, int chunks) {
  {
    std::lock_guard<std::mutex> g(mutex_);
    jobs_ = jobs;
    total_ = total;
    chunks_ = chunks;
    error_ = nullptr;
    pending_ = int(workers_.size());
    ++generation_;
  }
  wake_.notify_all();
}

void HostCopier::finish() {
  std::unique_lock<std::mutex> g(mutex_);
  done_.wait(g, [&] { return pending_ == 0; });
}

void HostCopier::copy(const std::vector<HostCopyJob>& jobs) {
  std::size_t total = 0;
  for (const auto& j : jobs) total += j.bytes;
  if (workers_.empty() || total < 256 * 1024) {
    for (const auto& j : jobs) std::memcpy(j.dst, j.src, j.bytes);
    return;
  }
  start(jobs, total, 0);
  copy_slice(0);
  finish();
}

void HostCopier::copy_chunked(const std::vector<HostCopyJob>& jobs, int chunks,
                              const std::function<void(int)>& before,
                              const std::function<void(int)>& after) {
  std::size_t total = 0;
  for (const auto& j : jobs) total += j.bytes;
  chunks = std::max(chunks, 1);
  before_ = before;
  after_ = after;
  if (workers_.empty() || total < 256 * 1024) {
    jobs_ = jobs;
    total_ = total;
    chunks_ = chunks;
    error_ = nullptr;
    run_chunks(0, 1);
  } else {
    start(jobs, total, chunks);
    run_chunks(0, int(workers_.size()) + 1);
    finish();
  }
  chunks_ = 0;
  before_ = nullptr;
  after_ = nullptr;
  if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
}

}  // namespace flowtune::cuda
