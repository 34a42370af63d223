// The deployment library's solver object (api/flowtune/flowtune.hpp, flowtune::Tvl1Solver),
// linked as a user links it (flowtune::tvl1 only): the host API against compute_flow, the
// caller's FlowField reused, and, on a GPU, the device-pointer API against the host API bit
// for bit on a real Middlebury pair (RubberWhale). GPU tests skip without a device or in a
// build without CUDA.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <flowtune/flowtune.hpp>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "variants/tvl1_params_of.hpp"  // in-tree: the full parameter set of a config

#ifdef FLOWTUNE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

/// RubberWhale's frames: under $FLOWTUNE_REPO_DATA, else the source tree's data/, else ./data
/// (the device scripts run in the repository root of another checkout).
std::string pair_file(const char* name) {
  std::string root = FLOWTUNE_TEST_REPO_DATA;
  if (const char* env = std::getenv("FLOWTUNE_REPO_DATA"); env && *env)
    root = env;
  else if (!std::filesystem::exists(root))
    root = "data";
  return root + "/middlebury/RubberWhale/" + name;
}

/// The default frame (3 scales, 1 warping, 10 iterations) of `variant`.
flowtune::TunedConfig config_of(const std::string& variant, const std::string& precision,
                                std::map<std::string, int> tunables) {
  flowtune::TunedConfig c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = precision;
  c.tunables = std::move(tunables);
  flowtune::Tvl1Params p;  // defaults, then the default frame
  p.n_scales = 3;
  p.n_warpings = 1;
  p.iterations = 10;
  p.epsilon = 0;
  c.params = flowtune::param_values_of(p);
  return c;
}

// Host variant: the solver's frames equal compute_flow's bit for bit, and the device API is
// refused with a message naming the variant.
TEST(Tvl1Solver, HostApiEqualsComputeFlowAndReusesTheCallersBuffer) {
  const auto i0 = flowtune::read_png_gray(pair_file("frame10.png"));
  const auto i1 = flowtune::read_png_gray(pair_file("frame11.png"));
  const auto c = config_of("kokkos_global", "f32", {{"tile_x", 32}, {"tile_y", 4}});
  const flowtune::FlowField once = flowtune::compute_flow(i0, i1, c);
  flowtune::Tvl1Solver solver(c);
  flowtune::FlowField flow;
  solver.compute(i0, i1, flow);
  solver.compute(i0, i1, flow);
  EXPECT_TRUE(flow.u == once.u && flow.v == once.v);
  EXPECT_EQ(flow.width, i0.width);
  float x = 0;
  try {
    solver.compute_device(&x, &x, 1, 1, &x, nullptr);
    ADD_FAILURE() << "compute_device accepted a host variant";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kokkos_global"), std::string::npos) << e.what();
  }
  EXPECT_THROW(solver.compute(i0, flowtune::Image(4, 4)), std::invalid_argument);
  EXPECT_THROW(flowtune::Tvl1Solver(config_of("nope", "f32", {})), std::invalid_argument);
}

#ifdef FLOWTUNE_HAVE_CUDA
bool have_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return ok;
}

// The device-pointer API on frames uploaded by the caller, on the caller's stream, equals the
// host API bit for bit (first frame: direct launches; then the size's CUDA Graph); the host
// API writes a reused FlowField in place.
TEST(Tvl1Solver, DevicePointerApiEqualsHostApiOnRubberWhale) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto i0 = flowtune::read_png_gray(pair_file("frame10.png"));
  const auto i1 = flowtune::read_png_gray(pair_file("frame11.png"));
  const std::size_t n = i0.size();
  for (const auto& c :
       {config_of("shared_fusion", "f16",
                  {{"block_x", 32}, {"block_y", 8}, {"resident_px", 1024}, {"tiled_px", 65536}}),
        config_of("shared_fusion", "f32",
                  {{"block_x", 32}, {"block_y", 8}, {"resident_px", 1024}, {"tiled_px", 65536}})}) {
    flowtune::FlowField host;
    {
      flowtune::Tvl1Solver host_solver(c);
      host_solver.compute(i0, i1, host);
      const float* storage = host.u.data();
      host_solver.compute(i0, i1, host);  // the graph; same size: written in place
      EXPECT_EQ(host.u.data(), storage);
    }
    flowtune::Tvl1Solver solver(c);
    float *d_i0 = nullptr, *d_i1 = nullptr, *d_flow = nullptr;
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_i0), n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_i1), n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_flow), 2 * n * sizeof(float)), cudaSuccess);
    cudaMemcpy(d_i0, i0.data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_i1, i1.data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    for (int frame = 0; frame < 3; ++frame) {
      cudaMemset(d_flow, 0xff, 2 * n * sizeof(float));  // NaN: a flow not written shows
      cudaDeviceSynchronize();
      solver.compute_device(d_i0, d_i1, i0.width, i0.height, d_flow, stream);
      ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
      std::vector<float> uv(2 * n);
      cudaMemcpy(uv.data(), d_flow, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
      const std::vector<float> u(uv.begin(), uv.begin() + std::ptrdiff_t(n));
      const std::vector<float> v(uv.begin() + std::ptrdiff_t(n), uv.end());
      EXPECT_TRUE(u == host.u) << c.variant << " " << c.precision << " frame " << frame;
      EXPECT_TRUE(v == host.v) << c.variant << " " << c.precision << " frame " << frame;
    }
    EXPECT_THROW(solver.compute_device(nullptr, d_i1, i0.width, i0.height, d_flow, stream),
                 std::invalid_argument);
    cudaStreamDestroy(stream);
    cudaFree(d_i0);
    cudaFree(d_i1);
    cudaFree(d_flow);
  }
}
#endif

}  // namespace
