#include "tuner/occupancy.hpp"

#include <algorithm>
#include <climits>
#include <cstdio>
#include <stdexcept>

namespace flowtune {

namespace {
int div_up(int x, int y) {
  return (x + y - 1) / y;
}
int round_up(int x, int y) {
  return y * div_up(x, y);
}
}  // namespace

std::string format_kib(long long bytes) {
  if (bytes % 1024 == 0) return std::to_string(bytes / 1024) + " KiB";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f KiB (%lld bytes)", static_cast<double>(bytes) / 1024.0,
                bytes);
  return buf;
}

OccupancyResult occupancy(const ArchLimits& L, const KernelResources& k, int shared_carveout_bytes,
                          bool optin) {
  if (k.threads_per_block <= 0)
    throw std::invalid_argument("occupancy: kernel '" + k.kernel + "' has threads_per_block " +
                                std::to_string(k.threads_per_block) + " (must be > 0)");
  if (k.registers_per_thread < 0 || k.static_shared_bytes < 0 || k.dynamic_shared_bytes < 0)
    throw std::invalid_argument("occupancy: kernel '" + k.kernel +
                                "' has negative resource figures");
  if (L.warp_size <= 0 || L.max_warps_per_sm <= 0)
    throw std::invalid_argument("occupancy: architecture limits are empty (cpu board?)");

  OccupancyResult r;
  const int warps_per_block = div_up(k.threads_per_block, L.warp_size);

  // Warps (cudaOccMaxBlocksPerSMWarpsLimit).
  r.blocks_limit_warps =
      k.threads_per_block > L.max_threads_per_block ? 0 : L.max_warps_per_sm / warps_per_block;

  // Blocks (cudaOccMaxBlocksPerMultiprocessor).
  r.blocks_limit_blocks = L.max_blocks_per_sm;

  // Registers (cudaOccMaxBlocksPerSMRegsLimit).
  const int regs_per_warp =
      round_up(k.registers_per_thread * L.warp_size, L.register_allocation_unit);
  const int regs_per_block = regs_per_warp * warps_per_block;
  const int regs_assumed_per_block =
      regs_per_warp * round_up(warps_per_block, L.warp_allocation_granularity);
  r.allocated_registers_per_block = regs_per_block;
  std::string reg_error;
  if (k.registers_per_thread > L.max_registers_per_thread) {
    reg_error = "needs " + std::to_string(k.registers_per_thread) + " registers per thread > " +
                std::to_string(L.max_registers_per_thread);
  } else if (regs_assumed_per_block > L.max_registers_per_block ||
             regs_per_block > L.max_registers_per_block) {
    reg_error = "needs " + std::to_string(std::max(regs_assumed_per_block, regs_per_block)) +
                " registers per block (" + std::to_string(k.registers_per_thread) +
                " per thread x " + std::to_string(k.threads_per_block) +
                " threads, allocated per warp) > " + std::to_string(L.max_registers_per_block) +
                " per block";
  }
  if (!reg_error.empty()) {
    r.blocks_limit_registers = 0;
  } else if (regs_per_warp > 0) {
    const int warps_per_sub_partition =
        (L.registers_per_sm / L.register_sub_partitions) / regs_per_warp;
    r.blocks_limit_registers =
        warps_per_sub_partition * L.register_sub_partitions / warps_per_block;
  } else {
    r.blocks_limit_registers = INT_MAX;
  }

  // Shared memory (cudaOccMaxBlocksPerSMSmemLimit, cudaOccSMemPerBlock).
  const long long requested =
      static_cast<long long>(k.static_shared_bytes) + k.dynamic_shared_bytes;
  const long long total = requested + L.reserved_shared_bytes_per_block;
  const long long allocated =
      (total + L.shared_allocation_unit - 1) / L.shared_allocation_unit * L.shared_allocation_unit;
  r.allocated_shared_bytes_per_block = static_cast<int>(std::min<long long>(allocated, INT_MAX));
  const bool use_optin = optin && L.cc_major >= 7 && requested > L.shared_bytes_per_block_default;
  const long long per_block_limit =
      use_optin ? L.shared_bytes_per_block_optin : L.shared_bytes_per_block_default;
  std::string shared_error;
  if (allocated > per_block_limit + L.reserved_shared_bytes_per_block) {
    r.blocks_limit_shared = 0;
    shared_error = "needs " + format_kib(requested) + " shared memory > " +
                   format_kib(per_block_limit) + " per block" + (use_optin ? " (opt-in)" : "");
    if (!optin && L.cc_major >= 7 && L.shared_bytes_per_block_optin > per_block_limit &&
        allocated <= L.shared_bytes_per_block_optin + L.reserved_shared_bytes_per_block)
      shared_error += " without opt-in";
  } else {
    // Carveout: the preference rounded up to a supported step (-1 = all shared memory).
    auto align_up = [&](long long bytes) -> long long {
      for (int kib : L.carveout_shared_kib)
        if (bytes <= static_cast<long long>(kib) * 1024) return static_cast<long long>(kib) * 1024;
      return L.shared_bytes_per_sm;
    };
    long long capacity =
        shared_carveout_bytes < 0 ? L.shared_bytes_per_sm : align_up(shared_carveout_bytes);
    if (capacity < allocated)
      capacity = L.cc_major >= 7 ? align_up(allocated) : L.shared_bytes_per_sm;
    r.shared_bytes_per_sm_used = static_cast<int>(capacity);
    r.blocks_limit_shared = allocated > 0 ? static_cast<int>(capacity / allocated) : INT_MAX;
  }

  r.active_blocks_per_sm = std::min({r.blocks_limit_shared, r.blocks_limit_registers,
                                     r.blocks_limit_warps, r.blocks_limit_blocks});
  const std::pair<const char*, int> order[] = {{"shared_memory", r.blocks_limit_shared},
                                               {"registers", r.blocks_limit_registers},
                                               {"warps", r.blocks_limit_warps},
                                               {"blocks", r.blocks_limit_blocks}};
  for (const auto& [name, value] : order)
    if (value == r.active_blocks_per_sm) r.limiting_factors.push_back(name);
  r.limited_by = r.limiting_factors.front();

  if (k.threads_per_block > L.max_threads_per_block)
    r.error = "block of " + std::to_string(k.threads_per_block) + " threads > " +
              std::to_string(L.max_threads_per_block) + " threads per block";
  else if (!reg_error.empty())
    r.error = reg_error;
  else if (!shared_error.empty())
    r.error = shared_error;
  if (!r.error.empty()) r.active_blocks_per_sm = 0;
  r.occupancy = static_cast<double>(r.active_blocks_per_sm) * warps_per_block / L.max_warps_per_sm;
  return r;
}

}  // namespace flowtune
