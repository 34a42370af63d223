// A float array in device memory that grows on demand (the local flow solvers keep one per
// pyramid plane between frames).
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>

#include "variants/cuda/cuda_driver.hpp"

namespace flowtune::localflow_cuda {

class DeviceFloats {
 public:
  DeviceFloats() = default;
  ~DeviceFloats() {
    if (p_) cudaFree(p_);
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  DeviceFloats(DeviceFloats&& o) noexcept : p_(o.p_), n_(o.n_) {
    o.p_ = nullptr;
    o.n_ = 0;
  }
  /// Makes room for n floats (contents undefined after a growth); throws std::runtime_error.
  void reserve(std::size_t n) {
    if (n <= n_) return;
    if (p_) cudaFree(p_);
    p_ = nullptr;
    n_ = 0;
    cuda::check_cuda(cudaMalloc(reinterpret_cast<void**>(&p_), n * sizeof(float)),
                     "cudaMalloc of a local flow plane");
    n_ = n;
  }
  float* get() const { return p_; }

 private:
  float* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace flowtune::localflow_cuda
