#include "boards/cpu_facts.hpp"

#include <hwy/highway.h>
#include <sched.h>

#include <cctype>
#include <fstream>

namespace flowtune {
namespace {

std::string first_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// A sysfs cache size ("48K", "2048K", "32M") in bytes; 0 when unreadable.
std::int64_t parse_cache_size(const std::string& text) {
  std::size_t i = 0;
  std::int64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    value = value * 10 + (text[i++] - '0');
  if (i < text.size() && (text[i] == 'K' || text[i] == 'k')) value *= 1024;
  if (i < text.size() && (text[i] == 'M' || text[i] == 'm')) value *= 1024 * 1024;
  return value;
}

std::string size_text(std::int64_t bytes) {
  if (bytes == 0) return "n/a";
  if (bytes >= (std::int64_t(1) << 20) && bytes % (std::int64_t(1) << 20) == 0)
    return std::to_string(bytes >> 20) + " MiB";
  return std::to_string(bytes >> 10) + " KiB";
}

}  // namespace

CpuFacts read_cpu_facts() {
  CpuFacts facts;
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    facts.cpus = CPU_COUNT(&set);
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    const std::string level = first_line(dir + "/level");
    if (level.empty() || first_line(dir + "/type") == "Instruction") continue;
    const std::int64_t bytes = parse_cache_size(first_line(dir + "/size"));
    if (level == "1") facts.l1d_bytes = bytes;
    if (level == "2") facts.l2_bytes = bytes;
    if (level == "3") facts.l3_bytes = bytes;
  }
  for (const std::int64_t target : hwy::SupportedAndGeneratedTargets())
    facts.simd_targets.emplace_back(hwy::TargetName(target));
  return facts;
}

std::string format_cpu_facts(const CpuFacts& facts) {
  std::string targets;
  for (const std::string& t : facts.simd_targets) targets += " " + t;
  return "  CPUs (this system):  " + std::to_string(facts.cpus) +
         " this process may run on (sched_getaffinity)\n"
         "  caches (CPU 0):      L1d " +
         size_text(facts.l1d_bytes) + ", L2 " + size_text(facts.l2_bytes) + ", L3 " +
         size_text(facts.l3_bytes) + " (/sys/devices/system/cpu/cpu0/cache)\n" +
         "  SIMD targets:       " + targets + " (Highway: supported here, best first)\n";
}

}  // namespace flowtune
