// Seeded random dense graphs for the APSP workload (the dense case that Floyd-Warshall is
// made for, Marras et al. sec. 4.1), reproducible across compilers and platforms.
#pragma once

#include <cstdint>
#include <string>

#include "kernels/apsp/graph.hpp"

namespace flowtune::apsp {

/// Options of random_graph.
struct RandomGraphOptions {
  double density = 0.5;    ///< probability of each edge (each unordered pair if undirected)
  Dist max_weight = 1000;  ///< weights uniform in [1, max_weight]
  bool undirected = true;  ///< true: symmetric weights (what fw_tiled_sym needs)
};

/// n nodes; each pair gets an edge with probability options.density and an integer weight in
/// [1, options.max_weight]. The values depend only on (n, seed, options): they come from the
/// raw output of std::mt19937_64 (fully specified by the standard), never from a library's
/// distribution. Named `name`. Throws std::invalid_argument for n < 0, density outside
/// [0, 1] or max_weight outside [1, 1000000].
Graph random_graph(int n, std::uint64_t seed, const RandomGraphOptions& options,
                   const std::string& name);

}  // namespace flowtune::apsp
