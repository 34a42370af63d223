// The CPU reference TV-L1 in double precision: the oracle every variant is checked against.
// Scheme: Zach, Pock, Bischof 2007 as implemented by Sanchez Perez, Meinhardt-Llopis,
// Facciolo, "TV-L1 optical flow estimation", IPOL 2013 (tvl1flow_lib.c); boundaries and
// per-iteration steps as in ARCHITECTURE.md's numerics contract.
#pragma once

#include "kernels/image.hpp"
#include "kernels/tvl1_params.hpp"
#include "kernels/tvl1_warping.hpp"

namespace flowtune {

/// Prepares one warping (numerics contract): with u0 = (state.u1, state.u2) the current flow,
/// samples I1w = I1(x + u0), grad_x = I1x(x + u0), grad_y = I1y(x + u0) with clamp-to-edge
/// reads, bicubically (bicubic_at, IPOL 2013 sec. 4) or bilinearly (bilinear_sample) as
/// `interp` says, and sets rho_c = I1w - grad . u0 - I0.
/// Shapes: all planes and the state must be width x height (throws std::invalid_argument
/// otherwise). i1x, i1y: the centred gradient of i1 (centered_gradient in image_ops.hpp).
/// Explicitly instantiated for float and double.
template <typename Real>
WarpingData<Real> prepare_warping(const Plane<Real>& i0, const Plane<Real>& i1,
                                  const Plane<Real>& i1x, const Plane<Real>& i1y,
                                  const Tvl1State<Real>& state,
                                  WarpingInterp interp = WarpingInterp::bicubic);

/// Runs up to `iterations` inner TV-L1 iterations on `s` (numerics contract, IPOL
/// Dual_TVL1_optic_flow's loop body), in double precision:
///   rho = rho_c + grad . u; v = u + TH(rho) with thresholds +-lambda*theta*|grad|^2
///   (v = u where |grad|^2 < 1e-10 inside the thresholds);
///   u = v + theta * div(p)   (backward differences, p = 0 outside the image);
///   p = (p + tau/theta * grad u) / (1 + tau/theta * |grad u|) for p1 with u1 and p2 with u2
///   (forward differences, 0 on the last column / row).
/// If p.epsilon > 0 it stops after the first iteration whose mean over pixels of
/// |u - u_prev|^2 is <= epsilon^2 (IPOL's criterion), tested after every
/// p.epsilon_check_every-th iteration only (k, 2k, ...: the GPU's check interval). Uses p.tau,
/// p.lambda, p.theta, p.epsilon, p.epsilon_check_every; ignores p.iterations (the argument rules).
/// Returns the iterations done. Throws std::invalid_argument if w and s differ in shape.
int tvl1_iterate_reference(const WarpingData<double>& w, Tvl1State<double>& s, const Tvl1Params& p,
                           int iterations);

/// The full reference: tvl1_multiscale<double> (tvl1_multiscale.hpp) with
/// tvl1_iterate_reference doing p.iterations per warping. Input frames: same size, any range
/// (normalised jointly to [0, 255]). Returns the flow from i0 to i1 in pixels. init_flow:
/// optional flow to start from (tvl1_multiscale's init_flow).
/// Throws std::invalid_argument for frames of different sizes, an initial flow of another
/// size, or invalid parameters.
FlowField tvl1_reference(const Image& i0, const Image& i1, const Tvl1Params& p,
                         const FlowField* init_flow = nullptr);

/// Number of pyramid scales such that the coarsest level's smaller side is the smallest
/// value >= min_side reachable by repeated zoom_size (at least 1 scale; if the image's smaller
/// side is already below min_side, 1). E.g. 584x388, zoom 0.5, min_side 16: 388 -> 194 -> 97
/// -> 49 -> 25 gives 5 scales (coarsest 37x25). Throws std::invalid_argument for zoom outside
/// (0, 1) or non-positive sizes.
int n_scales_for_min_size(int width, int height, double zoom, int min_side);

}  // namespace flowtune
