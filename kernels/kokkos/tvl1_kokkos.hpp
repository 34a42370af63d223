// TV-L1 inner iterations in single precision on Kokkos (the paper's Global scheme: two
// kernels per iteration), with the MDRange tile sizes as the tunable.
#pragma once

#include "kernels/tvl1_params.hpp"
#include "kernels/tvl1_warping.hpp"

namespace flowtune {

/// Tile sizes of the Kokkos::MDRangePolicy<Rank<2>> that runs both kernels: tile_x pixels
/// along a row (the contiguous, inner index) by tile_y rows. Both must be >= 1.
struct KokkosTiles {
  int tile_x = 32;
  int tile_y = 4;
};

/// Runs up to `iterations` TV-L1 inner iterations for one warping on the Kokkos default
/// execution space (Serial with Debian's Kokkos 3.4), in float, updating s in place.
///
/// Numerics contract of ARCHITECTURE.md, the same formulas as tvl1_iterate_reference (Zach et al.
/// 2007; Sanchez Perez et al., IPOL 2013, Algorithm 1; Romera et al. 2023, eq. 2-3 and the
/// Global scheme), per iteration:
///   kernel "update u": rho = rho_c + grad . u; v = u + TH(rho, grad) with threshold
///     lambda*theta*|grad|^2 (v = u where |grad|^2 < 1e-10); u = v + theta * div(p),
///     div by backward differences with p = 0 outside the image;
///   kernel "update p": p = (p + tau/theta * grad u) / (1 + tau/theta * |grad u|) per
///     component, grad u by forward differences that are 0 on the last column/row.
/// When p.epsilon > 0 the "update u" kernel also reduces the mean over pixels of
/// |u - u_prev|^2 (on every p.epsilon_check_every-th iteration), and the loop stops after the
/// first such iteration where it is <= epsilon^2
/// (IPOL's stopping rule); p is updated in that last iteration too.
///
/// Shapes: w and s are width x height row-major, all vectors of size width*height.
/// Device views are allocated once per call; s is copied in and out once per call.
/// Returns the number of iterations run (== iterations when epsilon <= 0).
/// Throws std::invalid_argument (message names this function and the problem) on
/// mismatched shapes, iterations < 0, tiles < 1, or theta/tau <= 0.
int tvl1_iterate_kokkos(const WarpingData<float>& w, Tvl1State<float>& s, const Tvl1Params& p,
                        int iterations, KokkosTiles tiles);

}  // namespace flowtune
