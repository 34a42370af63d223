// Test doubles of the kernel build cache (variants/kernel_binary_cache.hpp), for tests only: a
// compiler that counts its calls and derives the binary from the key (no NVRTC, no GPU), and a
// shared store in memory that can be made to fail.
#pragma once

#include <atomic>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>

#include "variants/kernel_binary_cache.hpp"

namespace flowtune::test {

/// A compiler: the binary is "binary of <key>" with the bytes 0..255 appended (so that the
/// entry holds every byte value, NUL included), the log a resource report line.
class FakeKernelCompiler {
 public:
  KernelBinary compile(const std::string& key) {
    ++calls;
    KernelBinary b;
    b.binary = "binary of " + key + ":";
    for (int i = 0; i < 256; ++i) b.binary.push_back(char(i));
    b.log = "ptxas info    : Used 32 registers (fake report of " + key + ")\n";
    return b;
  }
  /// The validity test a cache caller passes: the binary non-empty, the log a report.
  static bool valid(const KernelBinary& b) {
    return !b.binary.empty() && b.log.find("Used 32 registers") != std::string::npos;
  }
  std::atomic<int> calls{0};
};

/// A SharedKernelStore in memory; fail = true makes every call throw.
class MemoryKernelStore final : public SharedKernelStore {
 public:
  std::optional<StoredKernelBinary> fetch(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mutex);
    check();
    const auto it = rows.find(key);
    if (it == rows.end()) return std::nullopt;
    return it->second;
  }
  bool contains(const std::string& key) override {
    std::lock_guard<std::mutex> lock(mutex);
    check();
    return rows.count(key) > 0;
  }
  void publish(const StoredKernelBinary& b) override {
    std::lock_guard<std::mutex> lock(mutex);
    check();
    rows[b.key] = b;
  }
  std::mutex mutex;
  std::map<std::string, StoredKernelBinary> rows;
  bool fail = false;

 private:
  void check() const {
    if (fail) throw std::runtime_error("memory kernel store: down (as asked)");
  }
};

}  // namespace flowtune::test
