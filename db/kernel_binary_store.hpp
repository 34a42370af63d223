// Compiled kernels shared through the store (table kernel_binaries, db/SCHEMA.md): a host that
// compiled a kernel publishes its binary under the build cache's key, and workers on other
// hosts fetch it instead of compiling it again (tuner/kernel_store.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace flowtune::db {

class Store;

/// One row of kernel_binaries. binary: the bytes (a cubin), stored as base64 text; log: the
/// compiler's log (NVRTC's, with the ptxas resource report); size_bytes and hash: what the
/// publisher computed over them (the reader verifies both before it uses the entry).
struct KernelBinaryRow {
  std::string key, arch, nvrtc_version, hash, host;
  std::int64_t size_bytes = 0;
  std::string binary, log;
  double created_s = 0;  ///< Unix seconds on the store's clock
};

/// The kernel-binaries part of a Repository, over the store it shares with the other parts.
/// Every call throws DbError "<store>: <problem>" when the store fails.
class KernelBinaryStore {
 public:
  explicit KernelBinaryStore(Store& store) : store_(&store) {}

  /// Stores the row under its key, replacing a row already there (created_s: now on the
  /// store's clock). One statement.
  void record_kernel_binary(const KernelBinaryRow& row);
  /// The row stored under key, or nullopt. A binary whose base64 text does not decode comes
  /// back with the text's bytes as they are, so that the reader's size and hash checks reject it.
  std::optional<KernelBinaryRow> kernel_binary(const std::string& key) const;
  /// True when a row is stored under key (the binary is not read).
  bool has_kernel_binary(const std::string& key) const;
  /// Rows stored (every key).
  std::int64_t count_kernel_binaries() const;

 private:
  Store* store_;
};

}  // namespace flowtune::db
