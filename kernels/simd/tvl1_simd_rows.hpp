// One row of each fused TV-L1 step, vectorised with Google Highway and dispatched at run time
// to the best SIMD target compiled in (kernels/simd/tvl1_simd_rows.cpp). Storage is float
// or binary16 (hwy::float16_t); the arithmetic is float (precisions f32, mixed) or binary16
// (precision f16: *_row_f16; Armv8.2-A FP16 vectors where the CPU has them,
// kernels/simd/tvl1_simd_rows_fp16.cpp, else an exact emulation on float lanes).
#pragma once

/// 1 where the native binary16 arithmetic path (Neon FP16 intrinsics) is compiled in:
/// aarch64 Linux (run-time check of HWCAP_ASIMDHP).
#if defined(__aarch64__) && defined(__linux__)
#define FLOWTUNE_NEON_FP16 1
#else
#define FLOWTUNE_NEON_FP16 0
#endif

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
/// `target` (all row functions): Highway's bit of the SIMD target to run (one HWY_* target
/// compiled in and supported here, see compiled_targets()), or 0 for the dispatch's choice,
/// the best one; a target not compiled in throws std::invalid_argument.
double update_u_row(const URow<float>& row, std::int64_t target = 0);
double update_u_row(const URow<hwy::float16_t>& row, std::int64_t target = 0);

/// Updates p on one row in place: p = (p + tau/theta * grad u) / (1 + tau/theta * |grad u|)
/// per flow component, grad u by forward differences (0 on the last column / row). Same
/// column independence as update_u_row.
void update_p_row(const PRow<float>& row, std::int64_t target = 0);
void update_p_row(const PRow<hwy::float16_t>& row, std::int64_t target = 0);

/// "update u" / "update p" on one row with binary16 storage and binary16 arithmetic: the
/// operation sequence of the GPU's f16 path (kernels/cuda/tvl1_math.cuh update_u and
/// update_p with MathF16; Romera et al. 2023, Algorithm 1), every operation rounded to
/// binary16 with ties to even (fma rounded once; reciprocal and square root correctly
/// rounded, where the GPU rounds its rcp.approx / sqrt.approx.f32 result: at most one binary16
/// ulp apart, rarely), subnormals kept. lambda_theta, theta and tau_theta are rounded to
/// binary16 first (the GPU's __float2half_rn of its float parameters); |grad|^2 below the
/// smallest normal binary16, 2^-14, counts as zero (MathF16::grad_zero). The bits do not depend
/// on the path: native Armv8.2-A FP16 (native_binary16_arithmetic()) and the emulation on
/// float lanes (each float result rounded to binary16; fma through round-to-odd) give the
/// same results. The native path runs with target 0 only; a given target runs Highway's
/// emulation on it. The change is the sum of |u_new - u_old|^2 of the stored values, in double.
double update_u_row_f16(const URow<hwy::float16_t>& row, std::int64_t target = 0);
void update_p_row_f16(const PRow<hwy::float16_t>& row, std::int64_t target = 0);

/// One binary16 operation of the emulation on float lanes (what the f16 rows compose).
enum class Binary16Op { add, sub, mul, fma, sqrt, rcp };
/// out[i] = op(a[i], b[i], c[i]) rounded to binary16 (ties to even; fma: a b + c rounded
/// once; sqrt, rcp: of a), on the dispatched SIMD target's emulation. Operands must be
/// binary16 values (as float). Exposed for tests of the emulation against an exact oracle.
void binary16_arithmetic_lanes(Binary16Op op, const float* a, const float* b, const float* c,
                               float* out, std::size_t n, std::int64_t target = 0);

/// True where the rows of precision f16 run on the CPU's binary16 arithmetic (aarch64 with
/// FP16, HWCAP_ASIMDHP: Jetson Xavier's Carmel, Orin's Cortex-A78AE); false elsewhere
/// (emulated exactly, same bits, several times slower).
bool native_binary16_arithmetic();
/// One line for the host board profile: "native (Armv8.2-A FP16: ASIMDHP)" or "emulated (...)".
std::string binary16_arithmetic();

#if FLOWTUNE_NEON_FP16
namespace neon_fp16 {
/// update_u_row_f16 / update_p_row_f16 on Armv8.2-A FP16 vectors
/// (kernels/simd/tvl1_simd_rows_fp16.cpp, compiled with -march=armv8.2-a+fp16); call only
/// where native_binary16_arithmetic().
double update_u_row(const URow<hwy::float16_t>& row);
void update_p_row(const PRow<hwy::float16_t>& row);
}  // namespace neon_fp16
#endif

/// Rounds n floats to binary16 with ties to even (binary16_bits_rne) on the SIMD target.
void to_binary16(const float* in, hwy::float16_t* out, std::size_t n, std::int64_t target = 0);
/// Widens n binary16 values to float (exact).
void from_binary16(const hwy::float16_t* in, float* out, std::size_t n, std::int64_t target = 0);

/// The SIMD target the dispatch picks on this CPU, e.g. "AVX3", "AVX2", "NEON", "EMU128".
std::string dispatched_target();
/// Every SIMD target compiled into this binary that this CPU supports, best first.
std::vector<std::string> supported_targets();
/// Highway's bits of every SIMD target compiled into this binary (HWY_TARGETS), best first,
/// whether this CPU supports them or not.
std::vector<std::int64_t> compiled_targets();
/// True for target 0 and for a target compiled in that this CPU supports (Highway's
/// SupportedTargets): the targets a row function may be given.
bool target_supported(std::int64_t target);
/// The name of the target whose code a row function given `target` runs (e.g. "AVX2"; with
/// target 0 the dispatch's choice): the dispatch table's entry reports itself.
std::string running_target(std::int64_t target);

}  // namespace simd_tvl1
}  // namespace flowtune
