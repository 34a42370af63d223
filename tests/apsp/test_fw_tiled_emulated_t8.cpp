// As test_fw_tiled_emulated.cpp with tile 8, block 8 x 8 (one entry per thread). The .cuh
// names are renamed so that both emulated builds link into one test binary.
#include <gtest/gtest.h>

#include "kernels/apsp/floyd_warshall.hpp"
#include "kernels/apsp/random_graph.hpp"

// The emulated build: its constants, then the device code (emulated_fw_tiled.hpp).
#define FT_TILE 8
#define FT_BLOCK_X 8
#define FT_BLOCK_Y 8
#define EMU_NS emu_t8
#define ftapsp ftapsp_t8
#define ft_apsp_tile ft_apsp_tile_t8
#define ft_apsp_sym_tile ft_apsp_sym_tile_t8
#define ft_apsp_sym_load ft_apsp_sym_load_t8
#define apsp_fw_stage1 apsp_fw_stage1_t8
#define apsp_fw_stage2 apsp_fw_stage2_t8
#define apsp_fw_stage3 apsp_fw_stage3_t8
#define apsp_fw_sym_stage1 apsp_fw_sym_stage1_t8
#define apsp_fw_sym_stage2 apsp_fw_sym_stage2_t8
#define apsp_fw_sym_stage3 apsp_fw_sym_stage3_t8
#include "tests/apsp/emulated_fw_tiled.hpp"

namespace flowtune::apsp {
namespace {

TEST(FwTiledEmulatedT8, BothSchemesEqualFloydWarshall) {
  for (int n : {5, 8, 41}) {
    RandomGraphOptions opt;
    opt.density = 0.1;
    const Graph sym = random_graph(n, 99, opt, "undirected");
    EXPECT_EQ(emu_t8::emulated_solve(sym.weights, true), floyd_warshall(sym.weights)) << n;
    opt.undirected = false;
    const Graph dir = random_graph(n, 98, opt, "directed");
    EXPECT_EQ(emu_t8::emulated_solve(dir.weights, false), floyd_warshall(dir.weights)) << n;
  }
}

}  // namespace
}  // namespace flowtune::apsp
