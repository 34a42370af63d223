// Host-side memcpy of a frame's planes split over a few persistent threads: on the H200 host a
// single thread moves ~14 GB/s, so the two 584x388 float frames into the pinned upload buffer
// and the flow out of the pinned download buffer took 0.24 ms of a 0.50 ms frame
// (reports/frames_h200.md, timeline).
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

namespace flowtune::cuda {

/// One copy: `bytes` from src to dst (non-overlapping host memory).
struct HostCopyJob {
  void* dst;
  const void* src;
  std::size_t bytes;
};

/// A pool of `threads - 1` workers plus the calling thread that share out memcpy jobs.
class HostCopier {
 public:
  /// threads <= 1: every copy is one memcpy on the calling thread (no worker).
  explicit HostCopier(int threads);
  ~HostCopier();
  HostCopier(const HostCopier&) = delete;
  HostCopier& operator=(const HostCopier&) = delete;

  /// Copies every job; returns when all bytes are copied. The jobs' bytes are split into
  /// `threads` contiguous slices of about equal size (a job may be split between threads);
  /// copies below 256 KiB in total run on the calling thread alone.
  void copy(const std::vector<HostCopyJob>& jobs);
  int threads() const { return int(workers_.size()) + 1; }

 private:
  void work(int index);
  void copy_slice(int slice);

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<HostCopyJob> jobs_;
  std::size_t total_ = 0;
  long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace flowtune::cuda
