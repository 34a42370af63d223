// Board profiles (boards/*.toml) and the per-compute-capability limits table.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune {

/// Per-SM and per-block limits of one compute capability, as used by the occupancy model
/// (tuner/occupancy.hpp). Sources: CUDA C++ Programming Guide, "Compute Capabilities",
/// table "Technical Specifications per Compute Capability"; the allocation rules
/// (granularities, sub-partitions, carveout steps, reserved shared memory) from
/// cuda_occupancy.h of the CUDA toolkit (the code behind
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor). Sizes in bytes unless the name says KiB.
struct ArchLimits {
  int cc_major = 0, cc_minor = 0;
  int max_threads_per_block = 0;
  int max_threads_per_sm = 0;
  int max_warps_per_sm = 0;   ///< max_threads_per_sm / warp_size
  int max_blocks_per_sm = 0;  ///< resident thread blocks per SM
  int warp_size = 32;
  /// 32-bit registers per SM: the pool that resident blocks share (65536 on every arch here).
  int registers_per_sm = 0;
  /// 32-bit registers one block may use (the guide's "per thread block" row): 32768 on
  /// sm_53 and sm_62, 65536 elsewhere. The occupancy model uses BOTH: this one decides
  /// whether a block can launch at all, registers_per_sm how many blocks fit side by side.
  int max_registers_per_block = 0;
  int max_registers_per_thread = 0;    ///< 255 on every arch here
  int register_allocation_unit = 256;  ///< registers per warp are rounded up to this
  /// Warps of a block are rounded up to this for the hardware per-block register check
  /// (cuda_occupancy.h regsAssumedPerCTA); equals the number of SM sub-partitions.
  int warp_allocation_granularity = 4;
  /// Register file sub-partitions per SM; registers are allocated per sub-partition.
  int register_sub_partitions = 4;
  int shared_bytes_per_sm = 0;              ///< largest shared-memory carveout per SM
  int shared_bytes_per_block_default = 0;   ///< 48 KiB without opt-in
  int shared_bytes_per_block_optin = 0;     ///< with cudaFuncAttributeMaxDynamicSharedMemorySize
  int shared_allocation_unit = 0;           ///< 256 B (cc < 8), 128 B (cc >= 8)
  int reserved_shared_bytes_per_block = 0;  ///< 1 KiB on cc >= 8.0 (driver), else 0
  /// Configurable shared-memory capacities per SM in KiB, ascending (one entry where the
  /// shared memory is dedicated, sm_53 and sm_62).
  std::vector<int> carveout_shared_kib;
};

/// The limits of compute capability cc_major.cc_minor (sm_53, 62, 72, 75, 80, 86, 87, 89,
/// 90). Throws std::invalid_argument naming the cc when it is not in the table.
const ArchLimits& arch_limits(int cc_major, int cc_minor);

/// How the energy of a measurement window is read (boards/energy_sensor.hpp).
struct PowerSensorSpec {
  /// "nvml" | "ina3221_iio" | "ina3221_hwmon" | "rapl" | "none"
  std::string kind = "none";
  /// Sensor directories under /sys (glob patterns allowed, e.g. ".../hwmon/hwmon*"):
  /// INA3221 iio device dirs, INA3221 hwmon dirs, or RAPL powercap zones.
  std::vector<std::string> paths;
  /// INA3221 rail labels summed into the energy (rail_name_<N> / in<N>_label contents).
  std::vector<std::string> rails;
};

/// How GPU clocks are set (boards/gpu_clocks.hpp).
struct ClockControlSpec {
  std::string kind = "none";  ///< "nvml" | "devfreq" | "none"
  std::string devfreq_path;   ///< the GPU's devfreq directory under /sys (kind devfreq)
};

/// One figure of the performance model (model/predict.hpp) with where it comes from.
struct ModelFact {
  double value = 0;
  /// "datasheet: ...", "guide: ...", "paper: ...", "measured: ..." or "assumed: ..." (a figure
  /// nobody measured on that board; a prediction leaning on it says so).
  std::string source;
};

/// The [model] table of a cuda board profile: the architecture facts the performance model
/// needs beyond the limits. Each fact with its source. present = false when the
/// profile has no [model] table (then `tune predict` refuses the board, naming the file).
struct BoardModelFacts {
  bool present = false;
  ModelFact fp32_lanes_per_sm;  ///< FP32 CUDA cores per SM
  ModelFact fp16_rate;          ///< half2 FLOP rate / FP32 FLOP rate
  ModelFact launch_latency_us;  ///< one kernel launch in a frame (stream or graph node), us
  ModelFact idle_power_w;       ///< measured rail (see [power]) at idle, W
  ModelFact load_power_w;       ///< the same rail with a bandwidth-bound kernel at max clock, W
  ModelFact build_seconds;      ///< one NVRTC build of a TV-L1 kernel on the board's CPU, s

