// flowtune's OpenCV adapter: the deployment API (flowtune/flowtune.hpp) on OpenCV's images.
// Header-only over OpenCV's core module (cv::Mat, cv::cuda::GpuMat; any OpenCV 4 build, with or
// without CUDA); included by a user who links OpenCV and flowtune::tvl1:
//
//   #include <flowtune/opencv.hpp>
//   flowtune::opencv::Solver solver(flowtune::read_tuned_config("tuned.h"));
//   cv::Mat flow;                                    // CV_32FC2: (u right, v down) in pixels
//   solver.compute(grey0, grey1, flow);              // CV_8UC1 or CV_32FC1 frames, any step
//   solver.compute(d_grey0, d_grey1, d_flow, cudaStream);  // cv::cuda::GpuMat CV_32FC1 -> CV_32FC2
//
// The flow is OpenCV's dense-flow layout (cv::DenseOpticalFlow::calc, cv::readOpticalFlow):
// CV_32FC2, channel 0 = u (x, right), channel 1 = v (y, down), in pixels, the frames' size.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <flowtune/flowtune.hpp>
#include <opencv2/core.hpp>
#include <opencv2/core/cuda.hpp>
#include <stdexcept>
#include <string>

namespace flowtune::opencv {

/// What an adapter call did on the host beyond the solver's own work, so that a caller (and
/// the tests) can see which layouts cost a copy: frames copied or converted before the solver
/// ran, and passes over the flow to write it into the caller's cv::Mat.
struct AdapterWork {
  int frame_copies = 0;  ///< frames copied here on the host (0, 1 or 2 per call)
  int flow_passes = 0;   ///< passes writing the planar flow into CV_32FC2 (0 or 1)
};

/// A Tvl1Solver (buffers, NVRTC build and CUDA Graphs kept from frame to frame) taking and
/// returning OpenCV images. Not thread-safe: one Solver per host thread.
class Solver {
 public:
  /// Builds the solver of config.variant; throws as Tvl1Solver's constructor does.
  explicit Solver(const TunedConfig& config) : solver_(config) {}

  /// Host images: flow I0 -> I1 into `flow` (made rows x cols CV_32FC2 when it is not; then
  /// written in place). i0, i1: equal size, one type, CV_8UC1 (intensities 0..255) or
  /// CV_32FC1 (any range, normalised jointly as the host API does), any step (ROIs too).
  /// Frames of one step go to Tvl1Solver::compute_u8 (CV_8UC1) or compute_f32 (CV_32FC1) as
  /// they are, rows read at their step (no copy here; the API copies them where it copies its
  /// own frames: a CUDA solver's pinned upload buffer, a host solver's Image); frames of
  /// different steps are made continuous first (a copy of each non-continuous one). The flow
  /// is the API's planar u, v written into CV_32FC2 (one pass: the layouts differ). Equals
  /// Tvl1Solver::compute / compute_u8 on the same values bit for bit.
  /// Throws std::invalid_argument for empty frames, frames of different sizes or types, or
  /// another type (the message names it), else as Tvl1Solver::compute.
  AdapterWork compute(const cv::Mat& i0, const cv::Mat& i1, cv::Mat& flow) {
    check_frames(i0.empty(), i1.empty(), i0.size(), i1.size(), i0.type(), i1.type(), "cv::Mat");
    if (i0.type() != CV_8UC1 && i0.type() != CV_32FC1)
      throw std::invalid_argument(type_error("cv::Mat", i0.type(), "CV_8UC1 or CV_32FC1"));
    AdapterWork work;
    cv::Mat a = i0, b = i1;
    if (a.step[0] != b.step[0]) {  // the API takes one stride for both frames
      if (!a.isContinuous()) {
        a = a.clone();
        ++work.frame_copies;
      }
      if (!b.isContinuous()) {
        b = b.clone();
        ++work.frame_copies;
      }
    }
    const auto stride = static_cast<std::ptrdiff_t>(a.step[0]);
    if (a.type() == CV_8UC1)
      solver_.compute_u8(a.ptr<std::uint8_t>(), b.ptr<std::uint8_t>(), a.cols, a.rows, stride,
                         planar_);
    else
      solver_.compute_f32(a.ptr<float>(), b.ptr<float>(), a.cols, a.rows, stride, planar_);
    if (flow.rows != i0.rows || flow.cols != i0.cols || flow.type() != CV_32FC2)
      flow.create(i0.rows, i0.cols, CV_32FC2);
    for (int y = 0; y < flow.rows; ++y) {
      float* row = flow.ptr<float>(y);
      const std::size_t o = std::size_t(y) * std::size_t(flow.cols);
      for (int x = 0; x < flow.cols; ++x) {
        row[2 * x] = planar_.u[o + std::size_t(x)];
        row[2 * x + 1] = planar_.v[o + std::size_t(x)];
      }
    }
    work.flow_passes = 1;
    return work;
  }

