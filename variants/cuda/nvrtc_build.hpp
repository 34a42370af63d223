// Run-time compilation of the device code kernels/cuda/tvl1_*.cuh with NVRTC, per config
// (ARCHITECTURE.md, "Kernels are compiled per configuration"), with a memory + disk cache and the
// ptxas resource report parsed into KernelResources.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "variants/variant.hpp"

namespace flowtune::cuda {

/// One NVRTC build of an embedded source for one arch.
struct NvrtcBuild {
  std::string arch;        ///< arch asked for, e.g. "sm_72"
  std::string built_for;   ///< arch compiled for: arch itself, or "sm_75" (see nvrtc_target_arch)
  bool estimated = false;  ///< built_for != arch: the resources are a stand-in's
  std::string cubin;       ///< SASS (cubin) bytes for built_for
  std::string log;         ///< NVRTC program log (holds the ptxas -v report)
  std::vector<KernelResources> resources;  ///< per entry kernel, from the log
};

/// The arch NVRTC compiles for when asked for `arch` ("sm_XY"): arch itself when the NVRTC in
/// use lists it (nvrtc_supported_archs), else the oldest listed target above it, and
/// *fallback is set; the resources are then an estimate (register allocation differs a little
/// between archs). CUDA 13's NVRTC targets sm_75 and newer only, so sm_72 (Xavier), sm_62
/// (TX2) and sm_53 (Nano) fall back to sm_75; NVRTC 11.8 (FLOWTUNE_NVRTC_LIBRARY) compiles
/// them natively. Throws std::invalid_argument for a malformed arch name or an arch above
/// every target.
std::string nvrtc_target_arch(const std::string& arch, bool* fallback);

/// Compute capabilities (e.g. 53, 72, 90) the NVRTC in use can target (nvrtcGetSupportedArchs).
/// The NVRTC in use is the one linked in, or the library named by $FLOWTUNE_NVRTC_LIBRARY
/// (a path to libnvrtc.so of NVRTC 11.2 or newer, loaded once with dlopen), e.g. NVRTC 11.8
/// from PyPI for the JetPack-era archs (scripts/toolchain-matrix); set FLOWTUNE_CUDA_INCLUDE
/// to that toolkit's include directory with it. Throws std::runtime_error when that library
/// cannot be loaded or lacks an entry point.
std::vector<int> nvrtc_supported_archs();

/// "11.8 (/path/libnvrtc.so.11.2)" or "13.0 (linked)": the NVRTC in use.
std::string nvrtc_version_string();

/// Parses a ptxas -v report ("Compiling entry function 'k' for 'sm_90'", "Used N registers,
/// ... M bytes smem", "S bytes stack frame, A bytes spill stores, B bytes spill loads") into
/// one KernelResources per entry kernel, in order of appearance: registers_per_thread,
/// static_shared_bytes, local_bytes (stack frame), spill_bytes (stores + loads), built_for
/// (the arch in the log). threads_per_block and dynamic_shared_bytes stay 0 (the launch
/// decides them). Lines that are not part of the report are ignored.
std::vector<KernelResources> parse_ptxas_log(const std::string& log);

/// Compiles embedded source `main_file` (a kernels/cuda/tvl1_*.cuh name, e.g.
/// "tvl1_global.cuh") with -D`defines` (each "NAME" or "NAME=VALUE") for arch ("sm_90", ...;
/// fallback as in nvrtc_target_arch), options -std=c++17 --ptxas-options=-v -I<CUDA include>.
/// Cached in memory and on disk ($FLOWTUNE_CACHE_DIR, else ~/.cache/flowtune, as
/// <hash>.cubin + <hash>.log) by a 64-bit FNV-1a hash of NVRTC's version, every embedded source
/// and the options but the include directory (the arch and the defines among them); on a local
/// miss the prebuilt kernel cache (prebuilt_kernel_dirs) and then the shared store of the run
/// (set_shared_kernel_store, variants/kernel_binary_cache.hpp) is asked before NVRTC, and a
/// compiled entry is published into it. Counted in kernel_build_counters(). Thread-safe. Throws
/// std::runtime_error with the NVRTC log when the build fails, std::invalid_argument for an unknown
/// main_file.
std::shared_ptr<const NvrtcBuild> nvrtc_build(const std::string& main_file,
                                              const std::vector<std::string>& defines,
                                              const std::string& arch);

/// The NVRTC options of a build for `target` before the include directory and the defines:
/// --gpu-architecture, -std=c++17, --ptxas-options=-v, and --no-cache for NVRTC 12.9 and
/// newer (whose own cache answers a hit without the ptxas report).
std::vector<std::string> nvrtc_options(const std::string& target, int nvrtc_major, int nvrtc_minor);

/// Directory of the disk cache (see nvrtc_build): KernelCacheFolders::local when set
/// (variants/kernel_binary_cache.hpp), else $FLOWTUNE_CACHE_DIR, else ~/.cache/flowtune; empty
/// when none of them is set.
std::string build_cache_dir();

/// The folders of the prebuilt kernel cache, read-only, in the disk cache's layout and keyed
/// the same way (so an entry matches only the NVRTC version, sources, arch and defines it was
/// built with): KernelCacheFolders::prebuilt when set (variants/kernel_binary_cache.hpp); else
/// $FLOWTUNE_PREBUILT_KERNELS, a ':'-separated list (set and empty: none); else
/// the installed cache, <prefix>/share/flowtune/kernels next to the running executable's
/// <prefix>/bin or <prefix>/lib, and each of its sub-folders (one per arch and NVRTC version,
/// e.g. sm_87-nvrtc12.6, as `tune --prebuild-kernels` writes them; docs/jetson.md). Folders
/// that do not exist are left out. Read from the environment and the file system once per
/// process.
std::vector<std::string> prebuilt_kernel_dirs();

/// NVRTC's version as "major.minor" ("12.6"), of the NVRTC in use (nvrtc_supported_archs).
std::string nvrtc_version();

}  // namespace flowtune::cuda
