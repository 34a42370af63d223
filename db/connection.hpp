// The database connection under db::Repository: one statement API over SQLite (SQLiteCpp,
// db/sqlite_connection.cpp) and PostgreSQL (libpq, db/postgresql_connection.cpp), so that
// every query of db/ is written once and nothing else in db/ sees a back-end's own API.
// Internal to db/ (nothing else runs SQL). Queries use SQLite's placeholders (`?` and `?N`);
// the PostgreSQL connection rewrites them to `$N`.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "db/dialect.hpp"

namespace flowtune::db {

/// An error of the database back-end (the repository wraps it into a DbError naming the
/// database). what(): the back-end's message. code: SQLite's result code, or 0.
/// not_a_database: the file is not an SQLite database (SQLITE_NOTADB). transient: a failure
/// that passes, so the whole operation may run again (SQLite: SQLITE_BUSY or SQLITE_LOCKED,
/// the write lock held by another connection beyond the busy timeout; PostgreSQL: the
/// connection is lost or the server is shutting down or starting, SQLSTATE classes 08 and
/// 57P, or a serialization failure or deadlock, 40001 and 40P01).
struct BackendError : std::runtime_error {
  BackendError(const std::string& what, int code_ = 0, bool not_a_database_ = false,
               bool transient_ = false)
      : std::runtime_error(what),
        code(code_),
        not_a_database(not_a_database_),
        transient(transient_) {}
  int code;
  bool not_a_database;
  bool transient;
};

class StatementImpl;
class Connection;

/// A value of the current row of a Statement.
class Column {
 public:
  Column(StatementImpl& impl, int index) : impl_(&impl), index_(index) {}
  bool isNull() const;
  std::string getString() const;  ///< "" for NULL
  int getInt() const;             ///< 0 for NULL
  std::int64_t getInt64() const;  ///< 0 for NULL
  double getDouble() const;       ///< 0 for NULL

 private:
  StatementImpl* impl_;
  int index_;
};

/// A prepared statement (SQLiteCpp's interface): bind 1-based parameters, then executeStep()
/// row by row or exec() once; reset() to run it again. Throws BackendError.
class Statement {
 public:
  Statement(Connection& connection, const std::string& sql);
  ~Statement();
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  void bind(int index, int value);
  void bind(int index, std::int64_t value);
  void bind(int index, double value);
  void bind(int index, const std::string& value);
  void bind(int index, const char* value) { bind(index, std::string(value)); }
  void bind(int index);  ///< NULL
  /// bind(index, value) without a copy where the back-end allows (SQLite): value must stay
  /// alive and unchanged until the statement is bound again or destroyed.
  void bind_no_copy(int index, const std::string& value);
  /// Executes (first call) or advances; true while there is a row.
  bool executeStep();
  /// Executes a statement that returns no rows; returns the number of rows changed.
  int exec();
  void reset();
  Column getColumn(int index) { return Column(*impl_, index); }

