// The deployment library's solver object (api/flowtune/flowtune.hpp, flowtune::Tvl1Solver),
// linked as a user links it (flowtune::tvl1 only): the host API against compute_flow, the
// caller's FlowField reused, and, on a GPU, the device-pointer API (packed and pitched) against
// the host API bit for bit on a real Middlebury pair (RubberWhale). GPU tests skip without a device
// or in a build without CUDA.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <flowtune/flowtune.hpp>
#include <fstream>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "tests/api/api_config.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

using flowtune::test::config_of;
using flowtune::test::pair_file;

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
  try {
    solver.compute_device_pitched(&x, 4, &x, 4, 1, 1, &x, 8, nullptr);
    ADD_FAILURE() << "compute_device_pitched accepted a host variant";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("kokkos_global"), std::string::npos) << e.what();
  }
  EXPECT_THROW(solver.compute(i0, flowtune::Image(4, 4)), std::invalid_argument);
  EXPECT_THROW(flowtune::Tvl1Solver(config_of("nope", "f32", {})), std::invalid_argument);
}

/// The JSON of a config as `tune export` writes it into a header's config line.
std::string config_json(const flowtune::TunedConfig& c) {
  std::string j = "{\"clock_mhz\":0,\"params\":{";
  for (const auto& [name, value] : c.params)
    j += (j.back() == '{' ? "\"" : ",\"") + name + "\":" + std::to_string(value);
  j += "},\"precision\":\"" + c.precision + "\",\"tunables\":{";
  for (const auto& [name, value] : c.tunables)
    j += (j.back() == '{' ? "\"" : ",\"") + name + "\":" + std::to_string(value);
  return j + "},\"variant\":\"" + c.variant + "\",\"workload\":\"tvl1\"}";
}

