// The named inputs of the APSP workload: "icosphere:K", "torus:MxN", "random:N".
#pragma once

#include <string>
#include <vector>

#include "kernels/apsp/graph.hpp"

namespace flowtune::apsp {

/// Largest N an item may have (the dense matrix is N^2 * 4 bytes: 4 GiB at 32768).
inline constexpr int kMaxItemNodes = 32768;

/// Seed of every "random:N" item (fixed, so a name is one graph everywhere).
inline constexpr unsigned kRandomItemSeed = 20110901;

/// Builds the graph named `item`:
///  - "icosphere:K": dual graph of the icosahedron subdivided K times (Marras et al. sec. 4.1
///    meshes), N = 20 * 4^K (K = 2: 320, 3: 1280, 4: 5120, 5: 20480);
///  - "torus:MxN": dual graph of an M x N quad grid on a torus, quads split in 2 triangles,
///    N = 2 M N nodes (M, N >= 3);
///  - "random:N": undirected random graph, N nodes, edge density 0.5, weights in [1, 1000],
///    seed kRandomItemSeed.
/// All are undirected (symmetric), so every APSP variant applies. The graph's name is
/// `item`. Throws std::runtime_error naming the item and the accepted forms for a malformed
/// name or a size outside the limits (N <= kMaxItemNodes).
Graph make_item_graph(const std::string& item);

/// The default items: a small representative set (one per family) that the CPU variants
/// solve in seconds on 2 cores: {"icosphere:2", "torus:24x16", "random:512"}.
std::vector<std::string> default_items();

}  // namespace flowtune::apsp
