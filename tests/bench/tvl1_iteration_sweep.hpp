// The paper protocol's tunable sweep and fields that the GPU inner-iteration benchmarks share
// (bench_tvl1_iterations times every config; bench_tvl1_energy times them and measures the
// energy of each variant x precision's fastest): Romera et al. 2023, table 1 protocol
// (monoscale, 1 warping, 10 iterations, non-constant fields).
#pragma once

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstddef>
#include <iterator>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "variants/config.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/tvl1_params_of.hpp"

namespace flowtune::bench {

/// Inner iterations per timed run of the paper protocol.
constexpr int kProtocolIterations = 10;

using cuda::check_cuda;
using cuda::DeviceFields;
using cuda::Storage;

/// One CUDA variant and the tunables the protocol measures of it.
struct Sweep {
  std::string variant;
  std::vector<std::map<std::string, int>> tunables;
};

/// The sweep of every CUDA variant (global, shared_fusion, shared_pipeline, global_pipeline):
/// block shapes, pipeline widths, depths, skews, strips, register blocking and cp.async staging.
inline std::vector<Sweep> sweeps() {
  // shared_pipeline skew 1 with rows_per_thread (register blocking); optin set below.
  const auto blocked = [](int w, int depth, int strip_h, int rows) {
    return std::map<std::string, int>{{"w", w},
                                      {"parts", 1},
                                      {"depth", depth},
                                      {"skew", 1},
                                      {"strip_h", strip_h},
                                      {"optin", 0},
                                      {"rows_per_thread", rows}};
  };
  // shared_pipeline with its ring filled by cp.async (staging=1: sm_80+, f32 and mixed).
  const auto staged = [](int w, int parts, int depth, int skew, int strip_h) {
    return std::map<std::string, int>{{"w", w},       {"parts", parts},     {"depth", depth},
                                      {"skew", skew}, {"strip_h", strip_h}, {"optin", 0},
                                      {"staging", 1}};
  };
  // global_pipeline w=128 depth=5 strip_h=32 skew 1 with rows_per_thread.
  const auto global_blocked = [](int rows) {
    return std::map<std::string, int>{{"w", 128},  {"parts", 1},    {"depth", 5},
                                      {"skew", 1}, {"strip_h", 32}, {"rows_per_thread", rows}};
  };
  return {
      {"global",
       {{{"block_x", 32}, {"block_y", 4}},
        {{"block_x", 64}, {"block_y", 4}},
        {{"block_x", 32}, {"block_y", 8}},
        {{"block_x", 128}, {"block_y", 2}},
        {{"block_x", 64}, {"block_y", 8}}}},
      {"shared_fusion",
       {{{"block_x", 32}, {"block_y", 8}},
        {{"block_x", 64}, {"block_y", 8}},
        {{"block_x", 32}, {"block_y", 16}},
        {{"block_x", 128}, {"block_y", 4}},
        {{"block_x", 64}, {"block_y", 16}}}},
      // Protocol: pipelines run 10 iterations as 2 launches of depth 5; optin is set where
      // the ring needs it (pipeline_ring_bytes > 48 KiB).
      {"shared_pipeline",
       {{{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 16}, {"optin", 0}},
        {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 64}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 16}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 64}, {"optin", 0}},
        {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 2}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 2}, {"strip_h", 64}, {"optin", 0}},
        {{"w", 256}, {"parts", 2}, {"depth", 5}, {"skew", 2}, {"strip_h", 32}, {"optin", 0}},
        // Paper fig. 11 (ns/px vs depth) and the 10-iteration protocol in one launch.
        {{"w", 256}, {"parts", 1}, {"depth", 2}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 3}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 8}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 10}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 128}, {"parts", 1}, {"depth", 10}, {"skew", 1}, {"strip_h", 32}, {"optin", 0}},
        {{"w", 256}, {"parts", 1}, {"depth", 10}, {"skew", 1}, {"strip_h", 64}, {"optin", 0}},
        // Register blocking (rows_per_thread) on the protocol's best strips.
        blocked(128, 5, 32, 2),
        blocked(128, 5, 32, 4),
        blocked(128, 5, 64, 2),
        blocked(128, 5, 64, 4),
        blocked(256, 5, 32, 2),
        blocked(256, 5, 32, 4),
        blocked(128, 10, 32, 2),
        blocked(128, 10, 32, 4),
        // cp.async staging on the strips above (f16 refuses it: not registered).
        staged(128, 1, 5, 1, 16),
        staged(128, 1, 5, 1, 32),
        staged(128, 1, 5, 1, 64),
        staged(256, 1, 5, 1, 32),
        staged(128, 1, 5, 2, 32),
        staged(128, 1, 5, 2, 64),
        staged(256, 2, 5, 2, 32),
        staged(256, 1, 8, 1, 32),
        staged(128, 1, 10, 1, 32),
        staged(256, 1, 10, 1, 32)}},
      {"global_pipeline",
       {{{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 32}},
        {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 1}, {"strip_h", 64}},
        {{"w", 128}, {"parts", 1}, {"depth", 5}, {"skew", 2}, {"strip_h", 32}},
        global_blocked(2),
        global_blocked(4)}},
  };
}