// A header tuned at two sizes: each frame size runs the config tuned nearest to it (by pixel
// count), with the flow of a Tvl1Solver of that config bit for bit; a header without the
// board asked for is refused naming the file.
TEST(Tvl1SizedSolver, EachFrameSizeRunsTheConfigTunedNearestToIt) {
  auto small = config_of("kokkos_global", "f32", {{"tile_x", 16}, {"tile_y", 4}});
  auto large = config_of("kokkos_global", "f32", {{"tile_x", 32}, {"tile_y", 4}});
  small.params["iterations"] = 5;
  large.params["iterations"] = 20;
  const std::string header =
      (std::filesystem::temp_directory_path() / "flowtune_test_api_sized.h").string();
  {
    std::ofstream out(header);
    out << "// flowtune-config[host@160x120]: " << config_json(small) << "\n"
        << "// flowtune-config[host@640x480]: " << config_json(large) << "\n";
  }
  flowtune::Tvl1SizedSolver sized(header);
  // 200x150 is 1.56x the pixels of 160x120 and 0.098x those of 640x480.
  EXPECT_EQ(sized.tuned_size_for(200, 150), std::make_pair(160, 120));
  EXPECT_EQ(sized.tuned_size_for(584, 388), std::make_pair(640, 480));
  EXPECT_EQ(sized.config_for(584, 388).params.at("iterations"), 20);
  EXPECT_EQ(flowtune::read_tuned_config(header, "host", 200, 150).params.at("iterations"), 5);
  const auto i0 = flowtune::read_png_gray(pair_file("frame10.png"));
  const auto i1 = flowtune::read_png_gray(pair_file("frame11.png"));
  flowtune::Image c0(200, 150), c1(200, 150);  // a 200x150 crop of RubberWhale
  for (int y = 0; y < 150; ++y)
    for (int x = 0; x < 200; ++x) {
      c0.at(x, y) = i0.at(x + 100, y + 100);
      c1.at(x, y) = i1.at(x + 100, y + 100);
    }
  flowtune::FlowField crop_flow, full_flow;
  sized.compute(c0, c1, crop_flow);
  sized.compute(i0, i1, full_flow);
  const flowtune::FlowField crop_ref = flowtune::Tvl1Solver(small).compute(c0, c1);
  const flowtune::FlowField full_ref = flowtune::Tvl1Solver(large).compute(i0, i1);
  EXPECT_TRUE(crop_flow.u == crop_ref.u && crop_flow.v == crop_ref.v);
  EXPECT_TRUE(full_flow.u == full_ref.u && full_flow.v == full_ref.v);
  try {
    flowtune::Tvl1SizedSolver none(header, "h200");
    ADD_FAILURE() << "a board the header does not hold was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(header), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("host@160x120, host@640x480"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(header);
}

/// RubberWhale rounded to 8 bits: bytes with rows `stride` apart (padding 255, which would
/// change the flow if read) and float frames of the same integer values (the oracle's input).
struct Bytes {
  std::vector<std::uint8_t> b0, b1;
  flowtune::Image f0, f1;
  int stride = 0;
};

Bytes rubberwhale_bytes(int padding) {
  const auto i0 = flowtune::read_png_gray(pair_file("frame10.png"));
  const auto i1 = flowtune::read_png_gray(pair_file("frame11.png"));
  Bytes b;
  b.stride = i0.width + padding;
  b.b0.assign(std::size_t(b.stride) * std::size_t(i0.height), 255);
  b.b1 = b.b0;
  b.f0 = flowtune::Image(i0.width, i0.height);
  b.f1 = flowtune::Image(i0.width, i0.height);
  for (int y = 0; y < i0.height; ++y)
    for (int x = 0; x < i0.width; ++x) {
      const std::size_t j = std::size_t(y) * std::size_t(b.stride) + std::size_t(x);
      b.b0[j] = std::uint8_t(std::lround(i0.at(x, y)));
      b.b1[j] = std::uint8_t(std::lround(i1.at(x, y)));
      b.f0.at(x, y) = float(b.b0[j]);
      b.f1.at(x, y) = float(b.b1[j]);
    }
  return b;
}

// Host variant: the 8-bit API on strided bytes equals compute() on float frames of the same
// values bit for bit; a host variant locks no pages; bad 8-bit arguments are refused.
TEST(Tvl1Solver, EightBitApiEqualsFloatFramesOnAHostVariant) {
  const Bytes b = rubberwhale_bytes(9);
  const auto c = config_of("kokkos_global", "f32", {{"tile_x", 32}, {"tile_y", 4}});
  flowtune::Tvl1Solver solver(c);
  const flowtune::FlowField want = solver.compute(b.f0, b.f1);
  flowtune::FlowField flow;
  solver.compute_u8(b.b0.data(), b.b1.data(), b.f0.width, b.f0.height, b.stride, flow);
  EXPECT_TRUE(flow.u == want.u && flow.v == want.v);
  EXPECT_EQ(flow.width, b.f0.width);
  EXPECT_EQ(solver.page_lock(b.b0.data(), b.b0.size()), nullptr);
  EXPECT_THROW(solver.compute_u8(b.b0.data(), b.b1.data(), 8, 8, 7, flow), std::invalid_argument);
  EXPECT_THROW(solver.compute_u8(nullptr, b.b1.data(), 8, 8, 8, flow), std::invalid_argument);
}

/// The frame `f` in rows of `pad` floats more than its width (an ROI's layout).
std::vector<float> padded_floats(const flowtune::Image& f, int pad) {
  const int stride = f.width + pad;
  std::vector<float> out(std::size_t(stride) * std::size_t(f.height), -1.f);
  for (int y = 0; y < f.height; ++y)
    for (int x = 0; x < f.width; ++x) out[std::size_t(y) * std::size_t(stride) + x] = f.at(x, y);
  return out;
}

/// compute_f32 on packed and padded rows equals compute() on the same frames bit for bit.
void check_strided_floats(const flowtune::TunedConfig& c) {
  const Bytes b = rubberwhale_bytes(3);
  flowtune::Tvl1Solver solver(c);
  const flowtune::FlowField want = solver.compute(b.f0, b.f1);
  for (const int pad : {0, 13}) {
    const std::vector<float> p0 = padded_floats(b.f0, pad), p1 = padded_floats(b.f1, pad);
    const std::ptrdiff_t stride = std::ptrdiff_t(b.f0.width + pad) * 4;
    flowtune::FlowField flow;
    solver.compute_f32(p0.data(), p1.data(), b.f0.width, b.f0.height, stride, flow);
    EXPECT_TRUE(flow.u == want.u && flow.v == want.v) << c.variant << " pad " << pad;
  }
  flowtune::FlowField flow;
  EXPECT_THROW(solver.compute_f32(b.f0.data.data(), b.f1.data.data(), 8, 8, 30, flow),
               std::invalid_argument);  // 30 bytes < 4 x 8
  EXPECT_THROW(solver.compute_f32(nullptr, b.f1.data.data(), 8, 8, 32, flow),
               std::invalid_argument);
}

// Host variant: the float API on strided rows equals compute() bit for bit.
TEST(Tvl1Solver, StridedFloatApiEqualsComputeOnAHostVariant) {
  check_strided_floats(config_of("kokkos_global", "f32", {{"tile_x", 32}, {"tile_y", 4}}));
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

// The device-pointer API on pitched frames (cudaMallocPitch, rows padded as OpenCV's GpuMat
// pads them) and an interleaved, pitched flow equals the packed API bit for bit, on the first
// frame (direct launches) and the next (the size's graph); packed pitches take the packed
// frames' path; too small a pitch is refused.
TEST(Tvl1Solver, PitchedDevicePointerApiEqualsThePackedOneOnRubberWhale) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const auto i0 = flowtune::read_png_gray(pair_file("frame10.png"));
  const auto i1 = flowtune::read_png_gray(pair_file("frame11.png"));
  const int w = i0.width, h = i0.height;
  const std::size_t n = i0.size(), row = std::size_t(w) * sizeof(float);
  for (const auto& c :
       {config_of("shared_fusion", "f16",
                  {{"block_x", 32}, {"block_y", 8}, {"resident_px", 1024}, {"tiled_px", 65536}}),
        config_of("global", "f32", {{"block_x", 32}, {"block_y", 8}})}) {
    flowtune::Tvl1Solver packed_solver(c), solver(c);
    float *d_i0 = nullptr, *d_i1 = nullptr, *d_flow = nullptr, *p_i0 = nullptr, *p_i1 = nullptr,
          *p_flow = nullptr;
    std::size_t pitch0 = 0, pitch1 = 0, flow_pitch = 0;
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_i0), n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_i1), n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d_flow), 2 * n * sizeof(float)), cudaSuccess);
    ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&p_i0), &pitch0, row, std::size_t(h)),
              cudaSuccess);
    ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&p_i1), &pitch1, row, std::size_t(h)),
              cudaSuccess);
    ASSERT_EQ(
        cudaMallocPitch(reinterpret_cast<void**>(&p_flow), &flow_pitch, 2 * row, std::size_t(h)),
        cudaSuccess);
    ASSERT_GT(pitch0, row) << "584 floats are not a multiple of the pitch alignment";
    cudaMemcpy(d_i0, i0.data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_i1, i1.data.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy2D(p_i0, pitch0, i0.data.data(), row, row, std::size_t(h), cudaMemcpyHostToDevice);
    cudaMemcpy2D(p_i1, pitch1, i1.data.data(), row, row, std::size_t(h), cudaMemcpyHostToDevice);
    std::vector<float> planar(2 * n), pairs(2 * n);
    for (int frame = 0; frame < 2; ++frame) {
      cudaMemset2D(p_flow, flow_pitch, 0xff, 2 * row, std::size_t(h));  // NaN where not written
      packed_solver.compute_device(d_i0, d_i1, w, h, d_flow, nullptr);
      solver.compute_device_pitched(p_i0, pitch0, p_i1, pitch1, w, h, p_flow, flow_pitch, nullptr);
      ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
      cudaMemcpy(planar.data(), d_flow, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
      cudaMemcpy2D(pairs.data(), 2 * row, p_flow, flow_pitch, 2 * row, std::size_t(h),
                   cudaMemcpyDeviceToHost);
      std::size_t differing = 0;
      for (std::size_t i = 0; i < n; ++i)
        differing += !(pairs[2 * i] == planar[i] && pairs[2 * i + 1] == planar[n + i]);
      EXPECT_EQ(differing, 0u) << c.variant << " " << c.precision << " frame " << frame;
    }
    // Packed pitches (4 w) into the pitched call: the packed frames' path, the same flow.
    solver.compute_device_pitched(d_i0, row, d_i1, row, w, h, p_flow, flow_pitch, nullptr);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudaMemcpy2D(pairs.data(), 2 * row, p_flow, flow_pitch, 2 * row, std::size_t(h),
                 cudaMemcpyDeviceToHost);
    std::size_t differing = 0;
    for (std::size_t i = 0; i < n; ++i)
      differing += !(pairs[2 * i] == planar[i] && pairs[2 * i + 1] == planar[n + i]);
    EXPECT_EQ(differing, 0u) << c.variant << " packed pitches";
    EXPECT_THROW(solver.compute_device_pitched(p_i0, row - 4, p_i1, pitch1, w, h, p_flow,
                                               flow_pitch, nullptr),
                 std::invalid_argument);
    EXPECT_THROW(
        solver.compute_device_pitched(p_i0, pitch0, p_i1, pitch1, w, h, p_flow, row, nullptr),
        std::invalid_argument);
    for (float* p : {d_i0, d_i1, d_flow, p_i0, p_i1, p_flow}) cudaFree(p);
  }
}

