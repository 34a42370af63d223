// GPU tests of fw_tiled and fw_tiled_sym (skipped without a CUDA device): exact agreement
// with repeated Dijkstra for N in {256, 1000, 2048} (torus dual graphs; 1000 is not a
// multiple of any tile) and every valid tile / block combination, a directed graph with
// unreachable pairs, and the workload's runner on its default items.
#include <gtest/gtest.h>

#ifdef FLOWTUNE_HAVE_CUDA

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernels/apsp/dijkstra.hpp"
#include "kernels/apsp/mesh.hpp"
#include "kernels/apsp/random_graph.hpp"
#include "tests/apsp/apsp_config.hpp"
#include "variants/apsp/cuda/fw_tiled_variant.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "workloads/apsp/apsp_workload.hpp"

namespace flowtune {
namespace {

using test::apsp_config;

/// Every valid config of a CUDA APSP variant (30 each).
std::vector<Config> valid_configs(const ApspVariant& v) {
  std::vector<Config> out;
  for (int tile : apsp_cuda::kTileValues)
    for (int bx : apsp_cuda::kBlockXValues)
      for (int by : apsp_cuda::kBlockYValues) {
        Config c = apsp_config(v.name(), tile, bx, by);
        if (!v.invalid_reason(c)) out.push_back(c);
      }
  return out;
}

long mismatches(const apsp::DistMatrix& got, const apsp::DistMatrix& expected) {
  if (got.n != expected.n) return -1;
  long m = 0;
  for (std::size_t e = 0; e < got.d.size(); ++e) m += got.d[e] != expected.d[e];
  return m;
}

class FwTiledGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!cuda::device_available()) GTEST_SKIP() << "no CUDA device";
  }
};

TEST_F(FwTiledGpu, EveryConfigEqualsTheReferenceOnTorusDuals) {
  struct Case {
    apsp::Graph graph;
    apsp::DistMatrix reference;
  };
  std::vector<Case> cases;
  for (auto [m, n] : {std::pair{16, 8}, {25, 20}, {32, 32}}) {  // N = 256, 1000, 2048
    apsp::Graph g = apsp::dual_graph(apsp::torus(m, n), "torus");
    g.name = "torus:" + std::to_string(m) + "x" + std::to_string(n);
    apsp::DistMatrix ref = apsp::repeated_dijkstra(g.weights);
    cases.push_back({std::move(g), std::move(ref)});
  }
  for (const ApspVariant* v :
       {&apsp_cuda::fw_tiled_variant(), &apsp_cuda::fw_tiled_sym_variant()}) {
    const auto configs = valid_configs(*v);
    ASSERT_EQ(configs.size(), 30u);
    for (const Config& c : configs) {
      auto solver = v->make_solver(c);
      for (const Case& k : cases)
        EXPECT_EQ(mismatches(solver->solve(k.graph), k.reference), 0)
            << c.label() << " on " << k.graph.name << " (N = " << k.graph.n() << ")";
    }
  }
}

TEST_F(FwTiledGpu, DirectedGraphWithUnreachablePairs) {
  apsp::RandomGraphOptions opt;
  opt.undirected = false;
  opt.density = 0.002;  // ~2 out-edges per node: many unreachable pairs
  const apsp::Graph g = apsp::random_graph(1000, 7, opt, "random-directed:1000");
  const apsp::DistMatrix ref = apsp::repeated_dijkstra(g.weights);
  long unreachable = 0;
  for (apsp::Dist d : ref.d) unreachable += d == apsp::kInf;
  ASSERT_GT(unreachable, 0);
  for (const Config& c : valid_configs(apsp_cuda::fw_tiled_variant()))
    EXPECT_EQ(mismatches(apsp_cuda::fw_tiled_variant().make_solver(c)->solve(g), ref), 0)
        << c.label();
  // The lower-triangle scheme solves undirected graphs only.
  auto sym = apsp_cuda::fw_tiled_sym_variant().make_solver(apsp_config("fw_tiled_sym", 32, 32, 8));
  EXPECT_THROW(sym->solve(g), std::invalid_argument);
}

TEST_F(FwTiledGpu, SmallAndRepeatedSolvesReuseTheSolver) {
  auto solver =
      apsp_cuda::fw_tiled_sym_variant().make_solver(apsp_config("fw_tiled_sym", 16, 8, 4));
  for (int k : {0, 1, 2, 0}) {  // N = 20 (one tile), 80, 320, then smaller again
    const apsp::Graph g = apsp::dual_graph(apsp::icosphere(k), "icosphere");
    EXPECT_EQ(mismatches(solver->solve(g), apsp::repeated_dijkstra(g.weights)), 0) << k;
  }
}

TEST_F(FwTiledGpu, WorkloadRunnersPassOnTheDefaultItems) {
  const auto inputs = apsp_workload().load_inputs({});
  for (const char* variant : {"fw_tiled", "fw_tiled_sym"}) {
    auto runner = apsp_workload().make_runner(apsp_config(variant, 32, 32, 8), *inputs);
    for (std::size_t i = 0; i < inputs->size(); ++i) {
      runner->run(i);
      EXPECT_EQ(runner->score(i), (std::map<std::string, double>{{"mismatches", 0}}))
          << variant << " " << inputs->item_name(i);
    }
  }
}

}  // namespace
}  // namespace flowtune

#endif  // FLOWTUNE_HAVE_CUDA
