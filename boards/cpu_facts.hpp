// The host CPU's facts a cpu board profile records at run time (they vary from machine to
// machine, so they are read from the system, not written in boards/host.toml): CPUs, data
// caches, SIMD targets, as kernels/simd/host_cpu.hpp reads them (once per process) for the
// SIMD variant's pruning.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flowtune {

/// The CPU this process runs on.
struct CpuFacts {
  std::string model;  ///< the CPU's name (HostCpu::model: /proc/cpuinfo)
  int cpus = 1;       ///< logical CPUs this process may run on (sched_getaffinity)
  /// Cache sizes of CPU 0 in bytes (L1 data, L2, L3; 0 where the kernel reports none):
  /// /sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}.
  std::int64_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;
  int l2_shared_cpus = 1;  ///< CPUs sharing CPU 0's L2 (shared_cpu_list)
  /// Google Highway's SIMD targets this CPU supports among those compiled into the SIMD
  /// variant, best first, e.g. {"AVX3", "AVX2", "SSE4"}.
  std::vector<std::string> simd_targets;
  /// Every SIMD target compiled into the SIMD variants, best first, supported here or not:
  /// the simd_target tunable's values besides best (kernels/simd/simd_target.hpp).
  std::vector<std::string> compiled_simd_targets;
  /// How precision f16's binary16 arithmetic runs: "native (Armv8.2-A FP16: ASIMDHP)" or
  /// "emulated (...)".
  std::string binary16_arithmetic;
};

/// The facts of kernels/simd/host_cpu.hpp (sysfs and Highway's CPU detection; no error:
/// unknown facts stay 0).
CpuFacts read_cpu_facts();

/// Six lines for `tune boards show` of a cpu board ("  CPUs (this system): ...").
std::string format_cpu_facts(const CpuFacts& facts);

}  // namespace flowtune
