// The GPU solver of fw_tiled / fw_tiled_sym: one NVRTC build per config, one device buffer
// (grown on demand), per solve: upload once, nb rounds of the three stages
// (apsp::tiled_fw_schedule), download once (Marras et al. sec. 4.2).
#include <cuda_runtime_api.h>

#include <stdexcept>

#include "kernels/apsp/tiled_layout.hpp"
#include "variants/apsp/cuda/fw_tiled_variant.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/nvrtc_build.hpp"

namespace flowtune::apsp_cuda {
namespace {

class FwTiledSolver : public ApspSolver {
 public:
  FwTiledSolver(const Config& config, bool lower_triangle)
      : lower_triangle_(lower_triangle),
        name_(config.variant),
        tile_(config.tunable("tile")),
        block_(unsigned(config.tunable("block_x")), unsigned(config.tunable("block_y"))) {
    if (!cuda::device_available()) throw std::runtime_error(name_ + ": no CUDA device available");
    const auto build = cuda::nvrtc_build(fw_tiled_source(lower_triangle), fw_tiled_defines(config),
                                         cuda::current_device_arch());
    module_ = std::make_unique<cuda::LoadedModule>(build->cubin);
    for (const auto& kernel : fw_tiled_kernels(lower_triangle))
      stages_.push_back(module_->function(kernel));
  }

  ~FwTiledSolver() override {
    if (buffer_) cudaFree(buffer_);
  }
  FwTiledSolver(const FwTiledSolver&) = delete;
  FwTiledSolver& operator=(const FwTiledSolver&) = delete;

  apsp::DistMatrix solve(const apsp::Graph& g) override {
    apsp::check_weights(g.weights, name_ + " on " + g.name);
    if (lower_triangle_ && !apsp::is_symmetric(g.weights))
      throw std::invalid_argument(name_ + ": graph " + g.name +
                                  " is not symmetric (fw_tiled_sym solves undirected graphs)");
    const int n = g.n(), nb = apsp::tile_blocks(n, tile_);
    if (n == 0) return apsp::DistMatrix(0);
    std::vector<apsp::Dist> host = lower_triangle_ ? apsp::to_lower_tiles(g.weights, tile_)
                                                   : apsp::to_padded(g.weights, tile_);
    const std::size_t bytes = host.size() * sizeof(apsp::Dist);
    reserve(bytes);
    cuda::check_cuda(cudaMemcpy(buffer_, host.data(), bytes, cudaMemcpyHostToDevice),
                     "upload of the distance matrix");
    int* d = static_cast<int*>(buffer_);
    int pitch = nb * tile_;
    for (const apsp::StageLaunch& launch : apsp::tiled_fw_schedule(nb, lower_triangle_)) {
      int kb = launch.kb;
      void* directed_args[] = {&d, &pitch, &kb};
      void* sym_args[] = {&d, &kb};
      module_->launch(stages_[std::size_t(launch.stage - 1)], dim3(launch.grid_x, launch.grid_y),
                      block_, 0, nullptr, lower_triangle_ ? sym_args : directed_args);
    }
    // cudaMemcpy on the legacy default stream waits for the stages and reports their faults.
    cuda::check_cuda(cudaMemcpy(host.data(), buffer_, bytes, cudaMemcpyDeviceToHost),
                     "download of the distances (or a fault of a stage kernel)");
    return lower_triangle_ ? apsp::from_lower_tiles(host, n, tile_)
                           : apsp::from_padded(host, n, tile_);
  }

 private:
  void reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    if (buffer_) cudaFree(buffer_);
    buffer_ = nullptr;
    capacity_ = 0;
    cuda::check_cuda(cudaMalloc(&buffer_, bytes), "cudaMalloc of the distance matrix");
    capacity_ = bytes;
  }

  bool lower_triangle_;
  std::string name_;
  int tile_;
  dim3 block_;
  std::unique_ptr<cuda::LoadedModule> module_;
  std::vector<CUfunction> stages_;
  void* buffer_ = nullptr;
  std::size_t capacity_ = 0;
};

}  // namespace

std::unique_ptr<ApspSolver> make_fw_tiled_solver(const Config& config, bool lower_triangle) {
  return std::make_unique<FwTiledSolver>(config, lower_triangle);
}

}  // namespace flowtune::apsp_cuda
