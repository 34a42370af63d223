// The shared state of a store and the choice of its back-end.
#include "db/store.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <iostream>
#include <sstream>
#include <thread>

#include "db/repository.hpp"
#include "db/schema.hpp"

namespace flowtune::db {

namespace {

std::atomic<double> g_retry_limit_s{kDefaultStoreRetryS};

double seconds_since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

std::string number_text(double x) {
  std::ostringstream out;
  out.precision(x < 10 ? 2 : 3);
  out << x;
  return out.str();
}

}  // namespace

void set_store_retry_limit_s(double seconds) {
  g_retry_limit_s = std::max(0.0, seconds);
}

double store_retry_limit_s() {
  return g_retry_limit_s;
}

double Store::now_s() const {
  const auto host_s = [] {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
  };
  const double now = host_s();
  if (clock_synced_at_ < 0 || now - clock_synced_at_ > kClockResyncS || now < clock_synced_at_) {
    retrying("cannot read the store's clock", [&] {
      const double before = host_s();
      const double store = connection_->clock_s();
      const double after = host_s();
      clock_offset_s_ = store - 0.5 * (before + after);
      clock_synced_at_ = after;
    });
  }
  return host_s() + clock_offset_s_;
}

double Store::retry_limit_s() const {
  return retry_limit_s_ >= 0 ? retry_limit_s_ : store_retry_limit_s();
}

void Store::wait_to_retry(const std::string& what, const BackendError& e, RetryState& state) const {
  const double limit = retry_limit_s();
  const double waited = seconds_since(state.first);
  if (gave_up_ || waited >= limit) {
    gave_up_ = true;
    fail(what + " (" + e.what() + "): the store stayed unavailable for " + number_text(waited) +
         " s (--store-retry-s " + number_text(limit) +
         "); stopping. Once the store is back, the same command resumes the run");
  }
  if (!state.told && waited >= kQuietRetryS) {
    state.told = true;
    std::cerr << path_ << ": " << what << " (" << e.what() << "); retrying for up to "
              << number_text(limit) << " s (--store-retry-s)\n";
  }
  ++state.failures;
  // 0.1 s doubling to 5 s, times a factor in [0.5, 1) that differs between processes.
  const double base = std::min(5.0, 0.1 * std::pow(2.0, std::min(state.failures - 1, 16)));
  const unsigned mix = unsigned(::getpid()) * 2654435761u + unsigned(state.failures) * 40503u;
  const double jitter = 0.5 + 0.5 * double(mix % 1000u) / 1000.0;
  const double pause = std::min(base * jitter, std::max(0.0, limit - waited));
  std::this_thread::sleep_for(std::chrono::duration<double>(pause));
  connection_->reconnect();
  connection_->cap_lock_wait_ms(int(std::max(0.0, limit - seconds_since(state.first)) * 1000) + 1);
}

void Store::succeeded(const std::string& what, const RetryState& state) const {
  gave_up_ = false;
  if (state.failures > 0) connection_->cap_lock_wait_ms(-1);
  if (state.told)
    std::cerr << path_ << ": " << what << ": done after " << state.failures << " retries in "
              << number_text(seconds_since(state.first)) << " s\n";
}

int Store::read_schema_version() const {
  return retrying("cannot read schema_version", [&] {
    Statement q(connection(), "SELECT coalesce(max(version), 0) FROM schema_version");
    q.executeStep();
    return q.getColumn(0).getInt();
  });
}

std::unique_ptr<Store> open_store(const std::string& path, OpenMode mode) {
  return is_postgresql_url(path) ? open_postgresql_store(path, mode)
                                 : open_sqlite_store(path, mode);
}

std::string newer_schema_problem(int version) {
  return "schema version " + std::to_string(version) +
         " is newer than this flowtune understands (" + std::to_string(kSchemaVersion) +
         "); use a newer flowtune";
}

}  // namespace flowtune::db
