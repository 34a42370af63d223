// The storage layer of flowtune, the only code that runs SQL (ARCHITECTURE.md: db/ is the
// bottom layer): db::Repository over an SQLite file or a PostgreSQL database, made of one
// part per concern (runs, results, failures and pruned configs, workloads, the work queue)
// that share one connection.
#pragma once

#include <memory>
#include <string>

#include "db/failure_store.hpp"
#include "db/import_store.hpp"
#include "db/kernel_binary_store.hpp"
#include "db/result_store.hpp"
#include "db/rows.hpp"
#include "db/run_store.hpp"
#include "db/work_queue.hpp"
#include "db/workload_store.hpp"

namespace flowtune::db {

/// The default of the process-wide retry limit (Store::retrying), in seconds.
inline constexpr double kDefaultStoreRetryS = 300;
/// Sets the retry limit of every store of this process that has none of its own (the
/// `--store-retry-s` option of tune and tune worker); seconds >= 0.
void set_store_retry_limit_s(double seconds);
/// The process-wide retry limit in seconds.
double store_retry_limit_s();

/// True when this build has the PostgreSQL store (libpq; db/CMakeLists.txt).
bool postgresql_supported();

/// Owns the store that the parts of a Repository share (constructed before them).
class StoreOwner {
 protected:
  explicit StoreOwner(std::unique_ptr<Store> store);
  ~StoreOwner();
  StoreOwner(StoreOwner&&) noexcept;
  StoreOwner& operator=(StoreOwner&&) noexcept;
  std::unique_ptr<Store> owned_;
};

/// A flowtune database (schema in db/SCHEMA.md): an SQLite file, or a PostgreSQL database
/// given as postgresql://user[:password]@host[:port]/db (the same queries through
/// db/connection.hpp; created at the current schema version; claims use SELECT ... FOR
/// UPDATE SKIP LOCKED). An SQLite file is opened in WAL mode with foreign keys on,
/// synchronous=FULL and a 5 s busy timeout, so a second process can read while a run writes
/// and a restarted run can resume. An operation that meets a lock held longer, or a lost
/// PostgreSQL connection, is retried with backoff up to the retry limit (set_retry_limit_s,
/// db::set_store_retry_limit_s; Store::retrying). Every record_* call is one transaction committed
/// before it returns: a SIGKILL after the return loses nothing. Not thread-safe: one Repository per
/// thread.
///
/// The calls are those of its parts: RunStore (runs), ResultStore (measurements and what
/// they answer), FailureStore (failures and pruned configs), WorkloadStore (workloads and
/// their metrics), WorkQueue (distributed tuning: workers and tasks), ImportStore (a
/// whole imported file in one transaction) and KernelBinaryStore (compiled kernels shared by
/// the hosts of a run).
class Repository : private StoreOwner,
                   public RunStore,
                   public ResultStore,
                   public FailureStore,
                   public WorkloadStore,
                   public WorkQueue,
                   public ImportStore,
                   public KernelBinaryStore {
 public:
  /// Creates or opens the database at path (":memory:" works for tests) and applies the
  /// migrations up to kSchemaVersion. Throws DbError "<path>: <problem>" when the file
  /// cannot be created or written, is not an SQLite database, is an SQLite database of
  /// another application, or has a schema newer than this build understands.
  ///
  /// With OpenMode::read_only (reports, exports) the file must exist ("no such database"),
  /// is opened read-only (a read-only file or folder is fine) and must already be at
  /// kSchemaVersion or at least kOldestReadableSchemaVersion (an older one is refused: "open
  /// it once with tune to migrate"; a v2 file reads as having no distributed runs).
  /// With read_write, runs of this host whose process is gone are marked "aborted".
  explicit Repository(const std::string& path, OpenMode mode = OpenMode::read_write);
  ~Repository();
  Repository(const Repository&) = delete;
  Repository& operator=(const Repository&) = delete;
  Repository(Repository&&) noexcept;
  Repository& operator=(Repository&&) noexcept;

  /// The path given to the constructor (a PostgreSQL URL without its password).
  const std::string& path() const;
  /// This repository's own limit, in seconds, on retrying an operation that meets a locked
  /// or unreachable store (instead of the process-wide db::store_retry_limit_s()).
  void set_retry_limit_s(double seconds);
  /// Now on the store's clock, Unix seconds (PostgreSQL: the server's; SQLite: the host's):
  /// the time to give WorkQueue's calls, so that every host's leases and heartbeats are
  /// compared on one clock. Throws DbError.
  double store_now_s() const;
  /// Highest version in schema_version (== kSchemaVersion after construction).
  int schema_version() const;
  /// PRAGMA journal_mode as reported by SQLite: "wal" for a file ("memory" for ":memory:");
  /// "postgresql" on PostgreSQL.
  std::string journal_mode() const;
};

}  // namespace flowtune::db
