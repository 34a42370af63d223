#include "boards/cpu_facts.hpp"

#include <cstdint>
#include <string>

#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/simd_target.hpp"

namespace flowtune {
namespace {

std::string size_text(std::int64_t bytes) {
  if (bytes == 0) return "n/a";
  if (bytes >= (std::int64_t(1) << 20) && bytes % (std::int64_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

CpuFacts read_cpu_facts() {
  const HostCpu& cpu = host_cpu();
  CpuFacts facts;
  facts.model = cpu.model;
  facts.cpus = cpu.cpus;
  facts.l1d_bytes = cpu.l1d_bytes;
  facts.l2_bytes = cpu.l2_bytes;
  facts.l3_bytes = cpu.l3_bytes;
  facts.l2_shared_cpus = cpu.l2_shared_cpus;
  facts.simd_targets = cpu.simd_targets;
  for (const int code : compiled_simd_target_codes())
    if (code != kSimdTargetBest) facts.compiled_simd_targets.push_back(simd_target_name(code));
  facts.binary16_arithmetic = cpu.binary16_arithmetic;
  return facts;
}

std::string format_cpu_facts(const CpuFacts& facts) {
  std::string targets;
  for (const std::string& t : facts.simd_targets) targets += " " + t;
  std::string compiled;
  for (const std::string& t : facts.compiled_simd_targets) compiled += " " + t;
  return "  CPU model:           " + facts.model + " (/proc/cpuinfo)\n" +
         "  CPUs (this system):  " + std::to_string(facts.cpus) +
         " this process may run on (sched_getaffinity)\n"
         "  caches (CPU 0):      L1d " +
         size_text(facts.l1d_bytes) + ", L2 " + size_text(facts.l2_bytes) + " (shared by " +
         std::to_string(facts.l2_shared_cpus) + " CPU" + (facts.l2_shared_cpus == 1 ? "" : "s") +
         "), L3 " + size_text(facts.l3_bytes) + " (/sys/devices/system/cpu/cpu0/cache)\n" +
         "  SIMD targets:       " + targets + " (Highway: supported here, best first)\n" +
         "  compiled in:        " + compiled +
         " (tunable simd_target: best or one of these; pruned where unsupported)\n" +
         "  f16 arithmetic:      " + facts.binary16_arithmetic + "\n";
}

}  // namespace flowtune
