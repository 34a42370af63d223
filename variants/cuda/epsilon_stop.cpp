#include "variants/cuda/epsilon_stop.hpp"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

#include "kernels/cuda/frame/flow_filters.hpp"

namespace flowtune::cuda {
namespace {

void check(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw std::runtime_error(std::string("epsilon_stop: ") + what + ": " + cudaGetErrorString(e));
}

}  // namespace

EpsilonStop::EpsilonStop(bool host_emulation) : on_host_(host_emulation) {}

EpsilonStop::~EpsilonStop() {
  if (on_host_) {
    std::free(u_copy_);
    std::free(scratch_);
    std::free(mean_);
  } else {
    if (u_copy_) cudaFree(u_copy_);
    if (scratch_) cudaFree(scratch_);
    if (mean_) cudaFree(mean_);
    if (mean_host_) cudaFreeHost(mean_host_);
  }
}

void EpsilonStop::ensure(std::size_t bytes) {
  if (bytes <= capacity_) return;
  const std::size_t scratch_bytes = frame::flow_change_scratch_doubles() * sizeof(double);
  if (on_host_) {
    std::free(u_copy_);
    u_copy_ = std::malloc(bytes);
    if (!scratch_) scratch_ = static_cast<double*>(std::malloc(scratch_bytes));
    if (!mean_) mean_ = static_cast<double*>(std::malloc(sizeof(double)));
    if (!u_copy_ || !scratch_ || !mean_) throw std::bad_alloc();
  } else {
    if (u_copy_) check(cudaFree(u_copy_), "cudaFree");
    u_copy_ = nullptr;
    check(cudaMalloc(&u_copy_, bytes), "cudaMalloc");
    if (!scratch_)
      check(cudaMalloc(reinterpret_cast<void**>(&scratch_), scratch_bytes), "cudaMalloc");
    if (!mean_) check(cudaMalloc(reinterpret_cast<void**>(&mean_), sizeof(double)), "cudaMalloc");
    if (!mean_host_)
      check(cudaMallocHost(reinterpret_cast<void**>(&mean_host_), sizeof(double)),
            "cudaMallocHost");
  }
  capacity_ = bytes;
}

int EpsilonStop::run(const DeviceFields& f, int iterations, double epsilon, int check_every,
                     const std::function<void(int)>& run_iterations, cudaStream_t stream) {
  if (!(epsilon > 0) || check_every < 1)
    throw std::invalid_argument("epsilon_stop: need epsilon > 0 and check_every >= 1, got " +
                                std::to_string(epsilon) + ", " + std::to_string(check_every));
  const bool f16 = f.storage == Storage::f16;
  const std::size_t bytes = std::size_t(f.width) * f.height * (f16 ? 4 : 8);
  ensure(bytes);
  const frame::Exec exec{stream, on_host_};
  const double eps2 = epsilon * epsilon;
  int done = 0;
  while (done < iterations) {
    if (iterations - done < check_every) {  // no test in a final partial chunk (as the CPU)
      run_iterations(iterations - done);
      return iterations;
    }
    if (check_every > 1) run_iterations(check_every - 1);
    if (on_host_)
      std::memcpy(u_copy_, f.u, bytes);
    else
      check(cudaMemcpyAsync(u_copy_, f.u, bytes, cudaMemcpyDeviceToDevice, stream),
            "cudaMemcpyAsync (u copy)");
    run_iterations(1);
    done += check_every;
    frame::flow_change_mean(f16, f.u, u_copy_, f.width, f.height, scratch_, mean_, exec);
    double mean = 0;
    if (on_host_) {
      mean = *mean_;
    } else {
      check(cudaMemcpyAsync(mean_host_, mean_, sizeof(double), cudaMemcpyDeviceToHost, stream),
            "cudaMemcpyAsync (test value)");
      check(cudaStreamSynchronize(stream), "cudaStreamSynchronize (stopping test)");
      mean = *mean_host_;
    }
    if (mean <= eps2) break;
  }
  return done;
}

}  // namespace flowtune::cuda
