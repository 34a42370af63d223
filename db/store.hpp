// The state that the parts of a db::Repository share (internal to db/): the open connection,
// the store's name for messages and the schema version of what is open; and the functions
// that open a store of each back-end (db/open_sqlite.cpp, db/open_postgresql.cpp).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <type_traits>

#include "db/connection.hpp"
#include "db/rows.hpp"

namespace flowtune::db {

/// One open store. Not thread-safe (one per thread, like its Connection).
class Store {
 public:
  /// A store named path in messages (a PostgreSQL URL without its password), not yet
  /// connected: connect() before any query.
  explicit Store(std::string path) : path_(std::move(path)) {}

  /// The name given at construction.
  const std::string& path() const { return path_; }
  void connect(std::unique_ptr<Connection> connection) { connection_ = std::move(connection); }
  /// The connection every query of the store goes through.
  Connection& connection() const { return *connection_; }
  /// The schema version of the open store (kSchemaVersion once migrated; a read-only open
  /// may see down to kOldestReadableSchemaVersion).
  int version() const { return version_; }
  void set_version(int version) { version_ = version; }

  /// Throws DbError "<path>: <problem>".
  [[noreturn]] void fail(const std::string& problem) const {
    throw DbError(path_ + ": " + problem);
  }
  /// The highest version in schema_version (0 when it is empty); throws DbError.
  int read_schema_version() const;

  /// Runs op, one whole operation of the store (a transaction or a single statement, safe
  /// to run again after a failure: it either committed nothing or is idempotent), and
  /// returns its result. A transient BackendError (the SQLite write lock held beyond the
  /// busy timeout, a lost PostgreSQL connection; BackendError::transient) is retried: op
  /// runs again after 0.1, 0.2, 0.4 ... s (doubling, at most 5 s apart, jittered so that many
  /// workers do not return at once), reconnecting first, until it succeeds or
  /// retry_limit_s() seconds passed since the first attempt began (SQLite's busy wait
  /// included): then DbError "<store>: <what> (<error>): the store stayed unavailable
  /// for N s ...". Any other BackendError throws DbError "<store>: <what> (<error>)" at
  /// once. An outage of kQuietRetryS or more is told on stderr, one line when it is seen and
  /// one when op went through. Inside a transaction (a caller's op runs this one) a transient error
  /// propagates unchanged, so that the outer operation runs again as a whole. After one give-up,
  /// the store fails at the first transient error until an operation succeeds again (a process that
  /// stops does not wait the limit once more for each cleanup write).
  template <typename F>
  auto retrying(const std::string& what, F&& op) const -> decltype(op()) {
    RetryState state;
    for (;;) {
      if (state.failures == 0) state.first = std::chrono::steady_clock::now();
      try {
        if constexpr (std::is_void_v<decltype(op())>) {
          op();
          succeeded(what, state);
          return;
        } else {
          auto result = op();
          succeeded(what, state);
          return result;
        }
      } catch (const BackendError& e) {
        if (e.transient && connection_->in_transaction()) throw;
        if (!e.transient) fail(what + " (" + e.what() + ")");
        wait_to_retry(what, e, state);
      }
    }
  }
  /// Now on the store's clock (Connection::clock_s), as Unix seconds: this host's clock plus
  /// the offset to the store's, measured at the first call and again every
  /// kClockResyncS (the midpoint of the query's round trip). Leases, heartbeats and their
  /// expiry are all compared on this one clock, so a host whose clock runs ahead or behind
  /// neither steals leases early nor keeps them too long. Throws DbError.
  double now_s() const;
  static constexpr double kClockResyncS = 30;
  /// The retry limit of this store: set_retry_limit_s's value, else the process-wide one
  /// (db::set_store_retry_limit_s in db/repository.hpp, default kDefaultStoreRetryS).
  double retry_limit_s() const;
  /// This store's own retry limit in seconds (>= 0; 0 = fail at the first transient error).
  void set_retry_limit_s(double seconds) { retry_limit_s_ = seconds; }

 private:
  struct RetryState {
    int failures = 0;
    bool told = false;                            ///< the "retrying" line was printed
    std::chrono::steady_clock::time_point first;  ///< start of the first attempt
  };
  /// An outage shorter than this stays silent (a lock taken for a moment by another
  /// process, e.g. many workers opening the store at once).
  static constexpr double kQuietRetryS = 1;
  // After a transient error: the notice, the limit (throws DbError), the pause, reconnect().
  void wait_to_retry(const std::string& what, const BackendError& e, RetryState& state) const;
  // After op succeeded: a notice when it had failed before.
  void succeeded(const std::string& what, const RetryState& state) const;

  std::string path_;
  std::unique_ptr<Connection> connection_;
  int version_ = 0;
  mutable double clock_offset_s_ = 0;    ///< store clock - this host's clock
  mutable double clock_synced_at_ = -1;  ///< host seconds of the last measurement; < 0: never
  double retry_limit_s_ = -1;            ///< < 0: the process-wide limit
  mutable bool gave_up_ = false;         ///< the last retry ended at the limit
};

/// Opens (creating when absent) and migrates, or opens read-only, the store at path: an
/// SQLite file or a postgresql:// URL (see Repository::Repository for the checks and their
/// errors, all DbError naming the store). Does not mark dead runs aborted.
std::unique_ptr<Store> open_store(const std::string& path, OpenMode mode);
/// open_store for an SQLite file.
std::unique_ptr<Store> open_sqlite_store(const std::string& path, OpenMode mode);
/// open_store for a PostgreSQL URL; messages name the URL without its password.
std::unique_ptr<Store> open_postgresql_store(const std::string& url, OpenMode mode);

/// "schema version N is newer than this flowtune understands (...)" for version.
std::string newer_schema_problem(int version);

}  // namespace flowtune::db
