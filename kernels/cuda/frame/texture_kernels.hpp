// GPU stage of the structure-texture decomposition of the frame pair (Wedel et al. 2009,
// sec. 2.3; the per-pixel code of kernels/structure_texture.hpp, in float), with the
// conventions of frame_kernels.hpp (Exec: a stream or host emulation).
// Errors: launch failures throw std::runtime_error naming this file and the CUDA error.
#pragma once

#include "kernels/cuda/frame/frame_kernels.hpp"

namespace flowtune::cuda::frame {

/// In place on the two w x h frames f0, f1: each value first mapped to [0, 255] by the joint
/// (min, max) in minmax[0..1] (as the Gaussian's row pass does), then replaced by its texture
/// part I - alpha ROF(I), the ROF by `iterations` of Chambolle's projection with weight theta
/// (kernels/structure_texture.hpp). Scratch: p (4 w h floats: p1, p2 of each frame) and v
/// (2 w h floats); p is zeroed here. Two kernels per iteration (both frames each).
void structure_texture_pair(float* f0, float* f1, int w, int h, float* p, float* v,
                            const float* minmax, float alpha, float theta, int iterations,
                            Exec exec);

}  // namespace flowtune::cuda::frame