  /// Peak FP32 FLOP/s in GFLOP/s: sm_count x lanes x 2 (FMA) x clock_mhz / 1000.
  double peak_fp32_gflops(int sm_count, int clock_mhz) const {
    return sm_count * fp32_lanes_per_sm.value * 2.0 * clock_mhz / 1000.0;
  }
};

/// One hardware profile, loaded from boards/<name>.toml.
struct Board {
  std::string name, description;
  std::string target;       ///< "cpu" | "cuda"
  std::string source_file;  ///< the TOML file it was loaded from
  /// Case-insensitive substrings of the NVML device name or /proc/device-tree/model that
  /// identify this board for --board auto.
  std::vector<std::string> match;
  /// Other names `--board` resolves to this profile (resolve_board_alias), e.g. "agx" for
  /// agx-xavier; none may be a profile's file name or another profile's alias.
  std::vector<std::string> aliases;
  int cc_major = 0, cc_minor = 0, sm_count = 0;
  ArchLimits limits;  ///< arch_limits(cc), checked against the file's figures
  std::int64_t l2_bytes = 0;
  double memory_bandwidth_gbs = 0;
  std::vector<int> gpu_clocks_mhz;  ///< supported graphics clocks, descending
  PowerSensorSpec power;
  ClockControlSpec clock_control;
  BoardModelFacts model;  ///< optional [model] table (cuda boards)

  /// "sm_72" for compute capability 7.2; "" for a cpu board.
  std::string arch() const;
};

/// A board file that cannot be read or is invalid; the message names the file and the key.
class BoardError : public std::runtime_error {
 public:
  explicit BoardError(const std::string& message) : std::runtime_error(message) {}
};

/// The directory holding the board files: $FLOWTUNE_BOARDS_DIR if set, else the source
/// boards/ directory compiled in when it exists, else <prefix>/share/flowtune/boards of an
/// installed `tune` (<prefix>/bin/tune).
std::string boards_dir();

/// Names (file stems) of boards_dir()/*.toml, sorted.
std::vector<std::string> list_boards();

/// The profile name an alias stands for (a name in some profile's `aliases`), or nullopt when
/// `name` is no alias (a profile's own name, a path, or unknown). Throws BoardError when two
/// profiles claim the alias or an alias is also a profile's file name (naming both files).
std::optional<std::string> resolve_board_alias(const std::string& name);

/// The note printed when a user types an alias: "--board agx: an alias of agx-xavier (NVIDIA
/// Jetson AGX Xavier ...); for NVIDIA Jetson AGX Orin 64GB ... use --board agx-orin", naming
/// every profile whose name starts with the alias followed by '-'. "" when name is no alias.
std::string board_alias_note(const std::string& name);

/// Loads a board: a name resolves to boards_dir()/<name>.toml, an alias
/// (resolve_board_alias) to its profile's file; an argument ending in
/// ".toml" is a path. Throws BoardError for an unknown name, a missing or unreadable file
/// ("cannot read board file <path>: <errno text>"), a directory ("<path>: is a directory,
/// not a board profile (.toml)", also for an argument that names no board but an existing
/// directory), another non-regular file, a TOML syntax error, an unknown key, a missing
/// key, a value of the wrong type or out of range, a limit that contradicts the arch table,
/// and a power.paths or devfreq_path that sysfs::checked_path refuses (not under /sys, a
/// "." or ".." component, or a glob component such as ".*" that can match them); the
/// message names the file and the key.
Board load_board(const std::string& name_or_path);

/// Multi-line human-readable description (for `tune boards show NAME`).
std::string format_board(const Board& board);

/// What --board auto found: the profile and the device that decided it.
struct BoardDetection {
  std::string name;    ///< the profile, e.g. "agx-orin"; "host" when no GPU is found
  std::string device;  ///< e.g. "NVIDIA H200 (sm_90)", "Jetson AGX Orin (device tree)"; "" none
};

/// For --board auto: the profile matching the present GPU (NVML device name and compute
/// capability, or the Jetson /proc/device-tree/model), "host" when no GPU is found.
/// Throws BoardError saying what was found when no profile, or several, match.
BoardDetection detect_board();

/// detect_board().name.
std::string detect_board_name();

/// The line `tune` prints for --board auto: "--board auto: found NVIDIA H200 (sm_90) through
/// NVML: board h200 (NVIDIA H200 ...)", or "--board auto: no GPU found (no NVML device, no
/// Jetson device tree): board host (...)".
std::string board_detection_note(const BoardDetection& found, const Board& board);

/// True when this machine shows a GPU: an NVML device, or (Jetsons have no NVML) a device
/// tree model naming a Jetson or NVIDIA board. What `tune` checks before measuring on a
/// cuda board, so that a machine without one gets one refusal, not a failure per config.
bool gpu_present();

/// Throws BoardError ("board agx is sm_72 but the present GPU is NVIDIA H200 (sm_90)")
/// when a GPU is visible through NVML and its compute capability differs from a cuda
/// board's; no-op for a cpu board or when no GPU is visible.
void check_board_matches_device(const Board& board);

}  // namespace flowtune
