// The random problem of the iteration-schedule tests (one warping's fields of kWidth x
// kHeight, random smooth textures with flat patches), its device copy in one storage and the
// relative L2 error against the double reference (kernels/reference_tvl1.hpp). Test code.
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/reference_tvl1.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/device_fields.hpp"

namespace flowtune::cuda::testing {

constexpr int kWidth = 1000, kHeight = 777;

/// A random smooth field: a sum of random sinusoids plus a little white noise, amplitude ~a.
inline std::vector<double> smooth_field(std::mt19937& rng, double a) {
  std::uniform_real_distribution<double> uni(0.0, 1.0);
  std::normal_distribution<double> noise(0.0, 0.05 * a);
  struct Wave {
    double kx, ky, phase, amp;
  };
  std::vector<Wave> waves(6);
  for (auto& w : waves)
    w = {0.2 * uni(rng), 0.2 * uni(rng), 6.28 * uni(rng), a * (0.3 + 0.7 * uni(rng)) / 3};
  std::vector<double> f(std::size_t(kWidth) * kHeight);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      double s = noise(rng);
      for (const auto& w : waves) s += w.amp * std::sin(w.kx * x + w.ky * y + w.phase);
      f[std::size_t(y) * kWidth + x] = s;
    }
  return f;
}

struct Problem {
  WarpingData<double> data{kWidth, kHeight};
  Tvl1State<double> state{kWidth, kHeight};
};

inline Problem random_problem(unsigned seed) {
  std::mt19937 rng(seed);
  Problem pb;
  pb.data.grad_x = smooth_field(rng, 30.0);
  pb.data.grad_y = smooth_field(rng, 30.0);
  pb.data.rho_c = smooth_field(rng, 20.0);
  // Flat patches, where |grad|^2 is ~0 and v = u must hold.
  for (int y = 100; y < 140; ++y)
    for (int x = 300; x < 360; ++x) {
      pb.data.grad_x[std::size_t(y) * kWidth + x] = 0.0;
      pb.data.grad_y[std::size_t(y) * kWidth + x] = 0.0;
    }
  pb.state.u1 = smooth_field(rng, 2.0);
  pb.state.u2 = smooth_field(rng, 2.0);
  pb.state.p11 = smooth_field(rng, 0.3);
  pb.state.p12 = smooth_field(rng, 0.3);
  pb.state.p21 = smooth_field(rng, 0.3);
  pb.state.p22 = smooth_field(rng, 0.3);
  return pb;
}

/// Device copy of a problem in one storage; pairs interleaved as DeviceFields says.
class DeviceProblem {
 public:
  DeviceProblem(const Problem& pb, Storage storage) : storage_(storage) {
    n_ = pb.data.grad_x.size();
    const std::size_t pair = storage == Storage::f32 ? 8 : 4;
    for (void** p : {&grad_, &u_, &p1_, &p2_}) check_cuda(cudaMalloc(p, pair * n_), "cudaMalloc");
    check_cuda(cudaMalloc(&rho_, pair / 2 * n_), "cudaMalloc");
    upload_pairs(grad_, pb.data.grad_x, pb.data.grad_y);
    upload_pairs(u_, pb.state.u1, pb.state.u2);
    upload_pairs(p1_, pb.state.p11, pb.state.p12);
    upload_pairs(p2_, pb.state.p21, pb.state.p22);
    if (storage == Storage::f32) {
      std::vector<float> h(pb.data.rho_c.begin(), pb.data.rho_c.end());
      check_cuda(cudaMemcpy(rho_, h.data(), 4 * n_, cudaMemcpyHostToDevice), "upload");
    } else {
      std::vector<__half> h(n_);
      for (std::size_t i = 0; i < n_; ++i) h[i] = __float2half(float(pb.data.rho_c[i]));
      check_cuda(cudaMemcpy(rho_, h.data(), 2 * n_, cudaMemcpyHostToDevice), "upload");
    }
  }
  ~DeviceProblem() {
    for (void* p : {grad_, rho_, u_, p1_, p2_}) cudaFree(p);
  }
  DeviceFields fields() const { return {kWidth, kHeight, storage_, grad_, rho_, u_, p1_, p2_}; }
  /// The bytes of u, p1 and p2 on the device, concatenated (bitwise comparisons).
  std::vector<unsigned char> state_bytes() const {
    const std::size_t pair = storage_ == Storage::f32 ? 8 : 4;
    std::vector<unsigned char> out(3 * pair * n_);
    int k = 0;
    for (const void* p : {u_, p1_, p2_})
      check_cuda(cudaMemcpy(out.data() + pair * n_ * std::size_t(k++), p, pair * n_,
                            cudaMemcpyDeviceToHost),
                 "download");
    return out;
  }
  /// Flow (u1, u2) back on the host, as double.
  void download_flow(std::vector<double>& u1, std::vector<double>& u2) const {
    u1.resize(n_);
    u2.resize(n_);
    if (storage_ == Storage::f32) {
      std::vector<float> h(2 * n_);
      check_cuda(cudaMemcpy(h.data(), u_, 8 * n_, cudaMemcpyDeviceToHost), "download");
      for (std::size_t i = 0; i < n_; ++i) u1[i] = h[2 * i], u2[i] = h[2 * i + 1];
    } else {
      std::vector<__half> h(2 * n_);
      check_cuda(cudaMemcpy(h.data(), u_, 4 * n_, cudaMemcpyDeviceToHost), "download");
      for (std::size_t i = 0; i < n_; ++i)
        u1[i] = __half2float(h[2 * i]), u2[i] = __half2float(h[2 * i + 1]);
    }
  }

 private:
  void upload_pairs(void* dst, const std::vector<double>& a, const std::vector<double>& b) {
    if (storage_ == Storage::f32) {
      std::vector<float> h(2 * n_);
      for (std::size_t i = 0; i < n_; ++i) h[2 * i] = float(a[i]), h[2 * i + 1] = float(b[i]);
      check_cuda(cudaMemcpy(dst, h.data(), 8 * n_, cudaMemcpyHostToDevice), "upload");
    } else {
      std::vector<__half> h(2 * n_);
      for (std::size_t i = 0; i < n_; ++i)
        h[2 * i] = __float2half(float(a[i])), h[2 * i + 1] = __float2half(float(b[i]));
      check_cuda(cudaMemcpy(dst, h.data(), 4 * n_, cudaMemcpyHostToDevice), "upload");
    }
  }
  Storage storage_;
  std::size_t n_ = 0;
  void *grad_ = nullptr, *rho_ = nullptr, *u_ = nullptr, *p1_ = nullptr, *p2_ = nullptr;
};

/// ||u - u_ref|| / ||u_ref|| over both components; +inf if any value is not finite.
inline double relative_l2(const std::vector<double>& u1, const std::vector<double>& u2,
                          const Tvl1State<double>& ref) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < u1.size(); ++i) {
    if (!std::isfinite(u1[i]) || !std::isfinite(u2[i])) return INFINITY;
    num += (u1[i] - ref.u1[i]) * (u1[i] - ref.u1[i]) + (u2[i] - ref.u2[i]) * (u2[i] - ref.u2[i]);
    den += ref.u1[i] * ref.u1[i] + ref.u2[i] * ref.u2[i];
  }
  return std::sqrt(num / den);
}

}  // namespace flowtune::cuda::testing
