// Tuned tvl1 configuration for board 'h200', exported by flowtune (tune export) from its database.
// Objective: time_ms (least on the Pareto front of the workload's objectives).
// Measured figures (dataset middlebury:Grove2,RubberWhale, measured at 2026-12-03T06:00:59.286Z, run 1, measurement 6366):
//   time per run   : 0.290 ms (median of 11 repeats, min 0.286, max 0.468)
//   time per unit  : 1.0856 ns
//   energy         : 69.927 mJ per run (240.9 W mean power)
//   aae_deg        : 5.600071987699983
//   aepe           : 0.24216915341217743
//   config key     : tvl1 global_pipeline f16 {"depth":2,"parts":1,"persistent_px":0,"resident_px":4096,"rows_per_thread":1,"skew":2,"strip_h":32,"tiled_px":1048576,"w":64} clock=0 {"epsilon":0,"iterations":14,"lambda":0.15,"n_scales":4,"n_warpings":1,"presmoothing_sigma":0.8,"rof_iterations":1,"tau":0.25,"texture_alpha":0.95,"theta":0.3,"zoom":0.6}
//   label          : global_pipeline f16 depth=2 parts=1 persistent_px=0 resident_px=4096 rows_per_thread=1 skew=2 strip_h=32 tiled_px=1048576 w=64
// Deployment: include this header before a CUDA kernel (kernels/cuda/*.cuh); it defines
// the kernel's FT_<TUNABLE> constants and FT_PRECISION_* unless already defined (-D).
// Host code: flowtune::parse_tuned_config(flowtune::tuned::kConfigJson)
// (flowtune/flowtune.hpp, CMake package flowtune).
// flowtune-config: {"clock_mhz":0,"params":{"epsilon":0,"iterations":14,"lambda":0.15,"n_scales":4,"n_warpings":1,"presmoothing_sigma":0.8,"rof_iterations":1,"tau":0.25,"texture_alpha":0.95,"theta":0.3,"zoom":0.6},"precision":"f16","tunables":{"depth":2,"parts":1,"persistent_px":0,"resident_px":4096,"rows_per_thread":1,"skew":2,"strip_h":32,"tiled_px":1048576,"w":64},"variant":"global_pipeline","workload":"tvl1"}
#pragma once

#define FLOWTUNE_TUNED_DEPTH 2
#define FLOWTUNE_TUNED_PARTS 1
#define FLOWTUNE_TUNED_PERSISTENT_PX 0
#define FLOWTUNE_TUNED_RESIDENT_PX 4096
#define FLOWTUNE_TUNED_ROWS_PER_THREAD 1
#define FLOWTUNE_TUNED_SKEW 2
#define FLOWTUNE_TUNED_STRIP_H 32
#define FLOWTUNE_TUNED_TILED_PX 1048576
#define FLOWTUNE_TUNED_W 64

// The kernels' compile-time constants (kernels/cuda/*.cuh read FT_*).
#if !defined(FT_PRECISION_F32) && !defined(FT_PRECISION_F16) && !defined(FT_PRECISION_MIXED)
#define FT_PRECISION_F16 1
#endif
#ifndef FT_DEPTH
#define FT_DEPTH 2
#endif
#ifndef FT_PARTS
#define FT_PARTS 1
#endif
#ifndef FT_PERSISTENT_PX
#define FT_PERSISTENT_PX 0
#endif
#ifndef FT_RESIDENT_PX
#define FT_RESIDENT_PX 4096
#endif
#ifndef FT_ROWS_PER_THREAD
#define FT_ROWS_PER_THREAD 1
#endif
#ifndef FT_SKEW
#define FT_SKEW 2
#endif
#ifndef FT_STRIP_H
#define FT_STRIP_H 32
#endif
#ifndef FT_TILED_PX
#define FT_TILED_PX 1048576
#endif
#ifndef FT_W
#define FT_W 64
#endif

namespace flowtune::tuned {

inline constexpr const char* kWorkload = "tvl1";
inline constexpr const char* kBoard = "h200";
inline constexpr const char* kVariant = "global_pipeline";
inline constexpr const char* kPrecision = "f16";
inline constexpr const char* kConfigKey = "tvl1 global_pipeline f16 {\"depth\":2,\"parts\":1,\"persistent_px\":0,\"resident_px\":4096,\"rows_per_thread\":1,\"skew\":2,\"strip_h\":32,\"tiled_px\":1048576,\"w\":64} clock=0 {\"epsilon\":0,\"iterations\":14,\"lambda\":0.15,\"n_scales\":4,\"n_warpings\":1,\"presmoothing_sigma\":0.8,\"rof_iterations\":1,\"tau\":0.25,\"texture_alpha\":0.95,\"theta\":0.3,\"zoom\":0.6}";
/// The whole config as JSON (the flowtune-config line), for flowtune::parse_tuned_config.
inline constexpr const char* kConfigJson = "{\"clock_mhz\":0,\"params\":{\"epsilon\":0,\"iterations\":14,\"lambda\":0.15,\"n_scales\":4,\"n_warpings\":1,\"presmoothing_sigma\":0.8,\"rof_iterations\":1,\"tau\":0.25,\"texture_alpha\":0.95,\"theta\":0.3,\"zoom\":0.6},\"precision\":\"f16\",\"tunables\":{\"depth\":2,\"parts\":1,\"persistent_px\":0,\"resident_px\":4096,\"rows_per_thread\":1,\"skew\":2,\"strip_h\":32,\"tiled_px\":1048576,\"w\":64},\"variant\":\"global_pipeline\",\"workload\":\"tvl1\"}";

inline constexpr int kDepth = 2;
inline constexpr int kParts = 1;
inline constexpr int kPersistentPx = 0;
inline constexpr int kResidentPx = 4096;
inline constexpr int kRowsPerThread = 1;
inline constexpr int kSkew = 2;
inline constexpr int kStripH = 32;
inline constexpr int kTiledPx = 1048576;
inline constexpr int kW = 64;
inline constexpr int kEpsilon = 0;
inline constexpr int kIterations = 14;
inline constexpr double kLambda = 0.15;
inline constexpr int kNScales = 4;
inline constexpr int kNWarpings = 1;
inline constexpr double kPresmoothingSigma = 0.8;
inline constexpr int kRofIterations = 1;
inline constexpr double kTau = 0.25;
inline constexpr double kTextureAlpha = 0.95;
inline constexpr double kTheta = 0.3;
inline constexpr double kZoom = 0.6;
inline constexpr int kClockMhz = 0;  // 0 = clock not controlled

}  // namespace flowtune::tuned
