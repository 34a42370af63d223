#include "tuner/environment.hpp"

#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <memory>

#include "boards/gpu_clocks.hpp"
#include "boards/nvml.hpp"
#include "db/host_name.hpp"

namespace flowtune {
namespace {

// First line printed by a shell command, or "" when it fails.
std::string first_line_of(const std::string& command) {
  std::unique_ptr<FILE, int (*)(FILE*)> pipe(popen(command.c_str(), "r"), pclose);
  if (!pipe) return "";
  std::array<char, 256> buf{};
  std::string line;
  if (std::fgets(buf.data(), int(buf.size()), pipe.get())) line = buf.data();
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string cpu_model() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      return colon == std::string::npos ? line : line.substr(colon + 2);
    }
  return "unknown";
}

}  // namespace

db::RunInfo collect_run_info(const Board& board, const std::string& command,
                             const std::string& dataset) {
  db::RunInfo info;
  info.board = board.name;
  info.command = command;
  info.dataset = dataset;
  info.git_revision =
      first_line_of("git -C '" FLOWTUNE_SOURCE_DIR "' describe --always --dirty 2>/dev/null");
  if (info.git_revision.empty()) info.git_revision = FLOWTUNE_GIT_REVISION " (at build time)";
  info.host = db::host_name() + " (" + cpu_model() + ")";
  if (board.target == "cuda") {
    const Nvml* nvml = Nvml::get();
    info.gpu_name = nvml ? nvml->device_name() : "n/a (no NVML)";
    info.driver_version =
        first_line_of("nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null");
    info.cuda_version =
        first_line_of("nvidia-smi 2>/dev/null | sed -n 's/.*CUDA Version: *\\([0-9.]*\\).*/\\1/p'");
    if (info.driver_version.empty()) info.driver_version = "n/a";
    if (info.cuda_version.empty()) info.cuda_version = "n/a";
    const std::optional<int> clock = observed_gpu_clock_mhz(board);
    info.clocks_observed = clock ? std::to_string(*clock) + " MHz" : "n/a";
  } else {
    info.gpu_name = info.driver_version = info.cuda_version = info.clocks_observed = "n/a";
  }
  return info;
}

}  // namespace flowtune
