// One point of the design space: variant + precision + tunables + clock + algorithm parameters.
#pragma once

#include <map>
#include <string>

#include "kernels/tvl1_params.hpp"

namespace flowtune {

/// A config (DESIGN.md vocabulary). tunables maps a tunable's name (e.g. "tile_x",
/// "block_x", "w", "strip_h", "depth") to its value; std::map keeps the key canonical.
struct Config {
  std::string variant;               ///< e.g. "kokkos_global", "global", "shared_pipeline"
  std::string precision = "f32";     ///< "f32" | "f16" | "mixed"
  std::map<std::string, int> tunables;
  int clock_mhz = 0;                 ///< requested GPU clock; 0 = not controlled (observed one is recorded)
  Tvl1Params params;

  /// Canonical, stable text key, e.g.
  /// "kokkos_global f32 tile_x=32 tile_y=4 clock=0 it=10 ws=1 sc=3 zoom=0.5 eps=0".
  /// Two configs are the same point iff their keys are equal (the DB's identity).
  std::string key() const;
  /// Human-readable short label, e.g. "shared_pipeline f32 w=256 depth=7".
  std::string label() const;
  /// Tunables as a JSON object text, e.g. {"tile_x":32,"tile_y":4}.
  std::string tunables_json() const;
  /// Value of a tunable; throws std::out_of_range naming the tunable when absent.
  int tunable(const std::string& name) const;
};

}  // namespace flowtune
