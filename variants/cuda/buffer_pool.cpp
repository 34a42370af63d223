// The caching allocator of the GPU frame buffers (see buffer_pool.hpp).
#include "variants/cuda/buffer_pool.hpp"

#include <algorithm>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "variants/buffer_retention.hpp"

namespace flowtune::cuda {
namespace {

struct Block {
  std::size_t bytes = 0;
  Memory memory = Memory::device;
  int device = -1;  ///< the device of device memory; -1 for pinned host memory
};

struct Kept {
  void* p = nullptr;
  Block block;
  unsigned long long seq = 0;  ///< when it was kept: the lowest is evicted first
};

struct Pool {
  std::mutex mutex;
  std::unordered_map<void*, Block> live;  ///< every block pool_allocate handed out
  std::vector<Kept> kept;
  std::size_t kept_bytes = 0;
  unsigned long long seq = 0;
  long reused = 0, allocated = 0;
};

Pool& pool() {
  static Pool* p = new Pool;  // never destroyed: buffers may be freed during static destruction
  return *p;
}

void driver_free(void* p, Memory memory) noexcept {
  const cudaError_t e = memory == Memory::device ? cudaFree(p) : cudaFreeHost(p);
  if (e != cudaSuccess) cudaGetLastError();  // at exit the context may be gone already
}

int block_device(Memory memory) {
  if (memory != Memory::device) return -1;
  int d = 0;
  if (cudaGetDevice(&d) != cudaSuccess) {
    cudaGetLastError();
    return 0;
  }
  return d;
}

/// Frees the kept blocks that `keep_if` rejects; the pool's mutex is held.
template <class Pred>
void free_kept_unless(Pool& pl, Pred keep_if) {
  auto end = std::stable_partition(pl.kept.begin(), pl.kept.end(), keep_if);
  for (auto it = end; it != pl.kept.end(); ++it) {
    pl.kept_bytes -= it->block.bytes;
    driver_free(it->p, it->block.memory);
  }
  pl.kept.erase(end, pl.kept.end());
}

}  // namespace

std::size_t pool_size_class(std::size_t bytes) {
  std::size_t pow2 = 512;
  while (pow2 < bytes) pow2 *= 2;
  if (pow2 <= 64 * 1024) return pow2;
  const std::size_t step = pow2 / 16;  // pow2 / 2 < bytes <= pow2: 8 steps of pow2 / 16
  return (bytes + step - 1) / step * step;
}

cudaError_t pool_allocate(void** p, std::size_t bytes, Memory memory) {
  if (memory == Memory::host) throw std::invalid_argument("pool_allocate: plain host memory");
  *p = nullptr;
  const bool retain = buffer_retention() > 0;
  const std::size_t size = retain ? pool_size_class(bytes) : bytes;
  const int device = block_device(memory);
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  if (retain) {
    auto best = pl.kept.end();
    for (auto it = pl.kept.begin(); it != pl.kept.end(); ++it)
      if (it->block.memory == memory && it->block.device == device && it->block.bytes == size &&
          (best == pl.kept.end() || it->seq > best->seq))
        best = it;
    if (best != pl.kept.end()) {
      *p = best->p;
      pl.live[*p] = best->block;
      pl.kept_bytes -= best->block.bytes;
      pl.kept.erase(best);
      ++pl.reused;
      return cudaSuccess;
    }
  }
  auto driver_alloc = [&]() {
    return memory == Memory::device ? cudaMalloc(p, size) : cudaMallocHost(p, size);
  };
  cudaError_t e = driver_alloc();
  if (e == cudaErrorMemoryAllocation && !pl.kept.empty()) {
    cudaGetLastError();
    free_kept_unless(pl, [&](const Kept& k) { return k.block.memory != memory; });
    e = driver_alloc();
  }
  if (e != cudaSuccess) {
    *p = nullptr;
    return e;
  }
  pl.live[*p] = Block{size, memory, device};
  ++pl.allocated;
  return cudaSuccess;
}

void pool_free(void* p, Memory memory) noexcept {
  if (!p) return;
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  auto it = pl.live.find(p);
  if (it == pl.live.end()) {  // not ours: free it as its kind
    driver_free(p, memory);
    return;
  }
  const Block block = it->second;
  pl.live.erase(it);
  const std::size_t cap = buffer_retention();
  if (block.bytes > cap) {
    if (cap == 0) free_kept_unless(pl, [](const Kept&) { return false; });
    driver_free(p, block.memory);
    return;
  }
  while (!pl.kept.empty() && pl.kept_bytes + block.bytes > cap) {
    auto oldest = std::min_element(pl.kept.begin(), pl.kept.end(),
                                   [](const Kept& a, const Kept& b) { return a.seq < b.seq; });
    pl.kept_bytes -= oldest->block.bytes;
    driver_free(oldest->p, oldest->block.memory);
    pl.kept.erase(oldest);
  }
  try {
    pl.kept.push_back(Kept{p, block, ++pl.seq});
  } catch (...) {  // no memory for the list: free the block instead
    driver_free(p, block.memory);
    return;
  }
  pl.kept_bytes += block.bytes;
}

void pool_release_kept() noexcept {
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  free_kept_unless(pl, [](const Kept&) { return false; });
}

BufferPoolStats buffer_pool_stats() {
  Pool& pl = pool();
  std::lock_guard<std::mutex> lock(pl.mutex);
  return {pl.kept_bytes, pl.kept.size(), pl.reused, pl.allocated};
}

}  // namespace flowtune::cuda
