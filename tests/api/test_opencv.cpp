// The OpenCV adapter (api/flowtune/opencv.hpp) against the plain deployment API on a real
// Middlebury pair (a crop of RubberWhale): cv::Mat CV_8UC1 and CV_32FC1 frames, ROIs with a
// step wider than the row, the CV_32FC2 flow (channel 0 = u, 1 = v) bit for bit, the host
// copies each layout costs, and bad frames refused with the problem named; on a GPU,
// cv::cuda::GpuMat frames and flow over cudaMallocPitch memory against compute_device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <flowtune/opencv.hpp>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "tests/api/api_config.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include <cuda_runtime_api.h>
#endif

namespace {

using flowtune::test::config_of;
using flowtune::test::pair_file;

const flowtune::TunedConfig kHost =
    config_of("kokkos_global", "f32", {{"tile_x", 32}, {"tile_y", 4}});

/// RubberWhale's frames (BT.601 luma) as CV_32FC1, and rounded to CV_8UC1.
struct Frames {
  cv::Mat f0, f1, b0, b1;
};
Frames rubberwhale() {
  Frames f;
  for (const char* name : {"frame10.png", "frame11.png"}) {
    const flowtune::Image img = flowtune::read_png_gray(pair_file(name));
    cv::Mat m(img.height, img.width, CV_32FC1);
    for (int y = 0; y < img.height; ++y)
      for (int x = 0; x < img.width; ++x) m.at<float>(y, x) = img.at(x, y);
    cv::Mat b;
    m.convertTo(b, CV_8UC1);  // rounded, saturated
    (f.f0.empty() ? f.f0 : f.f1) = m;
    (f.b0.empty() ? f.b0 : f.b1) = b;
  }
  return f;
}

/// The plain API's flow written as (u, v) pairs equals `flow` (CV_32FC2) exactly.
void expect_pairs_equal(const flowtune::FlowField& want, const cv::Mat& flow, const char* what) {
  ASSERT_EQ(flow.type(), CV_32FC2) << what;
  ASSERT_EQ(flow.cols, want.width) << what;
  ASSERT_EQ(flow.rows, want.height) << what;
  std::size_t differing = 0;
  for (int y = 0; y < flow.rows; ++y)
    for (int x = 0; x < flow.cols; ++x) {
      const cv::Vec2f uv = flow.at<cv::Vec2f>(y, x);
      const std::size_t i = std::size_t(y) * std::size_t(want.width) + std::size_t(x);
      differing += !(uv[0] == want.u[i] && uv[1] == want.v[i]);
    }
  EXPECT_EQ(differing, 0u) << what;
}

// CV_8UC1 frames of one step (whole images, then ROIs inside wider images) go to compute_u8
// without a copy and give its flow bit for bit, written in place into the caller's CV_32FC2.
TEST(OpenCvAdapter, EightBitFramesEqualTheEightBitApiWithoutACopy) {
  const Frames fr = rubberwhale();
  flowtune::opencv::Solver solver(kHost);
  flowtune::Tvl1Solver plain(kHost);
  const cv::Rect roi(100, 80, 240, 160);
  const cv::Mat r0 = fr.b0(roi), r1 = fr.b1(roi);
  ASSERT_GT(r0.step[0], std::size_t(r0.cols));
  for (const auto& [a, b, what] :
       {std::make_tuple(fr.b0, fr.b1, "whole"), std::make_tuple(r0, r1, "roi")}) {
    flowtune::FlowField want;
    plain.compute_u8(a.data, b.data, a.cols, a.rows, std::ptrdiff_t(a.step[0]), want);
    cv::Mat flow;
    const flowtune::opencv::AdapterWork work = solver.compute(a, b, flow);
    EXPECT_EQ(work.frame_copies, 0) << what;
    EXPECT_EQ(work.flow_passes, 1) << what;
    expect_pairs_equal(want, flow, what);
    const uchar* storage = flow.data;
    solver.compute(a, b, flow);
    EXPECT_EQ(flow.data, storage) << what << ": the flow was reallocated";
    expect_pairs_equal(want, flow, what);
  }
}

// Frames of different steps are made continuous (one copy for the ROI, none for the whole
// frame); CV_32FC1 frames, whole and ROIs, go to compute_f32 without a copy and give
// compute()'s flow bit for bit.
TEST(OpenCvAdapter, MixedStepsAndFloatFramesEqualThePlainApi) {
  const Frames fr = rubberwhale();
  flowtune::opencv::Solver solver(kHost);
  flowtune::Tvl1Solver plain(kHost);
  const cv::Rect roi(100, 80, 240, 160);
  const cv::Mat whole1 = fr.b1(roi).clone();  // continuous: step = cols
  cv::Mat flow;
  flowtune::FlowField want;
  const cv::Mat packed0 = fr.b0(roi).clone();
  plain.compute_u8(packed0.data, whole1.data, roi.width, roi.height, roi.width, want);
  flowtune::opencv::AdapterWork work = solver.compute(fr.b0(roi), whole1, flow);
  EXPECT_EQ(work.frame_copies, 1);
  expect_pairs_equal(want, flow, "roi + continuous");

  flowtune::Image i0(fr.f0.cols, fr.f0.rows), i1(fr.f0.cols, fr.f0.rows);
  for (int y = 0; y < fr.f0.rows; ++y)
    for (int x = 0; x < fr.f0.cols; ++x) {
      i0.at(x, y) = fr.f0.at<float>(y, x);
      i1.at(x, y) = fr.f1.at<float>(y, x);
    }
  want = plain.compute(i0, i1);
  work = solver.compute(fr.f0, fr.f1, flow);
  EXPECT_EQ(work.frame_copies, 0);
  EXPECT_EQ(work.flow_passes, 1);
  expect_pairs_equal(want, flow, "CV_32FC1");
  // A float ROI: the Image copy reads the rows at their step.
  const cv::Mat f0r = fr.f0(roi), f1r = fr.f1(roi);
  flowtune::Image c0(roi.width, roi.height), c1(roi.width, roi.height);
  for (int y = 0; y < roi.height; ++y)
    for (int x = 0; x < roi.width; ++x) {
      c0.at(x, y) = f0r.at<float>(y, x);
      c1.at(x, y) = f1r.at<float>(y, x);
    }
  want = plain.compute(c0, c1);
  work = solver.compute(f0r, f1r, flow);
  EXPECT_EQ(work.frame_copies, 0);
  expect_pairs_equal(want, flow, "CV_32FC1 roi");
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "(no std::invalid_argument)";
}

// Bad frames are refused before any computation, the message naming the problem; GPU images
// on a host variant are refused naming the variant (no GPU needed: the GpuMat headers wrap
// host memory that is never read).
TEST(OpenCvAdapter, BadFramesAreRefusedNamingTheProblem) {
  flowtune::opencv::Solver solver(kHost);
  cv::Mat flow;
  const cv::Mat rgb(8, 8, CV_8UC3, cv::Scalar::all(0)), grey(8, 8, CV_8UC1, cv::Scalar(0));
  const cv::Mat small(4, 8, CV_8UC1, cv::Scalar(0)), f32(8, 8, CV_32FC1, cv::Scalar(0));
  EXPECT_NE(message_of([&] { solver.compute(rgb, rgb, flow); }).find("CV_8UC3"), std::string::npos);
  EXPECT_NE(message_of([&] { solver.compute(grey, small, flow); }).find("8x8 vs 8x4"),
            std::string::npos);
  EXPECT_NE(message_of([&] { solver.compute(grey, f32, flow); }).find("CV_8UC1 vs CV_32FC1"),
            std::string::npos);
  EXPECT_NE(message_of([&] { solver.compute(cv::Mat(), grey, flow); }).find("empty"),
            std::string::npos);
  EXPECT_TRUE(flow.empty()) << "a refused call wrote the flow";

  std::vector<float> host(2 * 64);
  const cv::cuda::GpuMat g0(8, 8, CV_32FC1, host.data()), g8(8, 8, CV_8UC1, host.data());
  cv::cuda::GpuMat gflow(8, 8, CV_32FC2, host.data());
  EXPECT_NE(message_of([&] { solver.compute(g8, g8, gflow, nullptr); }).find("CV_32FC1"),
            std::string::npos);
  EXPECT_NE(message_of([&] { solver.compute(g0, g0, gflow, nullptr); }).find("kokkos_global"),
            std::string::npos);
}

#ifdef FLOWTUNE_HAVE_CUDA
bool have_gpu() {
  int n = 0;
  const bool ok = cudaGetDeviceCount(&n) == cudaSuccess && n > 0;
  cudaGetLastError();
  return ok;
}

// GpuMat frames and flow over pitched device memory (cudaMallocPitch, as a CUDA OpenCV
// allocates them) on the caller's stream: the flow equals the device-pointer API's on packed
// frames bit for bit, as interleaved (u, v) pairs; no host work.
TEST(OpenCvAdapter, GpuMatFramesEqualTheDevicePointerApi) {
  if (!have_gpu()) GTEST_SKIP() << "no CUDA device";
  const Frames fr = rubberwhale();
  const int w = fr.f0.cols, h = fr.f0.rows;
  const std::size_t n = std::size_t(w) * h, row = std::size_t(w) * sizeof(float);
  const auto c =
      config_of("shared_fusion", "f32",
                {{"block_x", 32}, {"block_y", 8}, {"resident_px", 1024}, {"tiled_px", 65536}});
  flowtune::opencv::Solver solver(c);
  flowtune::Tvl1Solver plain(c);
  float *d0 = nullptr, *d1 = nullptr, *dflow = nullptr, *p0 = nullptr, *p1 = nullptr,
        *pflow = nullptr;
  std::size_t s0 = 0, s1 = 0, sflow = 0;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d0), n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&d1), n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&dflow), 2 * n * sizeof(float)), cudaSuccess);
  ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&p0), &s0, row, std::size_t(h)), cudaSuccess);
  ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&p1), &s1, row, std::size_t(h)), cudaSuccess);
  ASSERT_EQ(cudaMallocPitch(reinterpret_cast<void**>(&pflow), &sflow, 2 * row, std::size_t(h)),
            cudaSuccess);
  const cv::Mat c0 = fr.f0.clone(), c1 = fr.f1.clone();  // continuous host frames
  cudaMemcpy(d0, c0.data, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d1, c1.data, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy2D(p0, s0, c0.data, row, row, std::size_t(h), cudaMemcpyHostToDevice);
  cudaMemcpy2D(p1, s1, c1.data, row, row, std::size_t(h), cudaMemcpyHostToDevice);
  const cv::cuda::GpuMat g0(h, w, CV_32FC1, p0, s0), g1(h, w, CV_32FC1, p1, s1);
  cv::cuda::GpuMat gflow(h, w, CV_32FC2, pflow, sflow);
  cudaStream_t stream = nullptr;
  ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
  std::vector<float> planar(2 * n);
  for (int frame = 0; frame < 2; ++frame) {
    plain.compute_device(d0, d1, w, h, dflow, stream);
    const flowtune::opencv::AdapterWork work = solver.compute(g0, g1, gflow, stream);
    EXPECT_EQ(work.frame_copies + work.flow_passes, 0);
    EXPECT_EQ(gflow.data, reinterpret_cast<uchar*>(pflow)) << "the GpuMat was reallocated";
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    cudaMemcpy(planar.data(), dflow, 2 * n * sizeof(float), cudaMemcpyDeviceToHost);
    cv::Mat flow(h, w, CV_32FC2);
    cudaMemcpy2D(flow.data, flow.step[0], pflow, sflow, 2 * row, std::size_t(h),
                 cudaMemcpyDeviceToHost);
    flowtune::FlowField want(w, h);
    std::copy(planar.begin(), planar.begin() + std::ptrdiff_t(n), want.u.begin());
    std::copy(planar.begin() + std::ptrdiff_t(n), planar.end(), want.v.begin());
    expect_pairs_equal(want, flow, frame ? "GpuMat, graph" : "GpuMat, first frame");
  }
  cudaStreamDestroy(stream);
  for (float* p : {d0, d1, dflow, p0, p1, pflow}) cudaFree(p);

  // Host images on the CUDA solver: a CV_32FC1 ROI (compute_f32's strided rows) and CV_8UC1
  // frames equal the plain host API bit for bit.
  const cv::Rect roi(100, 80, 240, 160);
  flowtune::Image r0(roi.width, roi.height), r1(roi.width, roi.height);
  for (int y = 0; y < roi.height; ++y)
    for (int x = 0; x < roi.width; ++x) {
      r0.at(x, y) = fr.f0(roi).at<float>(y, x);
      r1.at(x, y) = fr.f1(roi).at<float>(y, x);
    }
  cv::Mat host_flow;
  const flowtune::opencv::AdapterWork work = solver.compute(fr.f0(roi), fr.f1(roi), host_flow);
  EXPECT_EQ(work.frame_copies, 0);
  expect_pairs_equal(plain.compute(r0, r1), host_flow, "CV_32FC1 roi on the GPU");
  flowtune::FlowField want8;
  plain.compute_u8(fr.b0.data, fr.b1.data, w, h, std::ptrdiff_t(fr.b0.step[0]), want8);
  solver.compute(fr.b0, fr.b1, host_flow);
  expect_pairs_equal(want8, host_flow, "CV_8UC1 on the GPU");
}
#endif

}  // namespace