  /// GPU images (a CUDA variant): frames CV_32FC1 in device memory (any pitch), the flow into
  /// `flow` as CV_32FC2 (made rows x cols when it is not, which needs an OpenCV built with
  /// CUDA; a GpuMat of the right size and type, e.g. over cudaMallocPitch memory, is written
  /// in place), enqueued on `stream` (the caller's cudaStream_t; for a cv::cuda::Stream,
  /// cv::cuda::StreamAccessor::getStream). Tvl1Solver::compute_device_pitched: no copy
  /// beyond the device-pointer API's own (the pitched frames are copied in as compute_device
  /// copies packed ones; the flow is interleaved by the launch that writes it out), no host
  /// wait; the flow is ready once the stream has reached this call. Equals compute_device on
  /// the same frames bit for bit. Returns no host work ({0, 0}).
  /// Throws std::invalid_argument for empty frames, different sizes or types, a type other
  /// than CV_32FC1, or a host variant; else as compute_device_pitched.
  AdapterWork compute(const cv::cuda::GpuMat& i0, const cv::cuda::GpuMat& i1,
                      cv::cuda::GpuMat& flow, CUstream_st* stream) {
    check_frames(i0.empty(), i1.empty(), i0.size(), i1.size(), i0.type(), i1.type(),
                 "cv::cuda::GpuMat");
    if (i0.type() != CV_32FC1)
      throw std::invalid_argument(type_error("cv::cuda::GpuMat", i0.type(), "CV_32FC1"));
    if (flow.rows != i0.rows || flow.cols != i0.cols || flow.type() != CV_32FC2)
      flow.create(i0.rows, i0.cols, CV_32FC2);
    solver_.compute_device_pitched(i0.ptr<float>(), i0.step, i1.ptr<float>(), i1.step, i0.cols,
                                   i0.rows, flow.ptr<float>(), flow.step, stream);
    return {};
  }

  /// The deployment API's solver underneath.
  Tvl1Solver& solver() { return solver_; }

 private:
  static std::string type_error(const char* what, int type, const char* want) {
    return std::string("flowtune::opencv::Solver: ") + what + " frames of type " +
           cv::typeToString(type) + "; expected " + want;
  }
  static void check_frames(bool empty0, bool empty1, cv::Size s0, cv::Size s1, int t0, int t1,
                           const char* what) {
    const std::string who = std::string("flowtune::opencv::Solver: ") + what;
    if (empty0 || empty1) throw std::invalid_argument(who + " frame is empty");
    if (s0 != s1)
      throw std::invalid_argument(who + " frames of different sizes (" + std::to_string(s0.width) +
                                  "x" + std::to_string(s0.height) + " vs " +
                                  std::to_string(s1.width) + "x" + std::to_string(s1.height) + ")");
    if (t0 != t1)
      throw std::invalid_argument(who + " frames of different types (" + cv::typeToString(t0) +
                                  " vs " + cv::typeToString(t1) + ")");
  }
  Tvl1Solver solver_;
  FlowField planar_;  ///< the API's flow, kept so a stream of frames allocates once
};

}  // namespace flowtune::opencv