/// Device fields of one n x n size and storage, random non-constant content (grad within +-40,
/// rho_c +-20, u +-2, p +-0.5), seed 42 + n. Throws std::runtime_error on a CUDA error.
struct Fields {
  std::vector<void*> buffers;
  DeviceFields f;
  Fields(int n, Storage storage) {
    const std::size_t px = std::size_t(n) * n, pair = storage == Storage::f32 ? 8 : 4;
    f.width = f.height = n;
    f.storage = storage;
    std::mt19937 rng(42u + unsigned(n));
    auto upload = [&](void** dst, std::size_t count, float amp) {
      std::uniform_real_distribution<float> d(-amp, amp);
      check_cuda(cudaMalloc(dst, count * (pair / 2)), "cudaMalloc");
      buffers.push_back(*dst);
      if (storage == Storage::f32) {
        std::vector<float> h(count);
        for (auto& v : h) v = d(rng);
        check_cuda(cudaMemcpy(*dst, h.data(), count * 4, cudaMemcpyHostToDevice), "upload");
      } else {
        std::vector<__half> h(count);
        for (auto& v : h) v = __float2half(d(rng));
        check_cuda(cudaMemcpy(*dst, h.data(), count * 2, cudaMemcpyHostToDevice), "upload");
      }
    };
    upload(&f.grad, 2 * px, 40.f);
    upload(&f.rho_c, px, 20.f);
    upload(&f.u, 2 * px, 2.f);
    upload(&f.p1, 2 * px, 0.5f);
    upload(&f.p2, 2 * px, 0.5f);
  }
  ~Fields() {
    for (void* b : buffers) cudaFree(b);
  }
};

/// Fields of (size, storage), made once: host-side random generation of 4096^2 fields
/// takes seconds. Benchmarks run size-major, so a new size frees the previous one.
inline Fields& fields_for(int n, Storage storage) {
  static std::map<std::pair<int, int>, std::unique_ptr<Fields>> cache;
  const std::pair<int, int> key(n, int(storage));
  auto it = cache.find(key);
  if (it != cache.end()) return *it->second;
  for (auto c = cache.begin(); c != cache.end();)
    c = c->first.first != n ? cache.erase(c) : std::next(c);
  return *cache.emplace(key, std::make_unique<Fields>(n, storage)).first->second;
}

/// The protocol config of a variant, precision and tunables: 1 scale, 1 warping,
/// kProtocolIterations iterations; optin set exactly where the pipeline ring needs more than
/// 48 KiB.
inline Config protocol_config(const std::string& variant, const std::string& precision,
                              const std::map<std::string, int>& tunables) {
  Config c;
  c.variant = variant;
  c.precision = precision;
  c.tunables = tunables;
  if (c.tunables.count("optin"))
    c.tunables["optin"] = cuda::pipeline_ring_bytes(c) > 48 * 1024 ? 1 : 0;
  Tvl1Params tp;
  tp.n_scales = 1;
  tp.n_warpings = 1;
  tp.iterations = kProtocolIterations;
  c.params = param_values_of(tp);
  return c;
}

}  // namespace flowtune::bench
