// The values of the simd_target tunable of the SIMD host variants (simd_fused, bm_simd,
// lk_simd): `best` (Highway's dynamic dispatch, the best target compiled in and supported)
// or one Highway target by name, e.g. AVX3, AVX2, SSE4, EMU128/SCALAR on x86; NEON, SVE, SVE2
// on aarch64. Tunables hold integers: each name has a fixed code here, independent of the
// build and of Highway's bit layout, so a code in a DB means the same target everywhere.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace flowtune {

/// Code of simd_target = best (the default: Highway's choice, as before the tunable existed).
constexpr int kSimdTargetBest = 0;

/// The name of a simd_target code: "best", or Highway's target name (hwy::TargetName), e.g.
/// "AVX2"; "unknown" for a code no target has.
std::string simd_target_name(int code);

/// The code of a simd_target name ("best", "AVX2", ...; case-sensitive, Highway's spelling),
/// or nullopt when no target has that name.
std::optional<int> simd_target_code(const std::string& name);

/// The codes of the SIMD targets compiled into this build (the variants' tunable domain):
/// kSimdTargetBest first, then every target of Highway's dispatch tables, best first, whether
/// this CPU supports it or not (see simd_target_reason).
std::vector<int> compiled_simd_target_codes();

/// Why simd_target `code` cannot run on this host, or nullopt: an unknown code, a target not
/// compiled into this build, or one the CPU does not support. The reason names the target and
/// the CPU (HostCpu::model) and lists the targets it supports, e.g. "simd_target=AVX3
/// (code 6): not supported by this CPU (Intel(R) Xeon(R) ...; supported here: AVX2 SSE4
/// SSSE3 SCALAR)".
std::optional<std::string> simd_target_reason(int code);

/// simd_target_reason for a CPU named `model` that supports the targets `supported` (Highway
/// names): the rule itself, for any CPU.
std::optional<std::string> simd_target_reason(int code, const std::vector<std::string>& supported,
                                              const std::string& model);

/// Highway's target bit of `code` (e.g. HWY_AVX2), 0 for best: what the row kernels take.
/// Throws std::invalid_argument with simd_target_reason's text where that gives one.
std::int64_t simd_target_bit(int code);

}  // namespace flowtune