 private:
  std::unique_ptr<StatementImpl> impl_;
};

/// One connection (not thread-safe). Every call throws BackendError when the back-end fails.
class Connection {
 public:
  virtual ~Connection() = default;
  virtual Dialect dialect() const = 0;
  /// True when the store refuses writes (SQLite: the file or its folder is read-only, or it
  /// was opened read-only); false on PostgreSQL, whose permissions show at the first write.
  virtual bool read_only() const = 0;
  /// A statement of sql (see Statement); the SQL is checked here on SQLite, at its first
  /// execution on PostgreSQL.
  virtual std::unique_ptr<StatementImpl> prepare(const std::string& sql) = 0;
  /// Runs statements separated by ';' (DDL), no parameters.
  virtual void exec_script(const std::string& sql) = 0;
  /// Starts a write transaction: SQLite BEGIN IMMEDIATE (the write lock at once, so a
  /// read-then-write is atomic across processes); PostgreSQL BEGIN.
  virtual void begin_write() = 0;
  virtual void commit() = 0;
  virtual void rollback() noexcept = 0;
  /// After a transient BackendError: connects again when the connection was lost
  /// (PostgreSQL: PQreset, then the session settings again). Returns false when it could
  /// not (the next statement then fails again); true when nothing was lost (SQLite).
  virtual bool reconnect() { return true; }
  /// The store's clock as Unix seconds: PostgreSQL the server's clock_timestamp(); SQLite
  /// julianday('now') (the clock of the host whose processes share the file: SQLite's WAL
  /// mode needs them all on one host). Throws BackendError.
  double clock_s() {
    Statement q(*this, dialect() == Dialect::sqlite
                           ? "SELECT (julianday('now') - 2440587.5) * 86400.0"
                           : "SELECT extract(epoch from clock_timestamp())::float8");
    q.executeStep();
    return q.getColumn(0).getDouble();
  }
  /// Caps how long one statement waits for a lock held by another connection (SQLite's busy
  /// timeout) at ms, or restores the timeout the connection was opened with (ms < 0): the
  /// retries of Store::retrying end within their limit. No-op on PostgreSQL.
  virtual void cap_lock_wait_ms(int /*ms*/) {}
  /// True between Transaction's begin_write and its commit or rollback: a failed statement
  /// there loses the whole transaction, so only the operation that began it may run again.
  bool in_transaction() const { return in_transaction_; }
  void set_in_transaction(bool in) { in_transaction_ = in; }
  /// The id of the row this connection inserted last into table (its `id` column).
  virtual std::int64_t last_insert_id(const std::string& table) = 0;
  /// Appended to a SELECT that reads rows to update in the same transaction: PostgreSQL
  /// " FOR UPDATE" (+ " SKIP LOCKED" when skip_locked); "" for SQLite (its write lock is the
  /// whole database).
  std::string for_update(bool skip_locked) const {
    if (dialect() == Dialect::sqlite) return "";
    return skip_locked ? " FOR UPDATE SKIP LOCKED" : " FOR UPDATE";
  }
  /// A column that orders the rows of table alias t by insertion (SQLite rowid, PostgreSQL
  /// ctid: rows of these tables are never updated).
  std::string insertion_order(const std::string& t) const {
    return t + (dialect() == Dialect::sqlite ? ".rowid" : ".ctid");
  }

 private:
  bool in_transaction_ = false;
};

/// Opens the SQLite file at path (":memory:" works): read-write, created when absent, or
/// read-only (the file must exist; a read-only file or folder is fine). A lock held by
/// another process is waited for up to busy_timeout_ms. Throws BackendError with SQLite's
/// message when the file cannot be opened.
std::unique_ptr<Connection> sqlite_connection(const std::string& path, bool read_only,
                                              int busy_timeout_ms);
/// Opens the SQLite file at path read-only as immutable (URI immutable=1: no locks, no -shm,
/// no WAL recovery): for a file in a folder this process cannot write, where no writer can
/// be at work either (a writer of a WAL database needs its -wal and -shm files there).
/// Throws BackendError.
std::unique_ptr<Connection> sqlite_immutable_connection(const std::string& path);
/// Connects to a PostgreSQL server; url: postgresql://user[:password]@host[:port]/db
/// (libpq's URI). Throws BackendError with libpq's message when it cannot connect.
std::unique_ptr<Connection> postgresql_connection(const std::string& url);
/// True for postgresql:// and postgres:// URLs.
bool is_postgresql_url(const std::string& storage);

/// A write transaction (Connection::begin_write) rolled back unless committed.
class Transaction {
 public:
  explicit Transaction(Connection& c) : c_(c) {
    c_.begin_write();
    c_.set_in_transaction(true);
  }
  ~Transaction() {
    if (!done_) c_.rollback();
    c_.set_in_transaction(false);
  }
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  void commit() {
    c_.commit();
    done_ = true;
    c_.set_in_transaction(false);
  }

 private:
  Connection& c_;
  bool done_ = false;
};

/// What a back-end's statement does (db/sqlite_connection.cpp, db/postgresql_connection.cpp).
class StatementImpl {
 public:
  virtual ~StatementImpl() = default;
  virtual void bind_int64(int index, std::int64_t value) = 0;
  virtual void bind_double(int index, double value) = 0;
  virtual void bind_text(int index, const std::string& value) = 0;
  virtual void bind_null(int index) = 0;
  /// Statement::bind_no_copy; copies unless the back-end can refer to value.
  virtual void bind_text_no_copy(int index, const std::string& value) { bind_text(index, value); }
  virtual bool step() = 0;
  virtual int exec() = 0;
  virtual void reset() = 0;
  virtual bool is_null(int index) = 0;
  virtual std::string text(int index) = 0;
  virtual std::int64_t int64(int index) = 0;
  virtual double real(int index) = 0;
};

}  // namespace flowtune::db
