// Per-compute-capability limits (see ArchLimits in boards/board.hpp for the sources).
#include <map>
#include <stdexcept>
#include <string>
#include <utility>

#include "boards/board.hpp"

namespace flowtune {
namespace {

/// One row of the table. Figures: CUDA C++ Programming Guide, "Compute Capabilities",
/// table "Technical Specifications per Compute Capability" (threads, blocks, registers,
/// shared memory per SM / per block / opt-in); cuda_occupancy.h (CUDA 13.0):
/// cudaOccMaxBlocksPerMultiprocessor, cudaOccSMemAllocationGranularity (256 B for cc <= 7,
/// 128 B for cc >= 8), cudaOccRegAllocationGranularity (256), cudaOccSubPartitionsPer-
/// Multiprocessor (4; 2 only on sm_60, not listed), cudaOccAlignUpShmemSizeVoltaPlus
/// (carveout steps), cudaOccSMemPerBlock (1 KiB reserved per block from cc 8.0).
ArchLimits row(int major, int minor, int threads_per_sm, int blocks_per_sm, int regs_per_block,
               int shared_kib_per_sm, int optin_kib_per_block, std::vector<int> carveout_kib) {
  ArchLimits l;
  l.cc_major = major;
  l.cc_minor = minor;
  l.max_threads_per_block = 1024;
  l.max_threads_per_sm = threads_per_sm;
  l.warp_size = 32;
  l.max_warps_per_sm = threads_per_sm / 32;
  l.max_blocks_per_sm = blocks_per_sm;
  l.registers_per_sm = 65536;
  l.max_registers_per_block = regs_per_block;
  l.max_registers_per_thread = 255;
  l.register_allocation_unit = 256;
  l.warp_allocation_granularity = 4;
  l.register_sub_partitions = 4;
  l.shared_bytes_per_sm = shared_kib_per_sm * 1024;
  l.shared_bytes_per_block_default = 48 * 1024;
  l.shared_bytes_per_block_optin = optin_kib_per_block * 1024;
  l.shared_allocation_unit = major >= 8 ? 128 : 256;
  l.reserved_shared_bytes_per_block = major >= 8 ? 1024 : 0;
  l.carveout_shared_kib = std::move(carveout_kib);
  return l;
}

const std::map<std::pair<int, int>, ArchLimits>& table() {
  static const std::map<std::pair<int, int>, ArchLimits> t = {
      // Maxwell Tegra X1 (Jetson Nano): 32 K registers per block, 64 KiB dedicated shared.
      {{5, 3}, row(5, 3, 2048, 32, 32768, 64, 48, {64})},
      // Pascal Tegra X2 (Jetson TX2): 32 K registers per block, 64 KiB dedicated shared.
      {{6, 2}, row(6, 2, 2048, 32, 32768, 64, 48, {64})},
      // Volta Xavier (Jetson AGX Xavier): 96 KiB unified L1/shared, all opt-in per block.
      {{7, 2}, row(7, 2, 2048, 32, 65536, 96, 96, {0, 8, 16, 32, 64, 96})},
      // Turing.
      {{7, 5}, row(7, 5, 1024, 16, 65536, 64, 64, {32, 64})},
      // Ampere GA100.
      {{8, 0}, row(8, 0, 2048, 32, 65536, 164, 163, {0, 8, 16, 32, 64, 100, 132, 164})},
      // Ampere GA10x.
      {{8, 6}, row(8, 6, 1536, 16, 65536, 100, 99, {0, 8, 16, 32, 64, 100})},
      // Ampere Orin (Jetson AGX Orin, Orin Nano).
      {{8, 7}, row(8, 7, 1536, 16, 65536, 164, 163, {0, 8, 16, 32, 64, 100, 132, 164})},
      // Ada.
      {{8, 9}, row(8, 9, 1536, 24, 65536, 100, 99, {0, 8, 16, 32, 64, 100})},
      // Hopper (H100, H200): 228 KiB per SM, 227 KiB opt-in per block (ARCHITECTURE.md H200 facts).
      {{9, 0}, row(9, 0, 2048, 32, 65536, 228, 227, {0, 8, 16, 32, 64, 100, 132, 164, 196, 228})},
  };
  return t;
}

}  // namespace

const ArchLimits& arch_limits(int cc_major, int cc_minor) {
  const auto& t = table();
  auto it = t.find({cc_major, cc_minor});
  if (it == t.end()) {
    std::string known;
    for (const auto& [cc, limits] : t)
      known += (known.empty() ? "" : ", ") + std::string("sm_") + std::to_string(cc.first) +
               std::to_string(cc.second);
    throw std::invalid_argument("no architecture limits for compute capability " +
                                std::to_string(cc_major) + "." + std::to_string(cc_minor) +
                                " (sm_" + std::to_string(cc_major) + std::to_string(cc_minor) +
                                "); known: " + known);
  }
  return it->second;
}

}  // namespace flowtune
