// Host-side memcpy of a frame's planes split over a few persistent threads: on the H200 host a
// single thread moves ~14 GB/s, so the two 584x388 float frames into the pinned upload buffer
// and the flow out of the pinned download buffer take 0.24 ms of a 0.50 ms frame
// (docs/decisions.md, "Host staging of the frame API").
#pragma once

#include <condition_variable>
#include <cstddef>
#include <exception>
#include <functional>
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
  /// Copies every job in `chunks` chunks (>= 1): chunk k is bytes [chunk_begin(total, chunks,
  /// k), chunk_begin(total, chunks, k + 1)) of the jobs' concatenation (total bytes), and the
  /// threads take the chunks round-robin (thread t: t, t + threads, ...), so the first chunks
  /// are done first. On the thread copying it, before(k) runs before chunk k is copied and
  /// after(k) after (either may be empty): e.g. wait for chunk k's download, enqueue chunk k's
  /// upload. Returns when every chunk is copied; rethrows the first exception of a hook (the
  /// other chunks still run). With one thread, or below 256 KiB in total, everything runs on
  /// the calling thread, chunk after chunk.
  void copy_chunked(const std::vector<HostCopyJob>& jobs, int chunks,
                    const std::function<void(int)>& before, const std::function<void(int)>& after);
  /// Start of chunk k of `chunks` over `total` bytes (k = chunks gives total): equal parts,
  /// rounded down to 4 KiB except the end.
  static std::size_t chunk_begin(std::size_t total, int chunks, int k);

  int threads() const { return int(workers_.size()) + 1; }

 private:
  void work(int index);
  void copy_slice(int slice);
  void copy_range(std::size_t begin, std::size_t end);
  void run_chunks(int first, int step);
  void start(const std::vector<HostCopyJob>& jobs, std::size_t total, int chunks);
  void finish();

  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<HostCopyJob> jobs_;
  std::size_t total_ = 0;
  int chunks_ = 0;  ///< 0: copy() (one slice per thread); else copy_chunked's chunk count
  std::function<void(int)> before_, after_;
  std::exception_ptr error_;
  long generation_ = 0;
  int pending_ = 0;
  bool stop_ = false;
};

}  // namespace flowtune::cuda
