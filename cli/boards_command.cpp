// `tune boards`: the board profiles (boards/*.toml), one line each, as JSON, or one in full.
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "boards/board.hpp"
#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"
#include "kernels/simd/host_cpu.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"

namespace flowtune::cli {
namespace {

/// The facts of this host's CPU that the simd_fused variant prunes with (read from the
/// system, not from the profile): appended to `tune boards show` for a cpu board.
std::string format_host_cpu() {
  const HostCpu& cpu = host_cpu();
  auto size = [](std::int64_t bytes) {
    return bytes == 0                         ? std::string("n/a")
           : bytes >= (std::int64_t(1) << 20) ? std::to_string(bytes >> 20) + " MiB"
                                              : std::to_string(bytes >> 10) + " KiB";
  };
  std::string targets;
  for (const std::string& t : cpu.simd_targets) targets += " " + t;
  return "  CPUs (this system):  " + std::to_string(cpu.cpus) +
         " this process may run on (sched_getaffinity)\n"
         "  caches (CPU 0):      L1d " +
         size(cpu.l1d_bytes) + ", L2 " + size(cpu.l2_bytes) + ", L3 " + size(cpu.l3_bytes) +
         " (/sys/devices/system/cpu/cpu0/cache)\n"
         "  SIMD targets:       " +
         targets +
         " (Highway, compiled in and supported; dispatched: " + simd_tvl1::dispatched_target() +
         ")\n";
}

}  // namespace

int run_boards(const std::vector<std::string>& args) {
  if (args.size() == 1 && (args[0] == "--help" || args[0] == "-h")) {
    std::cout << "tune boards [--json]        the board profiles (name, arch, description)\n"
                 "tune boards show NAME|auto  one profile, with its sources\n";
    return 0;
  }
  if (args.size() == 1 && args[0] == "--json") {
    nlohmann::json out = nlohmann::json::array();
    for (const std::string& name : list_boards()) {
      const Board b = load_board(name);
      out.push_back({{"name", name},
                     {"target", b.target},
                     {"arch", b.target == "cpu" ? std::string("cpu") : b.arch()},
                     {"description", b.description}});
    }
    std::cout << out.dump(1) << '\n';
    return 0;
  }
  if (args.empty()) {
    for (const std::string& name : list_boards()) {
      const Board b = load_board(name);
      std::cout << name << "\t" << (b.target == "cpu" ? std::string("cpu") : b.arch()) << "\t"
                << b.description << '\n';
    }
    return 0;
  }
  if (args[0] == "show" && args.size() == 2) {
    const Board board = load_board(resolve_board(args[1]));
    std::cout << format_board(board);
    if (board.target == "cpu") std::cout << format_host_cpu();
    return 0;
  }
  throw UsageError("usage: tune boards [--json] | tune boards show NAME");
}

}  // namespace flowtune::cli
