// The naming convention between a config and the kernel macros of its device code: a tunable
// `tile_x` is the macro FT_TILE_X, precision "f16" the macro FT_PRECISION_F16. NVRTC builds
// (variants/*/cuda/) and exported tuned headers (reports/export_header.cpp) use these
// functions, so the kernels see the same names either way.
#pragma once

#include <string>

namespace flowtune {

/// The kernel macro of a tunable: "FT_" and the name upper-cased, e.g. "tile_x" ->
/// "FT_TILE_X", "w" -> "FT_W", "features_per_tb" -> "FT_FEATURES_PER_TB". ASCII letters only
/// change case; the name is not validated.
std::string kernel_macro(const std::string& tunable);

/// The NVRTC define of a tunable's value: kernel_macro(tunable) + "=" + value, e.g.
/// ("block_x", 32) -> "FT_BLOCK_X=32".
std::string kernel_define(const std::string& tunable, int value);

/// The macro the kernels select a precision with (kernels/cuda/tvl1_math.cuh): "f32" ->
/// "FT_PRECISION_F32", "f16" -> "FT_PRECISION_F16", "mixed" -> "FT_PRECISION_MIXED"; "" for
/// any other precision (e.g. APSP's "i32", whose kernels have no precision switch).
std::string precision_macro(const std::string& precision);

}  // namespace flowtune
