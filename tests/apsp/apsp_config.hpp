// Test-only: the configs of the APSP variants, shared by the APSP tests.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "variants/config.hpp"

namespace flowtune::test {

/// An "apsp" config of `variant` at precision i32 with the given tunables.
inline Config apsp_config(const std::string& variant, std::map<std::string, int> tunables) {
  Config c;
  c.workload = "apsp";
  c.variant = variant;
  c.precision = "i32";
  c.tunables = std::move(tunables);
  return c;
}

/// An "apsp" config of a tiled CUDA variant: tunables tile, block_x = bx, block_y = by.
inline Config apsp_config(const std::string& variant, int tile, int bx, int by) {
  return apsp_config(variant, {{"tile", tile}, {"block_x", bx}, {"block_y", by}});
}

}  // namespace flowtune::test
