// GPU stage of the weighted non-local median with the occlusion factor of Sun, Roth, Black
// 2010 (sec. 4, eq. 10), beside flow_filters.hpp and with its conventions (Exec: enqueued on a
// stream or host emulation; "pair" storage float2 or __half2 when f16): the occlusion cost
// q = -log o of every pixel (kernels/occlusion.hpp), then the weighted median whose weights
// carry o(x_j) / o(x_i) = exp(-(q_j - q_i)) (kernels/weighted_median.hpp). The per-pixel code
// is the CPU reference's (kernels/tvl1_multiscale.hpp), in float.
// Errors: invalid parameters throw std::invalid_argument; launch failures std::runtime_error
// naming this file and the CUDA error.
#pragma once

#include "kernels/cuda/frame/frame_kernels.hpp"

namespace flowtune::cuda::frame {

/// The occlusion cost q = -log o (Sun, Roth, Black 2010, eq. 10) of a w x h flow of pairs u
/// between the level's frames i0 and i1 (w x h float planes, grey levels of [0, 255]) into the
/// w x h float plane cost: occlusion_cost_px of kernels/occlusion.hpp (divergence by central
/// differences, residual I0(x) - I1(x + u) bilinear, 0 outside the level), kd =
/// 1 / (2 sigma_d^2), ke = 1 / (2 sigma_e^2). Sigmas > 0 (throws std::invalid_argument).
void occlusion_cost(bool f16, const void* u, const float* i0, const float* i1, float* cost, int w,
                    int h, float sigma_d, float sigma_e, Exec exec);

/// The weighted non-local median of a w x h flow of pairs u_in into u_out (distinct buffers),
/// guided by `guide` (the level's I0), its weights multiplied by o(x_j) / o(x_i) read from the
/// occlusion cost plane `cost` (occlusion_cost): weighted_median_px of kernels/weighted_median.hpp
/// with OcclusionCostLoad. window: 0 (nothing written) or odd 3..11; sigmas > 0 (throws
/// std::invalid_argument otherwise).
void weighted_median_flow_occluded(bool f16, const void* u_in, void* u_out, const float* guide,
                                   const float* cost, int w, int h, int window, float sigma_spatial,
                                   float sigma_color, Exec exec);

/// Both stages, as the frame runs them after each warping when nl_occlusion is on: the
/// occlusion cost of u_in (on i0, i1) into cost_scratch (w x h floats), then
/// weighted_median_flow_occluded of u_in into u_out guided by i0.
void weighted_median_flow_occlusion(bool f16, const void* u_in, void* u_out, const float* i0,
                                    const float* i1, float* cost_scratch, int w, int h, int window,
                                    float sigma_spatial, float sigma_color, float sigma_d,
                                    float sigma_e, Exec exec);

}  // namespace flowtune::cuda::frame
