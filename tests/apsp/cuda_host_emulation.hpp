// A minimal host emulation of the CUDA execution model, enough to run the device code of
// kernels/cuda/apsp_fw_*.cuh on the CPU without a GPU: one std::thread per CUDA thread,
// blocks one after the other, __shared__ = function-static (one block at a time), a real
// barrier for __syncthreads. Include it (and no CUDA header) before the .cuh, in a test TU.
#pragma once

#include <math.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace ft_emulation {

struct Index3 {
  unsigned x = 0, y = 0, z = 0;
};

/// A reusable barrier for the threads of one emulated block.
class Barrier {
 public:
  explicit Barrier(int count) : count_(count) {}
  void wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++waiting_ == count_) {
      waiting_ = 0;
      ++generation_;
      cv_.notify_all();
    } else {
      cv_.wait(lock, [&] { return generation_ != generation; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  int count_, waiting_ = 0;
  long generation_ = 0;
};

inline thread_local Index3 thread_index;
inline Index3 block_index;
inline Barrier* block_barrier = nullptr;

/// Runs kernel(args...) on a grid_x x grid_y grid of block_x x block_y threads.
template <typename Kernel, typename... Args>
void launch(Kernel kernel, unsigned grid_x, unsigned grid_y, unsigned block_x, unsigned block_y,
            Args... args) {
  for (unsigned by = 0; by < grid_y; ++by)
    for (unsigned bx = 0; bx < grid_x; ++bx) {
      block_index = {bx, by, 0};
      Barrier barrier(int(block_x * block_y));
      block_barrier = &barrier;
      std::vector<std::thread> threads;
      for (unsigned ty = 0; ty < block_y; ++ty)
        for (unsigned tx = 0; tx < block_x; ++tx)
          threads.emplace_back([=] {
            thread_index = {tx, ty, 0};
            kernel(args...);
          });
      for (auto& t : threads) t.join();
      block_barrier = nullptr;
    }
}

}  // namespace ft_emulation

#define __global__
#define __device__
#define __forceinline__ inline
#define __shared__ static
#define __launch_bounds__(n)
#define threadIdx (ft_emulation::thread_index)
#define blockIdx (ft_emulation::block_index)
inline void __syncthreads() {
  ft_emulation::block_barrier->wait();
}
