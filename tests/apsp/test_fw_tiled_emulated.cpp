// The device code of fw_tiled and fw_tiled_sym (kernels/cuda/apsp_fw_tiled*.cuh) run on the
// host by cuda_host_emulation.hpp (no GPU needed): exact agreement with plain Floyd-Warshall
// for N below, at and not at a multiple of the tile. Config: tile 16, block 8 x 4 (each
// thread 2 x 4 entries); test_fw_tiled_emulated_t8.cpp covers tile 8, block 8 x 8.
#include <gtest/gtest.h>

#include "kernels/apsp/floyd_warshall.hpp"
#include "kernels/apsp/mesh.hpp"
#include "kernels/apsp/random_graph.hpp"

// The emulated build: its constants, then the device code (emulated_fw_tiled.hpp).
#define FT_TILE 16
#define FT_BLOCK_X 8
#define FT_BLOCK_Y 4
#define EMU_NS emu_t16
#include "tests/apsp/emulated_fw_tiled.hpp"

namespace flowtune::apsp {
namespace {

Graph directed(int n, double density, unsigned seed) {
  RandomGraphOptions opt;
  opt.undirected = false;
  opt.density = density;
  return random_graph(n, seed, opt, "directed");
}

TEST(FwTiledEmulatedT16, DirectedEqualsFloydWarshall) {
  for (int n : {10, 16, 48, 100}) {
    const Graph g = directed(n, 0.08, unsigned(n));
    EXPECT_EQ(emu_t16::emulated_solve(g.weights, false), floyd_warshall(g.weights)) << "n=" << n;
  }
}

TEST(FwTiledEmulatedT16, LowerTriangleEqualsFloydWarshall) {
  const Graph mesh = dual_graph(torus(5, 7), "torus:5x7");  // 70 nodes
  EXPECT_EQ(emu_t16::emulated_solve(mesh.weights, true), floyd_warshall(mesh.weights));
  for (int n : {10, 32, 100}) {
    RandomGraphOptions opt;
    opt.density = 0.05;
    const Graph g = random_graph(n, unsigned(n), opt, "undirected");
    EXPECT_EQ(emu_t16::emulated_solve(g.weights, true), floyd_warshall(g.weights)) << "n=" << n;
  }
}

TEST(FwTiledEmulatedT16, DirectedKernelOnAMeshToo) {
  const Graph mesh = dual_graph(icosphere(1), "icosphere:1");  // 80 nodes
  EXPECT_EQ(emu_t16::emulated_solve(mesh.weights, false), floyd_warshall(mesh.weights));
}

}  // namespace
}  // namespace flowtune::apsp
