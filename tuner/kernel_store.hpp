// Compiled kernels shared through the run's store (README "Kernel builds"):
// the builds of this process (nvrtc_build, variants/kernel_binary_cache.hpp) publish each
// binary they compile into table kernel_binaries, and a process whose local cache misses
// fetches the binary from there before it compiles. So workers on other hosts compile nothing
// that one host of the run compiled already.
#pragma once

#include <memory>
#include <string>

#include "variants/kernel_binary_cache.hpp"

namespace flowtune {

/// The environment variable through which a process passes its choice to the measuring
/// processes it starts: the store (its URL or SQLite path), or "off".
inline constexpr const char* kKernelStoreEnv = "FLOWTUNE_KERNEL_STORE";

/// The store through which this process shares kernels, "" for none. mode (--kernel-store):
/// "on" = storage; "off" = none; "auto" = $FLOWTUNE_KERNEL_STORE when it is set (a choice made
/// by the process that started this one; "off" = none), else storage when it is a PostgreSQL
/// URL (hosts that share a database rarely share a cache folder), else none (the processes of
/// one host share the cache folder already). Throws std::invalid_argument for another mode.
std::string resolve_kernel_store(const std::string& mode, const std::string& storage);

/// A SharedKernelStore over the flowtune store at storage (table kernel_binaries): its own
/// connection (a db::Repository), opened at the first call and shared by the calling threads
/// under a mutex; each operation retries a busy or lost store for at most 5 s, and after a
/// failure the store is left alone for 30 s (the builds go on locally). host is recorded
/// with what it publishes.
std::shared_ptr<SharedKernelStore> make_db_kernel_store(const std::string& storage,
                                                        const std::string& host);

/// Makes target ("" = none) the shared store of this process's builds
/// (set_shared_kernel_store) and of the measuring processes it starts ($FLOWTUNE_KERNEL_STORE
/// = target or "off"). Returns the line that says so for the log: "kernel store: ...".
std::string use_kernel_store(const std::string& target);

/// In a measuring process (`tune worker` reading requests): uses the store named by
/// $FLOWTUNE_KERNEL_STORE, if any.
void use_kernel_store_from_environment();

}  // namespace flowtune
