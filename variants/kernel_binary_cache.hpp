// The persistent cache of compiled kernels (ARCHITECTURE.md, "Kernels are compiled per
// configuration"): a local folder shared by the processes of one host, and optionally a shared
// store (the run's database, tuner/kernel_store.hpp) through which workers on other hosts fetch
// the binaries one host compiled instead of compiling them again. Independent of NVRTC: the
// compiler is a function (variants/cuda/nvrtc_build.cpp passes NVRTC; tests pass a fake one).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace flowtune {

/// What one build leaves: the binary (a cubin for NVRTC) and the compiler's log (NVRTC's
/// program log, which holds the ptxas resource report).
struct KernelBinary {
  std::string binary;
  std::string log;
};

/// One build as the shared store keeps it (table kernel_binaries, db/SCHEMA.md).
struct StoredKernelBinary {
  std::string key;               ///< the cache key: 16 hex digits (see nvrtc_build)
  std::string arch;              ///< the arch compiled for, e.g. "sm_90"
  std::string compiler_version;  ///< e.g. "13.0" (NVRTC's version)
  KernelBinary entry;
  std::int64_t size_bytes = 0;  ///< entry.binary.size() when published
  std::string hash;             ///< kernel_binary_hash(entry) when published
};

/// FNV-1a 64 (Fowler, Noll, Vo) of the binary's bytes followed by the log's, as 16 lower-case
/// hex digits. It detects a truncated or altered entry (a torn write, a bit flip, a row
/// written by another program); it is no cryptographic signature: who can write the store can
/// write a matching hash, so the store's own access rights guard against tampering.
std::string kernel_binary_hash(const KernelBinary& entry);

/// A store shared by the hosts of a run. Implementations are thread-safe; every call may
/// throw (a store that is down): the cache then counts a store error and goes on locally.
class SharedKernelStore {
 public:
  virtual ~SharedKernelStore() = default;
  /// The entry stored under key, or nullopt.
  virtual std::optional<StoredKernelBinary> fetch(const std::string& key) = 0;
  /// True when an entry is stored under key (no transfer of the binary).
  virtual bool contains(const std::string& key) = 0;
  /// Stores (replaces) the entry under its key.
  virtual void publish(const StoredKernelBinary& binary) = 0;
};

/// What a cache did, counted per process (kernel_build_counts) or per caller. A "local hit" is
/// an entry read from the local folder; a "prebuilt hit" one read from a prebuilt folder
/// (KernelBinaryRequest::prebuilt_dirs); a compile ran the compiler; a fetch took a verified
/// entry from the shared store; a rejected entry failed the verification (then it is compiled
/// and published again); a publish wrote an entry into the store; a store error is a store
/// call that threw. Seconds are wall-clock time summed over the threads that built.
struct KernelBuildCounts {
  std::uint64_t compiled = 0, local_hits = 0, prebuilt_hits = 0, fetched = 0, rejected = 0,
                published = 0, store_errors = 0;
  double compile_s = 0, fetch_s = 0;
  KernelBuildCounts& operator+=(const KernelBuildCounts& o);
};
KernelBuildCounts operator-(KernelBuildCounts a, const KernelBuildCounts& b);

/// "N compiled (X s), M local cache hits, [B from the prebuilt cache, ]K fetched from the store (R
/// rejected), P published"
/// (+ ", E store errors" when there are any).
std::string kernel_build_counts_text(const KernelBuildCounts& counts);

/// Thread-safe accumulator of KernelBuildCounts.
class KernelBuildCounters {
 public:
  void add(const KernelBuildCounts& delta);
  KernelBuildCounts get() const;

 private:
  std::atomic<std::uint64_t> compiled_{0}, local_hits_{0}, prebuilt_hits_{0}, fetched_{0},
      rejected_{0}, published_{0}, store_errors_{0};
  std::atomic<long long> compile_us_{0}, fetch_us_{0};
};

/// One entry of the cache: where it lives and what it is.
struct KernelBinaryRequest {
  std::string dir;               ///< local cache folder ("" = none: compile, and use the store)
  std::string key;               ///< file stem in dir, the store's key
  std::string arch;              ///< for the store's row
  std::string compiler_version;  ///< for the store's row
  /// Read-only folders of entries in the local folder's layout, looked in after the local
  /// folder and before the store: the prebuilt kernel cache (variants/cuda/nvrtc_build.hpp,
  /// prebuilt_kernel_dirs). A hit there is neither copied nor published.
  std::vector<std::string> prebuilt_dirs;
};

/// The entry of request: from the local folder (<dir>/<key>.cubin + <key>.log) when there and
/// valid; else from the first prebuilt folder that holds it valid; else from the store when given,
/// verified (its size and kernel_binary_hash, then valid()) and written into the local folder; else
/// compile()d, written into the local folder and published into the store. Files are written
/// atomically (a temporary file of its own, then rename), so processes sharing the folder never see
/// a torn entry. A local hit is published when the store lacks it (a cache filled before the store
/// existed). Store failures never fail the build (counted as store_errors). Counts go to counters.
/// Callers serialise requests of one key in a process (nvrtc_build does); processes may race on a
/// key (both compile, both write valid entries). Throws what compile() throws.
KernelBinary cached_kernel_binary(const KernelBinaryRequest& request, SharedKernelStore* store,
                                  const std::function<KernelBinary()>& compile,
                                  const std::function<bool(const KernelBinary&)>& valid,
                                  KernelBuildCounters& counters);

/// The kernel cache folders of a process that chooses them itself (tuner/kernel_prebuild.hpp
/// writes a prebuilt cache): `local` replaces the local folder ($FLOWTUNE_CACHE_DIR, else
/// ~/.cache/flowtune) and `prebuilt` the prebuilt folders (variants/cuda/nvrtc_build.hpp,
/// prebuilt_kernel_dirs) of every later build.
struct KernelCacheFolders {
  std::string local;
  std::vector<std::string> prebuilt;
};
/// Sets (or, with nullopt, clears) this process's KernelCacheFolders. Thread-safe; builds
/// already running keep the folders they started with.
void set_kernel_cache_folders(std::optional<KernelCacheFolders> folders);
/// The folders set_kernel_cache_folders set, or nullopt (the default: each build's own).
std::optional<KernelCacheFolders> kernel_cache_folders();

/// The shared store of this process's builds (nullptr = none, the default); set by the tuner
/// when the run's store shares binaries (tuner/kernel_store.hpp). Thread-safe.
void set_shared_kernel_store(std::shared_ptr<SharedKernelStore> store);
std::shared_ptr<SharedKernelStore> shared_kernel_store();
/// The counts of every build of this process so far (nvrtc_build's).
KernelBuildCounters& kernel_build_counters();

}  // namespace flowtune
