// How many bytes of freed GPU buffers a process keeps for reuse (a caching allocator, as
// PyTorch's and RAPIDS' pools): the tuner's measuring path turns it on, so that the next
// point's solver finds its frame buffers (device and page-locked host memory) already
// allocated instead of paying cudaMalloc / cudaMallocHost before its first run and cudaFree /
// cudaFreeHost at its teardown. Off (0) by default: a deployed solver returns its memory to
// the driver when it is destroyed.
#pragma once

#include <cstddef>

namespace flowtune {

/// Sets the cap, in bytes, on the freed device and page-locked buffers kept for reuse
/// (variants/cuda/buffer_pool.hpp); 0 frees every buffer at once and releases what is kept.
/// Thread-safe; takes effect at the next free.
void set_buffer_retention(std::size_t max_bytes);

/// The cap set by set_buffer_retention (bytes; 0 when off).
std::size_t buffer_retention();

}  // namespace flowtune
