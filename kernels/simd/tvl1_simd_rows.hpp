// One row of each fused TV-L1 step, vectorised with Google Highway and dispatched at run time
// to the best SIMD target compiled in (kernels/simd/tvl1_simd_rows.cpp). Storage is float
// or binary16 (hwy::float16_t); the arithmetic is float in both.
#pragma once

#include <hwy/base.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace flowtune {
namespace simd_tvl1 {

/// Inputs and outputs of "update u" on row y (Romera et al. 2023, Algorithm 1: Threshold,
/// Divergence, Estimate U). Every pointer addresses `width` elements of row y, except
/// p12_above / p22_above (row y - 1; nullptr on row 0, where p = 0 outside the image).
template <typename Storage>
struct URow {
  const Storage* grad_x;
  const Storage* grad_y;
  const Storage* rho_c;
  Storage* u1;
  Storage* u2;
  const Storage* p11;
  const Storage* p12;
  const Storage* p21;
  const Storage* p22;
  const Storage* p12_above;
  const Storage* p22_above;
  int width;
  float lambda_theta;  ///< lambda * theta
  float theta;
  bool track_change;  ///< compute the returned change (else 0 is returned)
  /// The returned change sums the columns [change_begin, change_end) only (a tile's
  /// interior; 0 and width for the whole row).
  int change_begin;
  int change_end;
};

/// Inputs and outputs of "update p" on row y (Forward Gradient, Estimate P). u1 / u2 are row
/// y, u1_below / u2_below row y + 1 (nullptr on the last row: the forward gradient is 0).
template <typename Storage>
struct PRow {
  const Storage* u1;
  const Storage* u2;
  const Storage* u1_below;
  const Storage* u2_below;
  Storage* p11;
  Storage* p12;
  Storage* p21;
  Storage* p22;
  int width;
  float tau_theta;  ///< tau / theta
};

/// Updates u on one row in place (numerics contract, ARCHITECTURE.md): rho = rho_c + grad.u,
/// v = u + TH(rho, grad) (v = u where |grad|^2 < 1e-10), u = v + theta * div(p) with
/// backward differences. Returns the sum of |u_new - u_old|^2 (IPOL's stopping rule) over
/// the columns [change_begin, change_end) when row.track_change, else 0. A pixel's result
/// depends on its inputs only, not on its column (one lane or a full vector compute it with
/// the same operations), so a row piece gives the bits the whole row gives there.
double update_u_row(const URow<float>& row);
double update_u_row(const URow<hwy::float16_t>& row);

/// Updates p on one row in place: p = (p + tau/theta * grad u) / (1 + tau/theta * |grad u|)
/// per flow component, grad u by forward differences (0 on the last column / row). Same
/// column independence as update_u_row.
void update_p_row(const PRow<float>& row);
void update_p_row(const PRow<hwy::float16_t>& row);

/// Rounds n floats to binary16 with ties to even (binary16_bits_rne) on the SIMD target.
void to_binary16(const float* in, hwy::float16_t* out, std::size_t n);
/// Widens n binary16 values to float (exact).
void from_binary16(const hwy::float16_t* in, float* out, std::size_t n);

/// The SIMD target the dispatch picks on this CPU, e.g. "AVX3", "AVX2", "NEON", "EMU128".
std::string dispatched_target();
/// Every SIMD target compiled into this binary that this CPU supports, best first.
std::vector<std::string> supported_targets();

}  // namespace simd_tvl1
}  // namespace flowtune
