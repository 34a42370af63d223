// IPOL's stopping test of a warping (Sanchez Perez et al., IPOL 2013, sec. 4: stop when the
// mean over pixels of |u - u_prev|^2 <= epsilon^2) on the GPU: the statistic is reduced on
// the device every `check_every` iterations and only its value (8 bytes) is read back.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <functional>

#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda {

/// Runs a warping's inner iterations with the stopping test (the same rule as
/// tvl1_iterate_reference with Tvl1Params::epsilon_check_every = check_every):
/// for chunks of check_every iterations, runs check_every - 1 of them, keeps a copy of u,
/// runs the last one, reduces mean |u - u_copy|^2 on the device (flow_change_mean), reads it
/// back (one stream synchronisation per test) and stops when it is <= epsilon^2. A final
/// chunk shorter than check_every is run without a test. Because of the read-back a frame
/// with a stopping test is not captured in a CUDA Graph (launches are direct).
/// Scratch (a copy of u and the reduction's partials) is allocated on first use for f's size
/// and kept. In host emulation every pointer is a host pointer and nothing is synchronised.
/// Throws std::invalid_argument for epsilon <= 0 or check_every < 1, std::runtime_error on
/// CUDA errors (naming epsilon_stop and the call).
class EpsilonStop {
 public:
  explicit EpsilonStop(bool host_emulation);
  ~EpsilonStop();
  EpsilonStop(const EpsilonStop&) = delete;
  EpsilonStop& operator=(const EpsilonStop&) = delete;

  /// `run_iterations(k)` enqueues k iterations on f (any schedule); returns the iterations
  /// done (<= iterations).
  int run(const DeviceFields& f, int iterations, double epsilon, int check_every,
          const std::function<void(int)>& run_iterations, cudaStream_t stream);

 private:
  void ensure(std::size_t pair_bytes_total);
  bool on_host_;
  std::size_t capacity_ = 0;
  void* u_copy_ = nullptr;
  double* scratch_ = nullptr;
  double* mean_ = nullptr;       ///< device (host in emulation)
  double* mean_host_ = nullptr;  ///< pinned (unused in emulation)
};

}  // namespace flowtune::cuda
