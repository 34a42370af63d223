// Test-only builders shared by the model tests: a kernel's resource report and a TV-L1 config.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "model/config_prediction.hpp"

namespace flowtune::model::test_configs {

/// A resource report of one kernel "k" built for sm_90: threads per block, registers per
/// thread, static shared memory in bytes.
inline KernelResources kernel(int threads, int regs, int shared) {
  KernelResources k;
  k.kernel = "k";
  k.threads_per_block = threads;
  k.registers_per_thread = regs;
  k.static_shared_bytes = shared;
  k.built_for = "sm_90";
  return k;
}

/// A tvl1 config of variant/precision/tunables with the pyramid given as n_scales, n_warpings,
/// iterations (zoom 0.5).
inline Config tvl1(const std::string& variant, const std::string& precision,
                   std::map<std::string, int> tunables, int n_scales, int n_warpings,
                   int iterations) {
  Config c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = precision;
  c.tunables = std::move(tunables);
  c.params = {{"n_scales", n_scales},
              {"n_warpings", n_warpings},
              {"iterations", iterations},
              {"zoom", 0.5}};
  return c;
}

}  // namespace flowtune::model::test_configs
