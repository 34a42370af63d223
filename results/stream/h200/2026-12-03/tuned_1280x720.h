// Tuned tvl1 configuration for board 'h200', exported by flowtune (tune export) from its database.
// Objective: time_ms (least on the Pareto front of the workload's objectives).
// Measured figures (dataset middlebury:RubberWhale,Grove2@1280x720, measured at 2026-12-03T10:43:00.933Z, run 2, measurement 1999):
//   time per run   : 0.594 ms (median of 11 repeats, min 0.590, max 0.735)
//   time per unit  : 0.6446 ns
//   energy         : 189.391 mJ per run (315.9 W mean power)
//   aae_deg        : 11.63889652002327
//   aepe           : 1.0009116361240054
//   config key     : tvl1 global_pipeline mixed {"depth":2,"parts":1,"persistent_px":0,"resident_px":1024,"rows_per_thread":2,"skew":1,"strip_h":32,"tiled_px":1048576,"w":256} clock=0 {"epsilon":0,"iterations":5,"lambda":0.15,"n_scales":5,"n_warpings":1,"presmoothing_sigma":0.8,"rof_iterations":0,"tau":0.25,"theta":0.3,"zoom":0.5}
//   label          : global_pipeline mixed depth=2 parts=1 persistent_px=0 resident_px=1024 rows_per_thread=2 skew=1 strip_h=32 tiled_px=1048576 w=256
// Deployment: include this header before a CUDA kernel (kernels/cuda/*.cuh); it defines
// the kernel's FT_<TUNABLE> constants and FT_PRECISION_* unless already defined (-D).
// Host code: flowtune::parse_tuned_config(flowtune::tuned::kConfigJson)
// (flowtune/flowtune.hpp, CMake package flowtune).
// flowtune-config: {"clock_mhz":0,"params":{"epsilon":0,"iterations":5,"lambda":0.15,"n_scales":5,"n_warpings":1,"presmoothing_sigma":0.8,"rof_iterations":0,"tau":0.25,"theta":0.3,"zoom":0.5},"precision":"mixed","tunables":{"depth":2,"parts":1,"persistent_px":0,"resident_px":1024,"rows_per_thread":2,"skew":1,"strip_h":32,"tiled_px":1048576,"w":256},"variant":"global_pipeline","workload":"tvl1"}
#pragma once

#define FLOWTUNE_TUNED_DEPTH 2
#define FLOWTUNE_TUNED_PARTS 1
#define FLOWTUNE_TUNED_PERSISTENT_PX 0
#define FLOWTUNE_TUNED_RESIDENT_PX 1024
#define FLOWTUNE_TUNED_ROWS_PER_THREAD 2
#define FLOWTUNE_TUNED_SKEW 1
#define FLOWTUNE_TUNED_STRIP_H 32
#define FLOWTUNE_TUNED_TILED_PX 1048576
#define FLOWTUNE_TUNED_W 256

// The kernels' compile-time constants (kernels/cuda/*.cuh read FT_*).
#if !defined(FT_PRECISION_F32) && !defined(FT_PRECISION_F16) && !defined(FT_PRECISION_MIXED)
#define FT_PRECISION_MIXED 1
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
#define FT_RESIDENT_PX 1024
#endif
#ifndef FT_ROWS_PER_THREAD
#define FT_ROWS_PER_THREAD 2
#endif
#ifndef FT_SKEW
#define FT_SKEW 1
#endif
#ifndef FT_STRIP_H
#define FT_STRIP_H 32
#endif
#ifndef FT_TILED_PX
#define FT_TILED_PX 1048576
#endif
#ifndef FT_W
#define FT_W 256
#endif

namespace flowtune::tuned {

inline constexpr const char* kWorkload = "tvl1";
inline constexpr const char* kBoard = "h200";
inline constexpr const char* kVariant = "global_pipeline";
inline constexpr const char* kPrecision = "mixed";
inline constexpr const char* kConfigKey = "tvl1 global_pipeline mixed {\"depth\":2,\"parts\":1,\"persistent_px\":0,\"resident_px\":1024,\"rows_per_thread\":2,\"skew\":1,\"strip_h\":32,\"tiled_px\":1048576,\"w\":256} clock=0 {\"epsilon\":0,\"iterations\":5,\"lambda\":0.15,\"n_scales\":5,\"n_warpings\":1,\"presmoothing_sigma\":0.8,\"rof_iterations\":0,\"tau\":0.25,\"theta\":0.3,\"zoom\":0.5}";
/// The whole config as JSON (the flowtune-config line), for flowtune::parse_tuned_config.
inline constexpr const char* kConfigJson = "{\"clock_mhz\":0,\"params\":{\"epsilon\":0,\"iterations\":5,\"lambda\":0.15,\"n_scales\":5,\"n_warpings\":1,\"presmoothing_sigma\":0.8,\"rof_iterations\":0,\"tau\":0.25,\"theta\":0.3,\"zoom\":0.5},\"precision\":\"mixed\",\"tunables\":{\"depth\":2,\"parts\":1,\"persistent_px\":0,\"resident_px\":1024,\"rows_per_thread\":2,\"skew\":1,\"strip_h\":32,\"tiled_px\":1048576,\"w\":256},\"variant\":\"global_pipeline\",\"workload\":\"tvl1\"}";

inline constexpr int kDepth = 2;
inline constexpr int kParts = 1;
inline constexpr int kPersistentPx = 0;
inline constexpr int kResidentPx = 1024;
inline constexpr int kRowsPerThread = 2;
inline constexpr int kSkew = 1;
inline constexpr int kStripH = 32;
inline constexpr int kTiledPx = 1048576;
inline constexpr int kW = 256;
inline constexpr int kEpsilon = 0;
inline constexpr int kIterations = 5;
inline constexpr double kLambda = 0.15;
inline constexpr int kNScales = 5;
inline constexpr int kNWarpings = 1;
inline constexpr double kPresmoothingSigma = 0.8;
inline constexpr int kRofIterations = 0;
inline constexpr double kTau = 0.25;
inline constexpr double kTheta = 0.3;
inline constexpr double kZoom = 0.5;
inline constexpr int kClockMhz = 0;  // 0 = clock not controlled

}  // namespace flowtune::tuned
