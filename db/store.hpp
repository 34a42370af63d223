// The state that the parts of a db::Repository share (internal to db/): the open connection,
// the store's name for messages and the schema version of what is open; and the functions
// that open a store of each back-end (db/open_sqlite.cpp, db/open_postgresql.cpp).
#pragma once

#include <memory>
#include <string>

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

 private:
  std::string path_;
  std::unique_ptr<Connection> connection_;
  int version_ = 0;
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
