// The buffers of one GPU frame size: an owned buffer in device, pinned or plain host memory,
// the pyramid levels of the two frames and every field the stage sequence (frame_stages.hpp)
// works on, allocated once per frame size (frame_size_cache.hpp keeps them).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>
#include <vector>

#include "kernels/tvl1_params.hpp"
#include "variants/cuda/buffer_pool.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/frame_check.hpp"

namespace flowtune::cuda {

/// An owned untyped buffer: device or pinned host memory from the caching allocator
/// (buffer_pool.hpp: cudaMalloc / cudaMallocHost, or a kept block of a destroyed solver), or
/// plain host memory (calloc, zeroed). Device and pinned memory are not zeroed. Throws
/// std::runtime_error when the CUDA allocation fails, std::bad_alloc when calloc does.
class OwnedBuffer {
 public:
  OwnedBuffer() = default;
  OwnedBuffer(std::size_t bytes, Memory memory);
  OwnedBuffer(OwnedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), memory_(o.memory_) {}
  OwnedBuffer& operator=(OwnedBuffer&& o) noexcept {
    if (this != &o) {
      release();
      p_ = std::exchange(o.p_, nullptr);
      memory_ = o.memory_;
    }
    return *this;
  }
  OwnedBuffer(const OwnedBuffer&) = delete;
  OwnedBuffer& operator=(const OwnedBuffer&) = delete;
  ~OwnedBuffer() { release(); }

  template <class T = void>
  T* as() const {
    return static_cast<T*>(p_);
  }

 private:
  void release() noexcept;
  void* p_ = nullptr;
  Memory memory_ = Memory::device;
};

/// One pyramid level: the smoothed / zoomed frames, width x height floats each.
struct PyramidLevel {
  int width = 0, height = 0;
  OwnedBuffer i0, i1;
};

/// Everything one frame size needs, allocated once (sizes in elements of the finest scale n).
struct FrameBuffers {
  int width = 0, height = 0;
  std::vector<PyramidLevel> levels;  ///< [0] finest
  OwnedBuffer raw;                   ///< 2n floats: the two frames as uploaded
  OwnedBuffer raw_u8;  ///< 2n bytes: the 8-bit host API's frames as uploaded (then widened to raw)
  OwnedBuffer tmp;     ///< 2n floats: the Gaussian's row pass
  OwnedBuffer smooth;  ///< 2n floats: the pre-filtered level before zoom_out sampling
  OwnedBuffer i1g;     ///< n float4: (I1, I1x, I1y, 0) of the current scale
  OwnedBuffer grad, rho_c, p1, p2;  ///< n pairs / scalars in the schedule's storage
  OwnedBuffer u[2];                 ///< n pairs each: ping-pong between scales
  OwnedBuffer minmax_scratch, minmax;
  OwnedBuffer flow;               ///< 2n floats: planar output
  OwnedBuffer host_in, host_out;  ///< 2n floats each, pinned (or plain host in emulation); the
                                  ///< 8-bit host API uses host_in's first 2n bytes
};

/// Bytes of one (x, y) pair / one scalar of the device fields in `storage` (float2 / float or
/// half2 / half).
inline std::size_t pair_bytes(Storage storage) {
  return storage == Storage::f32 ? 8 : 4;
}
inline std::size_t scalar_bytes(Storage storage) {
  return storage == Storage::f32 ? 4 : 2;
}

/// Allocates b for width x height frames: the pyramid levels exactly as tvl1_multiscale
/// (effective_n_scales of p, zoom_size per level, stopping before a side would drop below
/// 4 px), the device fields in `storage`, the min / max scratch zeroed (its counter starts at
/// 0), and the pinned host_in / host_out. host_emulation: plain host memory throughout.
/// Throws as OwnedBuffer, or std::runtime_error when zeroing the scratch fails.
void allocate_frame_buffers(FrameBuffers& b, int width, int height, const Tvl1Params& p,
                            Storage storage, bool host_emulation);

}  // namespace flowtune::cuda
