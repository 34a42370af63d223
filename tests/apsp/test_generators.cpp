// The APSP input generators (Marras et al. sec. 4.1: dual graphs of closed triangle meshes,
// every node of degree 3) and the seeded random graphs.
#include <gtest/gtest.h>

#include <cmath>

#include "kernels/apsp/graph.hpp"
#include "kernels/apsp/mesh.hpp"
#include "kernels/apsp/random_graph.hpp"

namespace flowtune::apsp {
namespace {

TEST(Icosphere, Has20Times4PowKFacesOnTheUnitSphere) {
  int expected = 20;
  for (int k = 0; k <= 4; ++k, expected *= 4) {
    const TriMesh mesh = icosphere(k);
    EXPECT_EQ(int(mesh.faces.size()), expected) << "k=" << k;
    EXPECT_EQ(int(mesh.vertices.size()), expected / 2 + 2) << "k=" << k;  // Euler: V = F/2 + 2
    for (const auto& v : mesh.vertices)
      EXPECT_NEAR(std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]), 1.0, 1e-12);
  }
  EXPECT_THROW(icosphere(-1), std::invalid_argument);
  EXPECT_THROW(icosphere(9), std::invalid_argument);
}

void expect_cubic_symmetric(const Graph& g) {
  ASSERT_TRUE(is_symmetric(g.weights)) << g.name;
  for (int i = 0; i < g.n(); ++i) {
    ASSERT_EQ(out_degree(g.weights, i), 3) << g.name << " node " << i;
    EXPECT_EQ(g.weights.at(i, i), 0);
    for (int j = 0; j < g.n(); ++j)
      if (j != i && g.weights.at(i, j) != kInf) {
        EXPECT_GE(g.weights.at(i, j), 1);
      }
  }
}

TEST(DualGraph, IcosphereDualIsCubicAndSymmetric) {
  for (int k = 0; k <= 3; ++k) {
    const Graph g = dual_graph(icosphere(k), "icosphere:" + std::to_string(k));
    EXPECT_EQ(g.n(), 20 << (2 * k));
    expect_cubic_symmetric(g);
  }
}

TEST(DualGraph, IcosahedronDualWeightIsCentroidDistanceTimes1000) {
  // Adjacent faces of the unit icosahedron: centroids at the inradius r = 0.79465 from the
  // centre, seen under the dihedral supplement 41.81 deg: distance 2 r sin(20.905 deg).
  const Graph g = dual_graph(icosphere(0), "icosphere:0");
  const double pi = std::acos(-1.0);
  const double r = std::sqrt((5.0 + 2.0 * std::sqrt(5.0)) / 15.0);  // inradius / circumradius
  const double angle = pi - std::acos(-std::sqrt(5.0) / 3.0);       // pi - dihedral
  const auto expected = Dist(std::lround(1000.0 * 2.0 * r * std::sin(angle / 2.0)));
  for (int i = 0; i < g.n(); ++i)
    for (int j = 0; j < g.n(); ++j)
      if (j != i && g.weights.at(i, j) != kInf) {
        EXPECT_EQ(g.weights.at(i, j), expected);
      }
}

TEST(DualGraph, TorusDualIsCubicAndSymmetricWith2mnNodes) {
  for (auto [m, n] : {std::pair{3, 3}, {4, 3}, {16, 8}, {25, 20}}) {
    const Graph g = dual_graph(torus(m, n), "torus");
    EXPECT_EQ(g.n(), 2 * m * n);
    expect_cubic_symmetric(g);
  }
  EXPECT_THROW(torus(2, 8), std::invalid_argument);
  EXPECT_THROW(torus(8, 2), std::invalid_argument);
}

TEST(DualGraph, RejectsAnOpenMesh) {
  TriMesh open;
  open.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  open.faces = {{0, 1, 2}};
  EXPECT_THROW(dual_graph(open, "one triangle"), std::invalid_argument);
}

TEST(RandomGraph, IsReproducibleAndSeedDependent) {
  const RandomGraphOptions opt;
  const Graph a = random_graph(64, 7, opt, "a"), b = random_graph(64, 7, opt, "b");
  const Graph c = random_graph(64, 8, opt, "c");
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_NE(a.weights, c.weights);
}

TEST(RandomGraph, HonoursSymmetryDensityAndWeightRange) {
  RandomGraphOptions opt;
  opt.density = 0.3;
  opt.max_weight = 50;
  const Graph g = random_graph(200, 1, opt, "r");
  EXPECT_TRUE(is_symmetric(g.weights));
  long edges = 0;
  for (int i = 0; i < g.n(); ++i)
    for (int j = 0; j < g.n(); ++j) {
      const Dist w = g.weights.at(i, j);
      if (i == j) {
        EXPECT_EQ(w, 0);
      } else if (w != kInf) {
        ++edges;
        EXPECT_GE(w, 1);
        EXPECT_LE(w, 50);
      }
    }
  const double density = double(edges) / (200.0 * 199.0);
  EXPECT_NEAR(density, 0.3, 0.02);

  opt.undirected = false;
  EXPECT_FALSE(is_symmetric(random_graph(200, 1, opt, "d").weights));
  opt.density = 1.5;
  EXPECT_THROW(random_graph(10, 1, opt, "bad"), std::invalid_argument);
}

TEST(Graph, CheckWeightsRejectsBadInputs) {
  DistMatrix w(3);
  EXPECT_NO_THROW(check_weights(w, "ok"));
  w.at(1, 1) = 5;
  EXPECT_THROW(check_weights(w, "diag"), std::invalid_argument);
  w.at(1, 1) = 0;
  w.at(0, 2) = -1;
  EXPECT_THROW(check_weights(w, "negative"), std::invalid_argument);
  EXPECT_THROW(set_undirected_edge(w, 1, 1, 3), std::invalid_argument);
  EXPECT_THROW(set_undirected_edge(w, 0, 3, 3), std::invalid_argument);
  EXPECT_THROW(set_undirected_edge(w, 0, 1, kInf), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune::apsp
