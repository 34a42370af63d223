// The simd_target tunable of the SIMD host variants (simd_fused, bm_simd, lk_simd): which
// Highway target their rows run on (kernels/simd/simd_target.hpp). Categorical: its values
// are fixed codes, named by TunableDomain::choices.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "kernels/simd/simd_target.hpp"
#include "variants/config.hpp"
#include "variants/variant.hpp"

namespace flowtune {

/// The simd_target domain: `best` and every target compiled into this build (best first; a
/// target the CPU lacks is in the domain and pruned by simd_target_tunable_reason, so
/// `tune space` says why). A search enumerates only `best` unless --tunable simd_target=...
/// asks for others: the targets give the same bits, and only a slower target than the
/// dispatch's best is left to choose.
inline TunableDomain simd_target_domain() {
  TunableDomain d{"simd_target", compiled_simd_target_codes(), {kSimdTargetBest}};
  for (const int code : d.values) d.choices.push_back(simd_target_name(code));
  return d;
}

/// The code of config's simd_target: kSimdTargetBest in configs without it (made before it
/// existed).
inline int simd_target_code_of(const Config& config) {
  const auto it = config.tunables.find("simd_target");
  return it == config.tunables.end() ? kSimdTargetBest : it->second;
}

/// Why config's simd_target cannot run here (simd_target_reason, prefixed by "who: "), or
/// nullopt.
inline std::optional<std::string> simd_target_tunable_reason(const std::string& who,
                                                             const Config& config) {
  if (const auto why = simd_target_reason(simd_target_code_of(config))) return who + ": " + *why;
  return std::nullopt;
}

}  // namespace flowtune
