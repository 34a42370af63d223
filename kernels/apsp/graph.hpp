// The APSP workload's graph and distance-matrix types (Marras et al., sec. 4.1): a dense
// N x N matrix of integer path lengths, so that every algorithm (Floyd-Warshall, blocked,
// tiled on the GPU, repeated Dijkstra) must agree exactly.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flowtune::apsp {

/// A path length (edge weight or distance), in the generator's integer unit (for mesh
/// dual graphs: 1/1000 of the mesh's length unit). Non-negative.
using Dist = std::int32_t;

/// "No path": larger than any distance a generator can produce, and INF + INF still fits in
/// an int32 (2 * 0x3FFFFFFF = 0x7FFFFFFE), so a relaxation d[i][k] + d[k][j] never overflows
/// and an unreachable pair stays exactly kInf.
inline constexpr Dist kInf = 0x3FFFFFFF;

/// Dense N x N matrix, row-major: element (i, j) is d[i * n + j], the length from node i to
/// node j. As an APSP input it is d^0 of Marras et al. sec. 4.1: 0 on the diagonal, the edge
/// weight for an edge (i, j), kInf otherwise; as an output, the shortest-path distances.
struct DistMatrix {
  int n = 0;
  std::vector<Dist> d;

  DistMatrix() = default;
  /// n x n, every entry kInf except a 0 diagonal. Throws std::invalid_argument for n < 0.
  explicit DistMatrix(int n_nodes);
  Dist& at(int i, int j) { return d[std::size_t(i) * std::size_t(n) + std::size_t(j)]; }
  Dist at(int i, int j) const { return d[std::size_t(i) * std::size_t(n) + std::size_t(j)]; }
  bool operator==(const DistMatrix& o) const { return n == o.n && d == o.d; }
  bool operator!=(const DistMatrix& o) const { return !(*this == o); }
};

/// An APSP input: its initial distance matrix d^0 and a name (e.g. "torus:32x16").
struct Graph {
  std::string name;
  DistMatrix weights;
  int n() const { return weights.n; }
};

/// Sets the weight of the undirected edge {i, j} (both directions). Throws
/// std::invalid_argument for i == j, an index outside [0, n) or a weight outside [0, kInf).
void set_undirected_edge(DistMatrix& w, int i, int j, Dist weight);

/// True when w(i, j) == w(j, i) for every pair (an undirected graph).
bool is_symmetric(const DistMatrix& w);

/// Checks that w is a valid APSP input: n >= 0, size n*n, zero diagonal, every entry in
/// [0, kInf]. Throws std::invalid_argument naming the first bad entry; `what` prefixes it.
void check_weights(const DistMatrix& w, const std::string& what);

/// Number of edges (entries off the diagonal that are not kInf) leaving node i.
int out_degree(const DistMatrix& w, int i);

}  // namespace flowtune::apsp
