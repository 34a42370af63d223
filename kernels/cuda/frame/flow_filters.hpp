// GPU stages of the accuracy additions to the TV-L1 frame, beside frame_kernels.hpp
// and with its conventions (Exec: enqueued on a stream or host emulation; "pair" storage
// float2 or __half2 when f16): the median filter and the weighted non-local median of the
// flow after each warping and the reduction of the epsilon stopping test.
// Errors: launch failures throw std::runtime_error naming this file and the CUDA error.
#pragma once

#include <cstddef>

#include "kernels/cuda/frame/frame_kernels.hpp"

namespace flowtune::cuda::frame {

/// Median filter of both components of a w x h flow of pairs u_in into u_out (distinct
/// buffers): each component independently, window x window, clamp-to-edge (median_px of
/// kernels/median_filter.hpp, the CPU reference's code; Wedel et al. 2009, sec. 3; Sun, Roth,
/// Black 2010, sec. 3.3). window: 3 or 5 (throws std::invalid_argument otherwise).
void median_flow(bool f16, const void* u_in, void* u_out, int w, int h, int window, Exec exec);

/// Weighted non-local median of both components of a w x h flow of pairs u_in into u_out
/// (distinct buffers), guided by the w x h plane `guide` (the level's I0): weighted_median_px of
/// kernels/weighted_median.hpp, the CPU reference's code (Sun, Roth, Black 2010, sec. 4).
/// window: 0 (nothing written) or odd 3..11; sigmas > 0 (throws std::invalid_argument
/// otherwise).
void weighted_median_flow(bool f16, const void* u_in, void* u_out, const float* guide, int w, int h,
                          int window, float sigma_spatial, float sigma_color, Exec exec);

/// Doubles of scratch that flow_change_mean needs.
std::size_t flow_change_scratch_doubles();

/// The epsilon stopping test's statistic (IPOL 2013, sec. 4): mean over the w x h pixels of
/// |u - u_prev|^2 (both components, summed in double), written to mean_out[0] (device
/// pointers; two kernels: per-block partials in scratch, then one block). In host emulation
/// all pointers are host pointers and the sum runs in pixel order.
void flow_change_mean(bool f16, const void* u, const void* u_prev, int w, int h, double* scratch,
                      double* mean_out, Exec exec);

}  // namespace flowtune::cuda::frame