// A CUDA variant: the float API on strided rows equals compute() bit for bit.
TEST(Tvl1Solver, StridedFloatApiEqualsComputeOnTheGpu) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  check_strided_floats(
      config_of("shared_fusion", "f16",
                {{"block_x", 32}, {"block_y", 8}, {"resident_px", 1024}, {"tiled_px", 65536}}));
}

// A CUDA variant: the 8-bit API equals compute() on float frames of the same values, staged
// and with page-locked bytes and flow (uploaded and downloaded by DMA), bit for bit.
TEST(Tvl1Solver, EightBitApiEqualsFloatFramesOnTheGpuStagedAndPageLocked) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Bytes b = rubberwhale_bytes(3);
  const auto c =
      config_of("shared_fusion", "f16",
                {{"block_x", 32}, {"block_y", 8}, {"resident_px", 1024}, {"tiled_px", 65536}});
  const flowtune::FlowField want = flowtune::Tvl1Solver(c).compute(b.f0, b.f1);
  flowtune::Tvl1Solver solver(c);
  flowtune::FlowField flow;
  solver.compute_u8(b.b0.data(), b.b1.data(), b.f0.width, b.f0.height, b.stride, flow);
  EXPECT_TRUE(flow.u == want.u && flow.v == want.v) << "staged";
  const std::vector<std::shared_ptr<void>> locks = {
      solver.page_lock(b.b0.data(), b.b0.size()), solver.page_lock(b.b1.data(), b.b1.size()),
      solver.page_lock(flow.u.data(), flow.u.size() * sizeof(float)),
      solver.page_lock(flow.v.data(), flow.v.size() * sizeof(float))};
  for (const auto& l : locks) ASSERT_NE(l, nullptr);
  for (int frame = 0; frame < 2; ++frame) {
    solver.compute_u8(b.b0.data(), b.b1.data(), b.f0.width, b.f0.height, b.stride, flow);
    EXPECT_TRUE(flow.u == want.u && flow.v == want.v) << "page-locked, frame " << frame;
  }
}
#endif

}  // namespace
