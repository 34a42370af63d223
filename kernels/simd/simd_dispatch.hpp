// A per-call choice of SIMD target in Highway's dispatch tables: the entry of an HWY_EXPORT
// table for a given target, instead of the process-wide choice that HWY_DYNAMIC_DISPATCH
// reads (hwy::GetChosenTarget, which hwy::SetSupportedTargetsForTest changes for every
// thread). Include after <hwy/highway.h>, in the HWY_ONCE part of a file that
// HWY_EXPORTs (Highway 1.0.3, hwy/highway.h and hwy/targets.h).
#pragma once

#include <hwy/highway.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace flowtune {
namespace simd_dispatch {

/// Index in an HWY_EXPORT table of Highway target bit `target` (one HWY_* target, e.g.
/// HWY_AVX2), or of the dispatch's choice when target is 0: the index HWY_DYNAMIC_DISPATCH
/// would use after hwy::GetChosenTarget().Update(target) (the targets in the ChosenTarget
/// mask format, with EMU128/SCALAR as the table's last entry), without changing it.
inline std::size_t table_index(std::int64_t target) {
#if (HWY_TARGETS & (HWY_TARGETS - 1)) == 0
  (void)target;  // one target compiled in: a one-entry table
  return 0;
#else
  if (target == 0) return hwy::GetChosenTarget().GetIndex();
  return hwy::Num0BitsBelowLS1Bit_Nonzero64(
      static_cast<std::uint64_t>((HWY_CHOSEN_TARGET_SHIFT(target) | HWY_CHOSEN_TARGET_MASK_SCALAR) &
                                 HWY_CHOSEN_TARGET_MASK_TARGETS));
#endif
}

/// The entry of `table` (an HWY_DISPATCH_TABLE) for target (0 = the dispatch's choice).
/// Throws std::invalid_argument when the target is not compiled in (a null entry).
template <typename Fn>
Fn entry(Fn const* table, std::int64_t target) {
  const Fn fn = table[table_index(target)];
  if (fn == nullptr)
    throw std::invalid_argument("SIMD target " + std::string(hwy::TargetName(target)) +
                                " is not compiled into this build");
  return fn;
}

}  // namespace simd_dispatch
}  // namespace flowtune

/// Calls FUNC_NAME (HWY_EXPORTed in this scope) on `target`: HWY_DYNAMIC_DISPATCH with a
/// per-call target (0 = the dispatch's choice).
#define FLOWTUNE_DISPATCH(FUNC_NAME, target) \
  (*::flowtune::simd_dispatch::entry(HWY_DISPATCH_TABLE(FUNC_NAME), (target)))
