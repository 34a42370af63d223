// The structure-texture decomposition of the GPU frame (Wedel et al. 2009, sec. 2.3), with
// its own scratch: kernels/cuda/frame/texture_kernels.hpp around buffers kept per frame size.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/cuda/frame/frame_kernels.hpp"
#include "kernels/tvl1_params.hpp"

namespace flowtune::cuda {

/// Runs structure_texture_pair with p.texture_alpha, p.rof_theta, p.rof_iterations on the
/// two w x h frames (device pointers, or host pointers in host emulation), normalising them
/// with minmax first. Scratch (6 w h floats) is allocated on first use for a size and kept;
/// it only grows, and an outgrown scratch is kept until destruction, because a CUDA Graph
/// captured at an earlier (smaller) frame size still points to it (frame_size_cache.hpp
/// keeps one graph per size).
/// Throws std::runtime_error on CUDA errors (naming texture_stage and the call).
class TextureStage {
 public:
  TextureStage(const Tvl1Params& p, bool host_emulation) : p_(p), on_host_(host_emulation) {}
  ~TextureStage();
  TextureStage(const TextureStage&) = delete;
  TextureStage& operator=(const TextureStage&) = delete;

  void run(float* f0, float* f1, int w, int h, const float* minmax, frame::Exec exec);

 private:
  Tvl1Params p_;
  bool on_host_;
  std::size_t capacity_ = 0;      ///< pixels
  float* scratch_ = nullptr;      ///< 6 x capacity_ floats: p (4), v (2)
  std::vector<float*> outgrown_;  ///< earlier scratch, freed on destruction
};

}  // namespace flowtune::cuda
