// Test-only: the Middlebury pair and the configs the deployment-library tests run.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <flowtune/flowtune.hpp>
#include <map>
#include <string>
#include <utility>

#include "variants/tvl1_params_of.hpp"  // in-tree: the full parameter set of a config

namespace flowtune::test {

/// RubberWhale's frame `name`: under $FLOWTUNE_REPO_DATA, else the source tree's data/, else
/// ./data (benchmark runs on the GPU machine start in the repository root of another checkout).
inline std::string pair_file(const char* name) {
  std::string root = FLOWTUNE_TEST_REPO_DATA;
  if (const char* env = std::getenv("FLOWTUNE_REPO_DATA"); env && *env)
    root = env;
  else if (!std::filesystem::exists(root))
    root = "data";
  return root + "/middlebury/RubberWhale/" + name;
}

/// The default frame (3 scales, 1 warping, 10 iterations, no stopping test) of `variant`.
inline TunedConfig config_of(const std::string& variant, const std::string& precision,
                             std::map<std::string, int> tunables) {
  TunedConfig c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = precision;
  c.tunables = std::move(tunables);
  Tvl1Params p;  // defaults, then the default frame
  p.n_scales = 3;
  p.n_warpings = 1;
  p.iterations = 10;
  p.epsilon = 0;
  c.params = param_values_of(p);
  return c;
}

}  // namespace flowtune::test
