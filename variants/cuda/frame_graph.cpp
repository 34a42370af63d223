// The CUDA Graph of a frame size's device work (see frame_graph.hpp).
#include "variants/cuda/frame_graph.hpp"

#include <exception>

namespace flowtune::cuda {

bool capture_frame_graph(cudaStream_t stream, SizeEntry& e,
                         const std::function<void(cudaStream_t)>& enqueue) {
  check_frame(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal),
              "cudaStreamBeginCapture");
  cudaGraph_t graph = nullptr;
  try {
    enqueue(stream);
  } catch (const std::exception&) {
    cudaStreamEndCapture(stream, &graph);
    if (graph) cudaGraphDestroy(graph);
    cudaGetLastError();
    e.graph_failed = true;
    return false;
  }
  bool built = false;
  const cudaError_t err = cudaStreamEndCapture(stream, &graph);
  if (err != cudaSuccess || !graph ||
      cudaGraphInstantiateWithFlags(&e.graph, graph, 0) != cudaSuccess) {
    cudaGetLastError();
    e.graph = nullptr;
    e.graph_failed = true;
  } else {
    built = true;
  }
  if (graph) cudaGraphDestroy(graph);
  return built;
}

}  // namespace flowtune::cuda
