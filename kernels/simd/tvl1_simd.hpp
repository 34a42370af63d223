// TV-L1 inner iterations on every core with SIMD: the five steps of one iteration fused in
// one sweep per row band (the CPU analogue of the paper's fused GPU schemes), OpenMP threads
// over the bands, Google Highway vectors along the rows; float or binary16 storage.
#pragma once

#include <hwy/base.h>

#include <cstdint>
#include <vector>

#include "kernels/tvl1_params.hpp"
#include "kernels/tvl1_warping.hpp"

namespace flowtune {

/// Storage of the nine fields during the iterations, and the arithmetic.
enum class SimdStorage {
  f32,       ///< float storage, float arithmetic (precision f32)
  binary16,  ///< IEEE binary16 storage, rounded to nearest even on every store (as CUDA's
             ///< __half), float arithmetic (precision mixed)
  /// binary16 storage and binary16 arithmetic (precision f16): the GPU's f16 path's
  /// operations and rounding (simd_tvl1::update_u_row_f16), on Armv8.2-A FP16 where the CPU
  /// has it, else emulated exactly
  f16
};

/// How the iterations are scheduled. Changes only speed, never the result (the bands and
/// tiles exchange no approximations: see tvl1_iterate_simd).
struct SimdSchedule {
  int threads = 1;    ///< OpenMP threads (>= 1)
  int band_rows = 8;  ///< rows per band (temporal_depth 1) or per tile (> 1), >= 1
  /// Iterations run on a tile before its results are written back (temporal blocking); 1 =
  /// the band sweep, one pass over memory per iteration.
  int temporal_depth = 1;
  int tile_cols = 0;  ///< columns per tile with temporal_depth > 1 (0 = the whole row)
  /// Highway's bit of the SIMD target the rows run on (e.g. HWY_AVX2; simd_target_bit of the
  /// simd_target tunable), 0 = the dynamic dispatch's best. f16's bits do not depend on it;
  /// f32's and binary16's may differ in the last bits where one target has FMA and the other
  /// not (the compiler fuses multiply-adds on those targets), within the contract.
  /// Chosen per call: other calls in the process keep theirs.
  std::int64_t simd_target = 0;
};

/// Bytes a thread keeps hot while it runs temporal_depth iterations on one tile of
/// rows x cols pixels: the tile and its halo of temporal_depth pixels on every side, nine
/// fields (u1, u2, p11, p12, p21, p22 in the thread's copy; grad_x, grad_y, rho_c read in
/// place) of bytes_per_value each: (rows + 2 depth) (cols + 2 depth) 9 bytes_per_value.
/// E.g. 16 x 256, depth 4, f32: 24 * 264 * 9 * 4 = 228096 B.
std::int64_t tile_working_set_bytes(int rows, int cols, int temporal_depth, int bytes_per_value);

/// Runs up to `iterations` TV-L1 inner iterations of one warping, updating s in place.
///
/// Numerics contract of ARCHITECTURE.md, the formulas of tvl1_iterate_reference (Zach et al.
/// 2007; Sanchez Perez et al., IPOL 2013; Romera et al. 2023, Algorithm 1 and eq. 2-3).
/// Schedule of one iteration: the rows are cut into bands of `band_rows`; each thread sweeps
/// its bands top to bottom doing "update u" on row y, then "update p" on row y - 1 (which
/// needs u of rows y - 1 and y, both new): the five steps fused in one pass over memory.
/// "update u" on the first row of a band reads p of the row above, which its band updates
/// only after a barrier, so every band's last row gets "update p" in a second phase. Two
/// barriers per iteration; the result does not depend on threads or band_rows.
/// With temporal_depth D > 1 (temporal blocking, the CPU analogue of the paper's
/// Shared_pipeline scheme, Romera et al. 2023 sec. 3): the image is cut into tiles of
/// band_rows x tile_cols; per pass each thread copies a tile with a halo of D pixels (clipped
/// at the image border) from the current fields, runs D fused iterations on its copy - the
/// halo's values go wrong from its outer edge inwards, one pixel per iteration, so the tile
/// itself stays exact - and writes the tile to a second set of fields; the sets swap after
/// the pass (the last pass runs the remaining iterations). Every pixel gets the operations
/// the band sweep gives it, so the result equals temporal_depth 1 bit for bit; with epsilon
/// the change of each iteration is summed over the tiles and a pass that reaches the stop
/// is run again to that iteration (the stopping sums are added in another order than the
/// band sweep's, which can move the stop only when a sum ties epsilon^2 within rounding).
/// The second set of fields is a per-calling-thread workspace kept between calls.
/// With SimdStorage::binary16 the warping data and the state are rounded to binary16 on
/// entry (ties to even), every update is computed in float and rounded on store, and s is
/// widened back to float on return. SimdStorage::f16 stores the same way and computes every
/// update in binary16 with the operation sequence of the GPU's f16 path (kernels/cuda/
/// tvl1_math.cuh with MathF16: rho = (rho_c + gx u1) + gy u2, fi = clamp(-rho / max(|grad|^2,
/// 2^-14), -lt, lt), v = fma(fi, grad, u), u = fma(theta, div p, v); p = fma(taut, grad u, p)
/// * (1 / fma(taut, |grad u|, 1))), each operation rounded to binary16 (update_u_row_f16).
/// When p.epsilon > 0 the loop stops after the first checked iteration (every
/// p.epsilon_check_every-th: k, 2k, ...) whose mean over pixels of |u - u_prev|^2 is
/// <= epsilon^2 (IPOL's stopping rule; p is updated in it too).
///
/// Shapes: w and s are width x height row-major, all vectors of size width*height.
/// Returns the number of iterations run. Throws std::invalid_argument (message names this
/// function and the problem) on mismatched shapes, iterations < 0, threads, band_rows or
/// temporal_depth < 1, tile_cols < 0, theta/tau <= 0, or a simd_target this build or CPU
/// cannot run. Cancellation
/// (kernels/cancellation.hpp) is checked once per iteration (per pass with temporal blocking)
/// and throws Cancelled after the iteration (pass) in progress.
int tvl1_iterate_simd(const WarpingData<float>& w, Tvl1State<float>& s, const Tvl1Params& p,
                      int iterations, SimdSchedule schedule, SimdStorage storage);

/// The nine fields of one warping in binary16 (width x height row-major each), as
/// tvl1_iterate_simd holds them with SimdStorage::binary16.
struct Binary16Fields {
  int width = 0, height = 0;
  std::vector<hwy::float16_t> grad_x, grad_y, rho_c, u1, u2, p11, p12, p21, p22;
};

/// w and s rounded to binary16 (ties to even) on SIMD target simd_target (as
/// SimdSchedule::simd_target). Throws std::invalid_argument as tvl1_iterate_simd does for
/// mismatched shapes.
Binary16Fields to_binary16_fields(const WarpingData<float>& w, const Tvl1State<float>& s,
                                  std::int64_t simd_target = 0);

/// Widens u and p of f back into s (exact). Throws std::invalid_argument when s is not
/// f.width x f.height.
void from_binary16_fields(const Binary16Fields& f, Tvl1State<float>& s,
                          std::int64_t simd_target = 0);

/// tvl1_iterate_simd with SimdStorage::binary16 (binary16_arithmetic false) or
/// SimdStorage::f16 (true) on fields already in binary16 (no conversion: what a solver
/// keeping its state in binary16 runs, and what the benchmark times). Same schedule, rules,
/// errors and return value.
int tvl1_iterate_simd_binary16(Binary16Fields& f, const Tvl1Params& p, int iterations,
                               SimdSchedule schedule, bool binary16_arithmetic = false);

}  // namespace flowtune
