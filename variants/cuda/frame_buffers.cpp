// The buffers of one GPU frame size (see frame_buffers.hpp).
#include "variants/cuda/frame_buffers.hpp"

#include <algorithm>
#include <cstdlib>
#include <new>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/image_ops.hpp"

namespace flowtune::cuda {

OwnedBuffer::OwnedBuffer(std::size_t bytes, Memory memory) : memory_(memory) {
  if (bytes == 0) return;
  if (memory == Memory::host) {
    if (!(p_ = std::calloc(bytes, 1))) throw std::bad_alloc();
    return;
  }
  check_frame(pool_allocate(&p_, bytes, memory),
              memory == Memory::device ? "cudaMalloc" : "cudaMallocHost");
}

void OwnedBuffer::release() noexcept {
  if (!p_) return;
  if (memory_ == Memory::host)
    std::free(p_);
  else
    pool_free(p_, memory_);
  p_ = nullptr;
}

void allocate_frame_buffers(FrameBuffers& b, int width, int height, const Tvl1Params& p,
                            Storage storage, bool host_emulation) {
  const Memory dev = host_emulation ? Memory::host : Memory::device;
  const Memory pin = host_emulation ? Memory::host : Memory::pinned;
  const std::size_t n = std::size_t(width) * height;
  const std::size_t pair = pair_bytes(storage), scalar = scalar_bytes(storage);
  // Level sizes exactly as tvl1_multiscale: stop before a side would drop below 4 px.
  std::vector<std::pair<int, int>> sizes{{width, height}};
  const int n_scales = effective_n_scales(p, width, height);
  for (int s = 1; s < n_scales; ++s) {
    const int nw = zoom_size(sizes.back().first, p.zoom);
    const int nh = zoom_size(sizes.back().second, p.zoom);
    if (std::min(nw, nh) < 4) break;
    sizes.emplace_back(nw, nh);
  }
  for (const auto& [w, h] : sizes) {
    PyramidLevel l;
    l.width = w;
    l.height = h;
    l.i0 = OwnedBuffer(std::size_t(w) * h * sizeof(float), dev);
    l.i1 = OwnedBuffer(std::size_t(w) * h * sizeof(float), dev);
    b.levels.push_back(std::move(l));
  }
  b.raw = OwnedBuffer(2 * n * sizeof(float), dev);
  b.raw_u8 = OwnedBuffer(2 * n, dev);
  b.tmp = OwnedBuffer(2 * n * sizeof(float), dev);
  b.smooth = OwnedBuffer(2 * n * sizeof(float), dev);
  b.i1g = OwnedBuffer(n * 4 * sizeof(float), dev);
  b.grad = OwnedBuffer(n * pair, dev);
  b.rho_c = OwnedBuffer(n * scalar, dev);
  b.p1 = OwnedBuffer(n * pair, dev);
  b.p2 = OwnedBuffer(n * pair, dev);
  b.u[0] = OwnedBuffer(n * pair, dev);
  b.u[1] = OwnedBuffer(n * pair, dev);
  b.minmax_scratch = OwnedBuffer(frame::minmax_scratch_floats() * sizeof(float), dev);
  if (dev == Memory::device) {  // minmax_pair_one_launch's counter starts at 0
    check_frame(cudaMemsetAsync(b.minmax_scratch.as(), 0,
                                frame::minmax_scratch_floats() * sizeof(float), nullptr),
                "cudaMemsetAsync (minmax scratch)");
    check_frame(cudaStreamSynchronize(nullptr), "cudaStreamSynchronize (minmax scratch)");
  }
  b.minmax = OwnedBuffer(2 * sizeof(float), dev);
  b.flow = OwnedBuffer(2 * n * sizeof(float), dev);
  b.host_in = OwnedBuffer(2 * n * sizeof(float), pin);
  b.host_out = OwnedBuffer(2 * n * sizeof(float), pin);
  b.width = width;
  b.height = height;
}

}  // namespace flowtune::cuda
