// Throughput mode for video: several frame pairs in flight, one solver (and so one CUDA
// stream, one set of buffers and one CUDA Graph for the GPU solvers) per frame in flight.
#pragma once

#include <functional>
#include <memory>
#include <utility>
#include <vector>

#include "kernels/image.hpp"
#include "variants/variant.hpp"

namespace flowtune {

/// What measure_throughput saw.
struct ThroughputResult {
  int in_flight = 0;                  ///< solvers used concurrently
  int frames = 0;                     ///< frame pairs computed
  double seconds = 0;                 ///< wall clock from the first frame's start to the last's end
  double frames_per_second = 0;       ///< frames / seconds
  double median_latency_ms = 0;       ///< median wall clock of one compute() call
  std::vector<int> frames_by_solver;  ///< how many frames each solver computed
};

/// Computes `frames` frame pairs, taken round-robin from `pairs` (pair k % pairs.size()),
/// with one host thread per solver, each thread taking the next frame from a shared counter
/// (so each frame is computed exactly once) and calling its solver's compute_into() into one
/// FlowField per thread (reused, as a video loop does). With GPU
/// solvers every solver owns a non-blocking stream, so up to solvers.size() frames (their
/// uploads, kernels and downloads) overlap on the device. A first frame per solver is run
/// before the clock starts (allocation, NVRTC module load, graph capture).
///
/// `on_flow(k, flow)`, if given, is called (from the worker thread, under a lock) with each
/// frame index and its flow. Throws std::invalid_argument for no solvers, a null solver, no
/// pairs or frames < 1; rethrows the first exception a solver threw (after joining every
/// thread).
ThroughputResult measure_throughput(const std::vector<std::unique_ptr<FlowSolver>>& solvers,
                                    const std::vector<std::pair<Image, Image>>& pairs, int frames,
                                    const std::function<void(int, const FlowField&)>& on_flow = {});

}  // namespace flowtune
