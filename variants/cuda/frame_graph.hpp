// The CUDA Graph of a frame size's device work: stream capture of what the stage sequence
// enqueues, instantiated once and replayed for every later frame of that size (FrameOptions::
// use_cuda_graph; frame_size_cache.hpp keeps one per size).
#pragma once

#include <cuda_runtime_api.h>

#include <functional>

#include "variants/cuda/frame_size_cache.hpp"

namespace flowtune::cuda {

/// Records enqueue(stream) into a graph by stream capture (cudaStreamCaptureModeThreadLocal)
/// and instantiates it into e.graph; returns true when it did. On any failure (enqueue throws
/// a std::exception, capture or instantiation fails) leaves `stream` usable, clears the CUDA
/// error, sets e.graph_failed (the size runs without a graph from then on) and returns false.
/// Throws std::runtime_error only when the capture cannot begin.
bool capture_frame_graph(cudaStream_t stream, SizeEntry& e,
                         const std::function<void(cudaStream_t)>& enqueue);

}  // namespace flowtune::cuda
