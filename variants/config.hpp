// One point of the design space: workload + variant + precision + tunables + clock +
// algorithm parameters (ARCHITECTURE.md vocabulary).
#pragma once

#include <map>
#include <string>

namespace flowtune {

/// Values of a workload's parameters by name (the schema is the workload's ParamSpec list);
/// std::map keeps the order canonical. Integer parameters hold whole numbers.
using ParamValues = std::map<std::string, double>;

/// A config. tunables maps a tunable's name (e.g. "tile_x", "block_x", "w", "depth") to its
/// value; params maps a parameter's name (e.g. "lambda", "n_warpings") to its value.
struct Config {
  std::string workload = "tvl1";  ///< e.g. "tvl1", "apsp"
  std::string variant;            ///< e.g. "kokkos_global", "global", "fw_tiled"
  std::string precision = "f32";  ///< "f32" | "f16" | "mixed" (workload-dependent)
  std::map<std::string, int> tunables;
  int clock_mhz = 0;  ///< requested GPU clock; 0 = not controlled (observed one is recorded)
  ParamValues params;

  /// Short label: variant, precision and tunables, e.g. "shared_pipeline f32 w=256 depth=7".
  std::string label() const;
  /// The parameters as "name=value" pairs in name order, shortest round-trip decimals,
  /// e.g. "epsilon=0.01 iterations=300 lambda=0.15".
  std::string params_text() const;
  /// Value of a tunable; throws std::out_of_range naming the tunable when absent.
  int tunable(const std::string& name) const;
  /// Value of a parameter; throws std::out_of_range naming the parameter when absent.
  double param(const std::string& name) const;
};

/// Shortest decimal text that reads back as exactly `value` ("0.15", "300", "1e-05").
std::string shortest_decimal(double value);

}  // namespace flowtune
