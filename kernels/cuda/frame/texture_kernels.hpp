// GPU stage of the structure-texture decomposition of the frame pair (Wedel et al. 2009,
// sec. 2.3; the per-pixel code of kernels/structure_texture.hpp, in float), with the
// conventions of frame_kernels.hpp (Exec: a stream or host emulation).
// Errors: launch failures throw std::runtime_error naming this file and the CUDA error.
#pragma once

#include <cstddef>

#include "kernels/cuda/frame/frame_kernels.hpp"

namespace flowtune::cuda::frame {

/// Side of the square region (output tile plus halo) a block of the temporally blocked ROF
/// keeps in shared memory: p1, p2 and v of 64 x 64 pixels = 48 KiB (the frame value stays in
/// registers), so no shared-memory opt-in is needed.
constexpr int kRofRegion = 64;

/// Largest rof_iterations_per_launch: the halo of k iterations (k on the right / bottom,
/// k + 1 on the left / top at the last launch, where the texture needs div p) leaves at
/// least one output pixel of the 64 x 64 region.
constexpr int kMaxRofIterationsPerLaunch = (kRofRegion - 2) / 2;

/// Floats of scratch structure_texture_pair needs for two w x h frames: 6 w h (p1, p2 of
/// each frame; v of each frame) with one iteration per launch, 10 w h with more (p twice, to
/// ping-pong between launches, and the normalised frames). Throws std::invalid_argument
/// unless 1 <= iterations_per_launch <= kMaxRofIterationsPerLaunch.
std::size_t structure_texture_scratch_floats(int w, int h, int iterations_per_launch);

/// In place on the two w x h frames f0, f1: each value first mapped to [0, 255] by the joint
/// (min, max) in minmax[0..1] (as the Gaussian's row pass does), then replaced by its texture
/// part I - alpha ROF(I), the ROF by `iterations` of Chambolle's projection with weight theta
/// (kernels/structure_texture.hpp). `scratch` holds structure_texture_scratch_floats(w, h,
/// iterations_per_launch) floats (device, or host in host emulation); nothing in it needs
/// initialising.
///
/// iterations_per_launch = 1: a normalising launch, two launches per iteration (v, then p,
/// both frames each, in global memory) and a texture launch. k > 1 (temporal blocking): each
/// launch runs k iterations (the last one iterations mod k if that is not 0) on 64 x 64
/// regions in shared memory, each block writing back the interior its halo keeps exact (the
/// dependency radius of one iteration is 1 pixel in x and y: v reads p at x - 1 and y - 1,
/// p reads v at x + 1 and y + 1), so `iterations` take ceil(iterations / k) launches; the
/// first launch normalises the frames, the last one (of two or more) writes the texture.
/// Every pixel's arithmetic is the same value-level helper on the same floats, so the
/// result is bit for bit the same for every k (tests/cuda/test_texture_blocked.cpp). The
/// host emulation runs the blocks one after the other, phase by phase.
/// Throws std::invalid_argument for an iterations_per_launch out of range.
void structure_texture_pair(float* f0, float* f1, int w, int h, float* scratch, const float* minmax,
                            float alpha, float theta, int iterations, int iterations_per_launch,
                            Exec exec);

}  // namespace flowtune::cuda::frame
