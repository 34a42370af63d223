// Facts about the host CPU that the SIMD variant prunes its tunables with: the CPUs this
// process may run on, the data cache sizes and the SIMD targets, read from the system.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace flowtune {

/// The host CPU as this process sees it.
struct HostCpu {
  /// The CPU's name: /proc/cpuinfo's "model name" (x86), else its "CPU implementer" and
  /// "CPU part" (aarch64, e.g. "implementer 0x41 part 0xd42"), else "unknown CPU".
  std::string model = "unknown CPU";
  int cpus = 1;  ///< logical CPUs this process may run on (sched_getaffinity; >= 1)
  /// Data/unified cache sizes in bytes of CPU 0 by level (L1d, L2, L3), 0 where the kernel
  /// does not report one (/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}).
  std::int64_t l1d_bytes = 0, l2_bytes = 0, l3_bytes = 0;
  /// CPUs sharing CPU 0's L2 (its shared_cpu_list; 1 where unreadable): 2 where the L2 is a
  /// core's and the core runs two hardware threads.
  int l2_shared_cpus = 1;
  /// SIMD targets compiled in and supported here, best first (Highway names, e.g. "AVX3").
  std::vector<std::string> simd_targets;
  /// Precision f16's binary16 arithmetic runs on the CPU (Armv8.2-A FP16, HWCAP_ASIMDHP)
  /// rather than emulated on float lanes (simd_tvl1::native_binary16_arithmetic()).
  bool native_binary16 = false;
  /// How precision f16 computes here, one line (simd_tvl1::binary16_arithmetic(); on x86
  /// with AVX512-FP16 in /proc/cpuinfo it adds that the extension is present but unused).
  std::string binary16_arithmetic;
};

/// The L2 bytes one CPU may count on when every CPU runs a thread: l2_bytes /
/// l2_shared_cpus (0 where the L2 size is unknown).
std::int64_t l2_bytes_per_cpu(const HostCpu& cpu);

/// Reads the host's facts once per process (later calls return the first result).
const HostCpu& host_cpu();

/// Thread counts worth trying on this host: the powers of two below host_cpu().cpus and
/// cpus itself, ascending (e.g. {1, 2, 4, 8, 16} for 16 CPUs, {1, 2, 4, 6} for 6).
std::vector<int> host_thread_counts();

}  // namespace flowtune
