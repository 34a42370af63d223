// CPU APSP references: plain Floyd-Warshall, blocked Floyd-Warshall (Marras et al. sec. 4.1,
// fig. 1, on the host) and repeated Dijkstra (sec. 5.2) must agree exactly.
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "kernels/apsp/dijkstra.hpp"
#include "kernels/apsp/floyd_warshall.hpp"
#include "kernels/apsp/graph.hpp"
#include "kernels/apsp/mesh.hpp"
#include "kernels/apsp/random_graph.hpp"

namespace flowtune::apsp {
namespace {

/// 0->1 (5), 0->3 (10), 1->2 (3), 2->3 (1), 3->0 (2): a directed 4-cycle with a chord.
DistMatrix four_nodes() {
  DistMatrix w(4);
  w.at(0, 1) = 5;
  w.at(0, 3) = 10;
  w.at(1, 2) = 3;
  w.at(2, 3) = 1;
  w.at(3, 0) = 2;
  return w;
}

/// Worked by hand: e.g. 2 -> 1 is 2->3->0->1 = 1 + 2 + 5 = 8; 0 -> 3 is 0->1->2->3 = 9 < 10.
const std::vector<Dist> kFourNodesDistances = {0, 5, 8,  9,  //
                                               6, 0, 3,  4,  //
                                               3, 8, 0,  1,  //
                                               2, 7, 10, 0};

TEST(CpuApsp, HandComputedFourNodeGraph) {
  const DistMatrix w = four_nodes();
  EXPECT_EQ(floyd_warshall(w).d, kFourNodesDistances);
  EXPECT_EQ(repeated_dijkstra(w).d, kFourNodesDistances);
  for (int tile : {1, 2, 3, 4, 5})
    EXPECT_EQ(floyd_warshall_blocked(w, tile).d, kFourNodesDistances);
}

TEST(CpuApsp, UnreachablePairsStayInf) {
  // Two triangles {0,1,2} and {3,4,5}, plus a one-way bridge 2 -> 3.
  DistMatrix w(6);
  set_undirected_edge(w, 0, 1, 4);
  set_undirected_edge(w, 1, 2, 4);
  set_undirected_edge(w, 0, 2, 9);
  set_undirected_edge(w, 3, 4, 1);
  set_undirected_edge(w, 4, 5, 1);
  set_undirected_edge(w, 3, 5, 1);
  w.at(2, 3) = 7;
  for (const DistMatrix& d :
       {floyd_warshall(w), repeated_dijkstra(w), floyd_warshall_blocked(w, 4)}) {
    for (int i = 3; i < 6; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_EQ(d.at(i, j), kInf) << i << "," << j;
    EXPECT_EQ(d.at(0, 2), 8);
    EXPECT_EQ(d.at(0, 5), 8 + 7 + 1);
  }
  DistMatrix isolated(3);  // no edge at all
  EXPECT_EQ(floyd_warshall(isolated), isolated);
  EXPECT_EQ(repeated_dijkstra(isolated), isolated);
}

void expect_fw_equals_dijkstra(const Graph& g) {
  const DistMatrix reference = repeated_dijkstra(g.weights);
  const DistMatrix fw = floyd_warshall(g.weights);
  ASSERT_EQ(fw.n, g.n());
  long mismatches = 0;
  for (std::size_t e = 0; e < fw.d.size(); ++e) mismatches += fw.d[e] != reference.d[e];
  EXPECT_EQ(mismatches, 0) << g.name;
  // Not vacuous: a connected graph has no kInf left, and distances grow beyond one edge.
  Dist longest = 0;
  for (Dist v : fw.d) longest = std::max(longest, v);
  EXPECT_GT(longest, 0) << g.name;
}

TEST(CpuApsp, FloydWarshallEqualsRepeatedDijkstraOnEveryFamily) {
  expect_fw_equals_dijkstra(dual_graph(icosphere(2), "icosphere:2"));
  expect_fw_equals_dijkstra(dual_graph(torus(12, 10), "torus:12x10"));
  expect_fw_equals_dijkstra(random_graph(150, 3, RandomGraphOptions{}, "random:150"));
  RandomGraphOptions sparse_directed;
  sparse_directed.density = 0.01;  // sparse enough to leave unreachable pairs
  sparse_directed.undirected = false;
  const Graph g = random_graph(200, 5, sparse_directed, "random-directed:200");
  expect_fw_equals_dijkstra(g);
  long unreachable = 0;
  for (Dist v : floyd_warshall(g.weights).d) unreachable += v == kInf;
  EXPECT_GT(unreachable, 0);
}

TEST(CpuApsp, MultiThreadDijkstraEqualsSingleThread) {
  const Graph g = dual_graph(torus(10, 7), "torus:10x7");
  const DistMatrix one = repeated_dijkstra(g.weights);
  for (int threads : {2, 3, 8, 500}) EXPECT_EQ(repeated_dijkstra(g.weights, threads), one);
  EXPECT_THROW(repeated_dijkstra(g.weights, 0), std::invalid_argument);
}

TEST(CpuApsp, MeshDistancesAreSymmetricAndConnected) {
  const DistMatrix d = floyd_warshall(dual_graph(torus(6, 5), "t").weights);
  EXPECT_TRUE(is_symmetric(d));
  for (Dist v : d.d) EXPECT_LT(v, kInf);
}

TEST(CpuApsp, BlockedEqualsPlainForNNotAMultipleOfTheTile) {
  RandomGraphOptions directed;
  directed.undirected = false;
  directed.density = 0.05;
  const Graph g = random_graph(150, 11, directed, "random-directed:150");
  const DistMatrix plain = floyd_warshall(g.weights);
  for (int tile : {1, 7, 16, 32, 64, 149, 150, 151, 512})
    EXPECT_EQ(floyd_warshall_blocked(g.weights, tile), plain) << "tile " << tile;
  const Graph mesh = dual_graph(icosphere(1), "icosphere:1");  // N = 80
  EXPECT_EQ(floyd_warshall_blocked(mesh.weights, 32), floyd_warshall(mesh.weights));
  EXPECT_THROW(floyd_warshall_blocked(g.weights, 0), std::invalid_argument);
}

TEST(CpuApsp, RejectsInvalidInput) {
  DistMatrix w(3);
  w.at(0, 0) = 1;
  EXPECT_THROW(floyd_warshall(w), std::invalid_argument);
  EXPECT_THROW(repeated_dijkstra(w), std::invalid_argument);
  EXPECT_THROW(dijkstra(Adjacency(3), 3), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune::apsp
