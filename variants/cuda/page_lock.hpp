// Page-locked host memory for the host API's frames: whether a caller's buffer is page-locked
// (then the frame solver copies it by DMA, without staging it through its own pinned buffer),
// and counted locks of a caller's buffer (cudaHostRegister), shared by every solver of the
// process.
#pragma once

#include <cstddef>
#include <memory>

namespace flowtune::cuda {

/// True when host bytes [p, p + bytes) lie in page-locked memory (cudaHostAlloc or
/// cudaHostRegister; its first and last byte checked with cudaPointerGetAttributes, type
/// cudaMemoryTypeHost). False for pageable or device memory, null p, bytes 0, or when the
/// query fails (the error is cleared). Never throws.
bool is_page_locked(const void* p, std::size_t bytes);

/// Keeps host bytes [p, p + bytes) page-locked (cudaHostRegister, portable) while the returned
/// handle lives. Locks are counted per (p, bytes) across the process: the same range locked
/// again shares the registration, and the last handle unregisters it. Returns nullptr, clearing
/// the CUDA error, when the range cannot be locked (no device, null p, bytes 0, a range
/// overlapping another registration of a different extent, or the driver refuses); the memory
/// then stays pageable, which changes speed only, never results. The caller keeps the memory
/// allocated while a handle lives (freeing locked memory is undefined, as for cudaHostRegister).
std::shared_ptr<void> lock_pages(const void* p, std::size_t bytes);

}  // namespace flowtune::cuda
