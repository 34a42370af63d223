#include "kernels/simd/simd_target.hpp"

#include <hwy/targets.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"

namespace flowtune {
namespace {

/// Code -> Highway name. Append only: codes are stored in DBs.
constexpr const char* kNames[] = {"best", "EMU128",  "SCALAR",  "SSSE3", "SSE4",
                                  "AVX2", "AVX3",    "AVX3_DL", "NEON",  "SVE",
                                  "SVE2", "SVE_256", "SVE2_128"};
constexpr int kCodes = int(std::size(kNames));

/// The compiled-in Highway bit named `name`, or 0.
std::int64_t compiled_bit(const std::string& name) {
  for (const std::int64_t bit : simd_tvl1::compiled_targets())
    if (name == hwy::TargetName(bit)) return bit;
  return 0;
}

}  // namespace

std::string simd_target_name(int code) {
  return code >= 0 && code < kCodes ? kNames[code] : "unknown";
}

std::optional<int> simd_target_code(const std::string& name) {
  for (int code = 0; code < kCodes; ++code)
    if (name == kNames[code]) return code;
  return std::nullopt;
}

std::vector<int> compiled_simd_target_codes() {
  std::vector<int> codes{kSimdTargetBest};
  for (const std::int64_t bit : simd_tvl1::compiled_targets())
    if (const auto code = simd_target_code(hwy::TargetName(bit))) codes.push_back(*code);
  return codes;
}

std::optional<std::string> simd_target_reason(int code) {
  return simd_target_reason(code, host_cpu().simd_targets, host_cpu().model);
}

std::optional<std::string> simd_target_reason(int code, const std::vector<std::string>& supported,
                                              const std::string& model) {
  const std::string what =
      "simd_target=" + simd_target_name(code) + " (code " + std::to_string(code) + ")";
  if (code < 0 || code >= kCodes)
    return what + ": no such target (codes 0.." + std::to_string(kCodes - 1) + ")";
  if (code == kSimdTargetBest) return std::nullopt;
  const std::int64_t bit = compiled_bit(kNames[code]);
  if (bit == 0) {
    std::string compiled;
    for (const std::int64_t b : simd_tvl1::compiled_targets())
      compiled += std::string(compiled.empty() ? "" : " ") + hwy::TargetName(b);
    return what + ": not compiled into this build (compiled in: " + compiled + ")";
  }
  if (std::find(supported.begin(), supported.end(), kNames[code]) == supported.end()) {
    std::string names;
    for (const std::string& s : supported) names += (names.empty() ? "" : " ") + s;
    return what + ": not supported by this CPU (" + model + "; supported here: " + names + ")";
  }
  return std::nullopt;
}

std::int64_t simd_target_bit(int code) {
  if (const auto why = simd_target_reason(code)) throw std::invalid_argument(*why);
  return code == kSimdTargetBest ? 0 : compiled_bit(kNames[code]);
}

}  // namespace flowtune
