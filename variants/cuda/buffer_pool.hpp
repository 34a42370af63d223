// A caching allocator for the GPU frame pipeline's buffers: device memory (cudaMalloc) and
// page-locked host memory (cudaMallocHost) freed by one solver are kept, up to the process's
// buffer_retention() cap (variants/buffer_retention.hpp), and handed to the next allocation of
// the same size class, as PyTorch's CUDA caching allocator does. The tuner measures one
// solver per point: without the pool every point pays cudaMalloc / cudaMallocHost before its
// first run and cudaFree / cudaFreeHost (which wait for the device and unpin pages) at its
// teardown.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

namespace flowtune::cuda {

/// Where a buffer lives: device memory, pinned host memory, or plain host memory (emulation).
enum class Memory { device, pinned, host };

/// The size a kept block of `bytes` is allocated with while retention is on: powers of two up
/// to 64 KiB (at least 512 B), above that 8 classes per octave (at most 12.5% more than asked),
/// so that the slightly different pyramid levels of neighbouring configs reuse one block.
std::size_t pool_size_class(std::size_t bytes);

/// Allocates `bytes` (> 0) of `memory` (device, on the current device, or pinned) into *p:
/// a kept block of the same size class and device when there is one, else a new one (of the
/// size class while retention is on); when the driver is out of memory, frees the kept blocks
/// of that kind and tries once more. Returns the CUDA error of the last attempt (cudaSuccess
/// when *p is set). Memory::host is not pooled (std::invalid_argument).
cudaError_t pool_allocate(void** p, std::size_t bytes, Memory memory);

/// Frees a block of pool_allocate: kept for reuse when buffer_retention() leaves room (the
/// least recently kept blocks are freed first to make room), else freed at once. The caller
/// has finished every device operation on it (as cudaFree would wait for). nullptr is a no-op.
void pool_free(void* p, Memory memory) noexcept;

/// Frees every kept block (cudaFree / cudaFreeHost); live blocks are untouched.
void pool_release_kept() noexcept;

/// What the pool holds and has done since the process started.
struct BufferPoolStats {
  std::size_t kept_bytes = 0;   ///< bytes of the blocks kept now
  std::size_t kept_blocks = 0;  ///< blocks kept now
  long reused = 0;              ///< allocations served by a kept block
  long allocated = 0;           ///< allocations that called the driver
};
BufferPoolStats buffer_pool_stats();

}  // namespace flowtune::cuda
