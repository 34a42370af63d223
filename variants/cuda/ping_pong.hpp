// The ping-pong of the schemes that read one (u, p1, p2) set and write another (shared_fusion,
// the pipelines, the tiled coarse levels): a scratch set and the alternation between it and
// the caller's set.
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <vector>

#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Device scratch of one (u, p1, p2) set for the ping-pong of the fused schemes. It only
/// grows; a set it outgrows is kept until the Scratch dies, because a CUDA Graph captured at
/// a smaller frame size (the frame solver keeps one per size) still points to it.
class Scratch {
 public:
  Scratch() = default;
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
  ~Scratch() {
    for (void* b : buf_)
      if (b) cudaFree(b);
    for (void* b : retired_) cudaFree(b);
  }
  void ensure(std::size_t bytes_each) {
    if (bytes_each <= bytes_) return;
    for (auto& b : buf_) {
      if (b) retired_.push_back(b);
      b = nullptr;
    }
    bytes_ = 0;
    for (auto& b : buf_) {
      check_cuda(cudaMalloc(&b, bytes_each), "cudaMalloc scratch");
      // NaN fill (all-ones bits are NaN in float and half): a pixel a schedule forgets to
      // write shows up as NaN instead of as a plausible stale value.
      check_cuda(cudaMemset(b, 0xFF, bytes_each), "poisoning scratch");
    }
    // cudaMemset runs on the legacy default stream, which does not order the schedules'
    // non-blocking streams: wait for it, so that no kernel's output is overwritten by it.
    check_cuda(cudaDeviceSynchronize(), "poisoning scratch (cudaDeviceSynchronize)");
    bytes_ = bytes_each;
  }
  void* operator[](int i) const { return buf_[i]; }

 private:
  void* buf_[3] = {nullptr, nullptr, nullptr};
  std::size_t bytes_ = 0;
  std::vector<void*> retired_;
};

/// The ping-pong of the fused schemes between the caller's (u, p1, p2) and a scratch set:
/// launch k reads set k % 2 and writes the other; after an odd number of launches finish()
/// copies the result back into the caller's set.
class PingPong {
 public:
  PingPong(const DeviceFields& f, const Scratch& scratch, std::size_t bytes_each)
      : sets_{{f.u, f.p1, f.p2}, {scratch[0], scratch[1], scratch[2]}}, bytes_(bytes_each) {}
  /// (u, p1, p2) that launch k reads / writes.
  std::array<void*, 3> src(int k) const { return sets_[k % 2]; }
  std::array<void*, 3> dst(int k) const { return sets_[(k + 1) % 2]; }
  void finish(int launches, cudaStream_t stream) const {
    if (launches % 2 == 0) return;
    for (int i = 0; i < 3; ++i)
      check_cuda(
          cudaMemcpyAsync(sets_[0][i], sets_[1][i], bytes_, cudaMemcpyDeviceToDevice, stream),
          "copy back of the ping-pong set");
  }

 private:
  std::array<void*, 3> sets_[2];
  std::size_t bytes_;
};

}  // namespace flowtune::cuda
