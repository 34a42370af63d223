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
/// with minmax first, `iterations_per_launch` Chambolle iterations per launch (1: two
/// launches per iteration; k > 1: temporally blocked, bit for bit the same texture; a
/// schedule, FrameOptions::rof_iterations_per_launch). Scratch
/// (structure_texture_scratch_floats: 6 or 10 w h floats) is allocated on first use for a
/// size and kept; it only grows, and an outgrown scratch is kept until destruction, because a
/// CUDA Graph captured at an earlier (smaller) frame size still points to it
/// (frame_size_cache.hpp keeps one graph per size).
/// Throws std::runtime_error on CUDA errors (naming texture_stage and the call), and
/// std::invalid_argument (from the constructor) for iterations_per_launch outside [1,
/// frame::kMaxRofIterationsPerLaunch].
class TextureStage {
 public:
  TextureStage(const Tvl1Params& p, bool host_emulation, int iterations_per_launch = 1);
  ~TextureStage();
  TextureStage(const TextureStage&) = delete;
  TextureStage& operator=(const TextureStage&) = delete;

  void run(float* f0, float* f1, int w, int h, const float* minmax, frame::Exec exec);

 private:
  Tvl1Params p_;
  bool on_host_;
  int iterations_per_launch_;
  std::size_t capacity_ = 0;      ///< floats
  float* scratch_ = nullptr;      ///< capacity_ floats
  std::vector<float*> outgrown_;  ///< earlier scratch, freed on destruction
};

}  // namespace flowtune::cuda
