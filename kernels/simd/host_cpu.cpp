#include "kernels/simd/host_cpu.hpp"

#include <sched.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <fstream>
#include <string>

#include "kernels/simd/tvl1_simd_rows.hpp"

namespace flowtune {
namespace {

std::string read_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

/// "48K", "2048K", "32M" (sysfs cache size) in bytes; 0 when unreadable.
std::int64_t parse_size(const std::string& text) {
  std::size_t i = 0;
  std::int64_t value = 0;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])))
    value = value * 10 + (text[i++] - '0');
  if (i < text.size() && (text[i] == 'K' || text[i] == 'k')) value *= 1024;
  if (i < text.size() && (text[i] == 'M' || text[i] == 'm')) value *= 1024 * 1024;
  return value;
}

/// Number of CPUs in a sysfs CPU list such as "0", "0-1" or "0-1,16-17"; 1 when unreadable.
int count_cpu_list(const std::string& text) {
  int count = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    std::size_t end = text.find(',', i);
    if (end == std::string::npos) end = text.size();
    const std::string part = text.substr(i, end - i);
    const std::size_t dash = part.find('-');
    try {
      if (dash == std::string::npos)
        count += part.empty() ? 0 : 1;
      else
        count += std::stoi(part.substr(dash + 1)) - std::stoi(part.substr(0, dash)) + 1;
    } catch (const std::exception&) {
      return 1;
    }
    i = end + 1;
  }
  return count > 0 ? count : 1;
}

/// True when /proc/cpuinfo's first "flags" line lists `flag` (x86 feature names).
[[maybe_unused]] bool has_cpuinfo_flag(const std::string& flag) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, 5, "flags") != 0) continue;
    return (line + " ").find(" " + flag + " ") != std::string::npos;
  }
  return false;
}

/// The value of /proc/cpuinfo's first line "key<tabs>: value", or "".
std::string cpuinfo_value(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const std::size_t colon = line.find(':');
    if (colon == std::string::npos || line.find_first_not_of(" \t", key.size()) != colon) continue;
    const std::size_t start = line.find_first_not_of(' ', colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return {};
}

std::string read_model() {
  const std::string name = cpuinfo_value("model name");
  if (!name.empty()) return name;
  const std::string implementer = cpuinfo_value("CPU implementer"),
                    part = cpuinfo_value("CPU part");
  if (!implementer.empty()) return "implementer " + implementer + " part " + part;
  return "unknown CPU";
}

HostCpu read_host_cpu() {
  HostCpu cpu;
  cpu.model = read_model();
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    cpu.cpus = CPU_COUNT(&set);
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    const std::string level = read_line(dir + "/level"), type = read_line(dir + "/type");
    if (level.empty()) continue;
    if (type == "Instruction") continue;
    const std::int64_t bytes = parse_size(read_line(dir + "/size"));
    if (level == "1") cpu.l1d_bytes = bytes;
    if (level == "2") {
      cpu.l2_bytes = bytes;
      cpu.l2_shared_cpus = count_cpu_list(read_line(dir + "/shared_cpu_list"));
    }
    if (level == "3") cpu.l3_bytes = bytes;
  }
  cpu.simd_targets = simd_tvl1::supported_targets();
  cpu.native_binary16 = simd_tvl1::native_binary16_arithmetic();
  cpu.binary16_arithmetic = simd_tvl1::binary16_arithmetic();
#if defined(__x86_64__)
  if (has_cpuinfo_flag("avx512_fp16"))
    cpu.binary16_arithmetic +=
        "; AVX512-FP16 present, unused (Highway 1.0.3 has no binary16 "
        "arithmetic on x86)";
#endif
  return cpu;
}

}  // namespace

const HostCpu& host_cpu() {
  static const HostCpu cpu = read_host_cpu();
  return cpu;
}

std::int64_t l2_bytes_per_cpu(const HostCpu& cpu) {
  return cpu.l2_bytes / std::max(1, cpu.l2_shared_cpus);
}

std::vector<int> host_thread_counts() {
  const int cpus = host_cpu().cpus;
  std::vector<int> counts;
  for (int t = 1; t < cpus; t *= 2) counts.push_back(t);
  counts.push_back(cpus);
  return counts;
}

}  // namespace flowtune
