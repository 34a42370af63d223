// Repeated Dijkstra, the CPU baseline of Marras et al. (sec. 4.1: O(N^2 log N) on the
// degree-3 dual graph; sec. 5.2, fig. 7: single-thread CPU timings), and the oracle of the
// APSP workload (an algorithm independent of Floyd-Warshall).
#pragma once

#include <utility>
#include <vector>

#include "kernels/apsp/graph.hpp"

namespace flowtune::apsp {

/// Out-edges of every node: adj[i] = {(j, weight of i -> j)} for every j != i with
/// w(i, j) != kInf, in increasing j.
using Adjacency = std::vector<std::vector<std::pair<int, Dist>>>;

/// The adjacency lists of input w. O(N^2). Throws std::invalid_argument for an invalid w
/// (check_weights).
Adjacency adjacency_of(const DistMatrix& w);

/// Shortest distances from `source` (a row of the APSP result): Dijkstra with a binary heap
/// (std::priority_queue, lazy deletion), O((N + E) log N). n = adj.size(); unreachable
/// nodes get kInf. Throws std::invalid_argument for a source outside [0, n).
std::vector<Dist> dijkstra(const Adjacency& adj, int source);

/// All-pairs shortest paths by one dijkstra() per source node; the same N x N matrix as
/// floyd_warshall(w). threads = 1 (default): single thread, the paper's single-thread
/// baseline; threads > 1: the sources split over that many std::threads (the multi-thread
/// CPU version of sec. 5.2), same result. Throws std::invalid_argument for an invalid w or
/// threads < 1.
DistMatrix repeated_dijkstra(const DistMatrix& w, int threads = 1);

}  // namespace flowtune::apsp
