// Occupancy model: resident blocks per SM of one kernel build on one architecture.
#pragma once

#include <string>
#include <vector>

#include "boards/board.hpp"
#include "variants/variant.hpp"

namespace flowtune {

/// Result of occupancy(); the vocabulary of cuda_occupancy.h's cudaOccResult.
struct OccupancyResult {
  int active_blocks_per_sm = 0;
  /// The binding limit: "shared_memory" | "registers" | "warps" | "blocks" (on a tie the
  /// first in this order; limiting_factors lists every tied one).
  std::string limited_by;
  std::vector<std::string> limiting_factors;
  int blocks_limit_registers = 0;            ///< blocks per SM the register file allows
  int blocks_limit_shared = 0;               ///< blocks per SM the shared memory allows
  int blocks_limit_warps = 0;                ///< blocks per SM the warp slots allow
  int blocks_limit_blocks = 0;               ///< the architecture's max resident blocks per SM
  double occupancy = 0;                      ///< active warps / max warps per SM, in [0, 1]
  int allocated_registers_per_block = 0;     ///< after per-warp rounding
  int allocated_shared_bytes_per_block = 0;  ///< static + dynamic + reserved, rounded up
  int shared_bytes_per_sm_used = 0;          ///< carveout the model assumed
  /// Non-empty when the kernel cannot launch at all, e.g. "needs 96 KiB shared memory >
  /// 48 KiB per block"; then active_blocks_per_sm is 0.
  std::string error;
};

/// Blocks of one kernel resident per SM, following cudaOccupancyMaxActiveBlocksPerMultiprocessor
/// (cuda_occupancy.h, cudaOccMaxActiveBlocksPerMultiprocessor, CUDA 13.0), default cache
/// config and no partitioned global caching:
/// - warps: floor(max_warps_per_sm / ceil(threads / warp_size)); 0 above max_threads_per_block;
/// - registers: per warp ceil(regs * 32 / register_allocation_unit) * unit; a block launches
///   only if regs/warp * warps and regs/warp * roundup(warps, warp_allocation_granularity)
///   fit max_registers_per_block and regs <= max_registers_per_thread; then
///   floor(registers_per_sm / sub_partitions / regs_per_warp) * sub_partitions / warps;
/// - shared memory: per block roundup(static + dynamic + reserved, shared_allocation_unit);
///   a block launches only if that is <= per-block limit (default 48 KiB, or the opt-in limit
///   when optin and the request exceeds the default) + reserved; the SM capacity is the
///   carveout (shared_carveout_bytes rounded up to a supported step; -1 = the largest), raised
///   to the smallest step holding one block when the block needs more (cc >= 7), and
///   blocks = capacity / per-block allocation;
/// - blocks: max_blocks_per_sm.
/// active = min of the four. KernelResources sizes are bytes. Throws std::invalid_argument
/// for threads_per_block <= 0 or negative sizes.
OccupancyResult occupancy(const ArchLimits& limits, const KernelResources& kernel,
                          int shared_carveout_bytes = -1, bool optin = false);

/// "96 KiB" for whole KiB, else "36.5 KiB (37376 bytes)".
std::string format_kib(long long bytes);

}  // namespace flowtune
