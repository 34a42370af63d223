// The simd_fused variant: TV-L1 on every core with SIMD (the paper's CPU baselines Neon.F32
// and Neon.F16, Romera et al. 2023 sec. 4), the five steps fused per row band.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "variants/variant.hpp"

namespace flowtune {

/// The process-wide simd_fused adaptor (name "simd_fused", target "cpu", precisions "f32",
/// "mixed" = binary16 storage with float arithmetic, and "f16" = binary16 storage and
/// arithmetic with the GPU f16 path's operations and rounding: native on Armv8.2-A FP16,
/// emulated exactly elsewhere, see simd_tvl1::binary16_arithmetic()). Tunables: `threads` (OpenMP
/// threads; host_thread_counts(): powers of two up to the CPUs this process may use, and
/// that count; searched and defaulted at that count), `band_rows` (rows per band of the
/// fused sweep, or per tile) in {4, 16, 64}, `temporal_depth` (iterations per tile pass;
/// 1 = the band sweep) in {1, 2, 4, 8} and `tile_cols` (columns per tile; 0 = whole rows,
/// the band sweep's) in {0, 128, 256, 512, 1024}; configs without the last two (made before
/// they existed) run at temporal_depth 1, tile_cols 0; `simd_target` (simd_target_domain():
/// best, the default and the only one searched unless asked for, or a Highway target compiled
/// in; configs without it run at best). Pruned by simd_fused_tile_reason with the host's L2
/// per CPU, and by simd_target_reason (a target the CPU lacks). Its solver runs
/// tvl1_multiscale<float> (kernels/tvl1_multiscale.hpp) with tvl1_iterate_simd
/// (kernels/simd/tvl1_simd.hpp) doing config.params.iterations per warping.
const FlowVariant& simd_fused_variant();

/// Why a tile shape is pruned, or nullopt: with temporal_depth 1, tile_cols must be 0 (the
/// band sweep has no tiles); with temporal_depth D > 1, tile_cols must be > 0, the halo may
/// at most double the pixels computed ((band_rows + 2D)(tile_cols + 2D) <= 2 band_rows
/// tile_cols), and the working set tile_working_set_bytes(band_rows, tile_cols, D,
/// bytes_per_value) must fit l2_bytes (the L2 per CPU, l2_bytes_per_cpu; 0 = unknown, not
/// checked). The reason names the limit, e.g. "tile 64x1024 at temporal_depth=8: working
/// set 2995200 B (80 x 1040 px x 9 fields x 4 B) exceeds the L2 per CPU, 2097152 B (...)".
std::optional<std::string> simd_fused_tile_reason(int band_rows, int tile_cols, int temporal_depth,
                                                  int bytes_per_value, std::int64_t l2_bytes);

}  // namespace flowtune
