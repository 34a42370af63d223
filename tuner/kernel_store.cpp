#include "tuner/kernel_store.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <utility>

#include "db/repository.hpp"
#include "db/store_url.hpp"

namespace flowtune {
namespace {

std::string this_host() {
  char name[256] = {};
  return ::gethostname(name, sizeof name - 1) == 0 ? std::string(name) : "unknown";
}

class DbKernelStore final : public SharedKernelStore {
 public:
  DbKernelStore(std::string storage, std::string host)
      : storage_(std::move(storage)), host_(std::move(host)) {}

  std::optional<StoredKernelBinary> fetch(const std::string& key) override {
    return with_repo([&](db::Repository& repo) {
      std::optional<StoredKernelBinary> out;
      std::optional<db::KernelBinaryRow> row = repo.kernel_binary(key);
      if (!row) return out;
      StoredKernelBinary b;
      b.key = row->key;
      b.arch = row->arch;
      b.compiler_version = row->nvrtc_version;
      b.entry.binary = std::move(row->binary);
      b.entry.log = std::move(row->log);
      b.size_bytes = row->size_bytes;
      b.hash = row->hash;
      out = std::move(b);
      return out;
    });
  }

  bool contains(const std::string& key) override {
    return with_repo([&](db::Repository& repo) { return repo.has_kernel_binary(key); });
  }

  void publish(const StoredKernelBinary& b) override {
    with_repo([&](db::Repository& repo) {
      db::KernelBinaryRow row;
      row.key = b.key;
      row.arch = b.arch;
      row.nvrtc_version = b.compiler_version;
      row.size_bytes = b.size_bytes;
      row.hash = b.hash;
      row.host = host_;
      row.binary = b.entry.binary;
      row.log = b.entry.log;
      repo.record_kernel_binary(row);
      return 0;
    });
  }

 private:
  static constexpr double kRetryS = 5;   // per operation: a build never waits long on the store
  static constexpr double kPauseS = 30;  // after a failure, the store is left alone this long

  template <typename F>
  auto with_repo(F&& f) -> decltype(f(std::declval<db::Repository&>())) {
    using Clock = std::chrono::steady_clock;
    std::lock_guard<std::mutex> lock(mutex_);
    if (failed_at_ && std::chrono::duration<double>(Clock::now() - *failed_at_).count() < kPauseS)
      throw std::runtime_error("kernel store " + storage_ + ": unavailable (recent failure)");
    try {
      if (!repo_) {
        repo_ = std::make_unique<db::Repository>(storage_);
        repo_->set_retry_limit_s(kRetryS);
      }
      auto result = f(*repo_);
      failed_at_.reset();
      return result;
    } catch (...) {
      failed_at_ = Clock::now();
      repo_.reset();  // a fresh connection next time
      throw;
    }
  }

  std::string storage_, host_;
  std::mutex mutex_;
  std::unique_ptr<db::Repository> repo_;
  std::optional<std::chrono::steady_clock::time_point> failed_at_;
};

}  // namespace

std::string resolve_kernel_store(const std::string& mode, const std::string& storage) {
  if (mode == "on") return storage;
  if (mode == "off") return "";
  if (mode != "auto")
    throw std::invalid_argument("--kernel-store: '" + mode + "' is not auto, on or off");
  if (const char* e = std::getenv(kKernelStoreEnv); e && *e)
    return std::string(e) == "off" ? std::string() : std::string(e);
  return db::is_postgresql_url(storage) ? storage : std::string();
}

std::shared_ptr<SharedKernelStore> make_db_kernel_store(const std::string& storage,
                                                        const std::string& host) {
  return std::make_shared<DbKernelStore>(storage, host);
}

std::string use_kernel_store(const std::string& target) {
  ::setenv(kKernelStoreEnv, target.empty() ? "off" : target.c_str(), 1);
  if (target.empty()) {
    set_shared_kernel_store(nullptr);
    return "kernel store: off (kernels are shared through the local cache folder only)";
  }
  set_shared_kernel_store(make_db_kernel_store(target, this_host()));
  return "kernel store: " + db::redact_store_url(target) +
         " (a local cache miss fetches the binary from there before compiling; compiled "
         "kernels are published there)";
}

void use_kernel_store_from_environment() {
  const char* e = std::getenv(kKernelStoreEnv);
  if (!e || !*e || std::string(e) == "off") return;
  set_shared_kernel_store(make_db_kernel_store(e, this_host()));
}

}  // namespace flowtune
