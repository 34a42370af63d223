// Fuzz harness: the Kernel Tuner cache / T4 reader of `tune import`
// (interop::read_kernel_tuner_cache) on arbitrary text. Every outcome must be entries or a
// std::invalid_argument; an accepted entry must hold what the reader promises: a valid
// measurement has a time in [0, kMaxImportedTimeMs], every observable is finite and
// non-negative, and the config's key is its db::config_key.
#include <cmath>
#include <cstdint>
#include <sstream>
#include <stdexcept>
#include <string>

#include "interop/kernel_tuner.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace interop = flowtune::interop;
  std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
  interop::KernelTunerImportOptions options;
  options.tunable_names = {"tile_x", "tile_y", "block_x"};
  interop::KernelTunerImport imported;
  try {
    imported = interop::read_kernel_tuner_cache(in, options);
  } catch (const std::invalid_argument&) {
    return 0;  // documented: the problem, with the entry and the field
  }
  for (const interop::KernelTunerEntry& e : imported.entries) {
    if (e.error.empty() &&
        !(e.time_ms >= 0 && e.time_ms <= interop::kMaxImportedTimeMs))  // NaN fails too
      __builtin_trap();
    for (const auto& [name, value] : e.observables)
      if (!std::isfinite(value) || value < 0) __builtin_trap();
    if (e.config.key != flowtune::db::config_key(e.config)) __builtin_trap();
    if (e.where.empty()) __builtin_trap();
  }
  return 0;
}
