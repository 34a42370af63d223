// db::Connection over SQLiteCpp, the only code of flowtune that uses SQLite's API: every
// SQLite::Exception becomes a BackendError.
#include <SQLiteCpp/SQLiteCpp.h>
#include <sqlite3.h>

#include <algorithm>

#include "db/connection.hpp"

namespace flowtune::db {
namespace {

template <typename F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const SQLite::Exception& e) {
    const int primary = e.getErrorCode() & 0xff;
    throw BackendError(e.what(), e.getErrorCode(), primary == SQLITE_NOTADB,
                       primary == SQLITE_BUSY || primary == SQLITE_LOCKED);
  }
}

class SqliteStatement final : public StatementImpl {
 public:
  SqliteStatement(SQLite::Database& db, const std::string& sql)
      : q_(guarded([&] { return std::make_unique<SQLite::Statement>(db, sql); })) {}
  void bind_int64(int i, std::int64_t v) override {
    guarded([&] { q_->bind(i, v); });
  }
  void bind_double(int i, double v) override {
    guarded([&] { q_->bind(i, v); });
  }
  void bind_text(int i, const std::string& v) override {
    guarded([&] { q_->bind(i, v); });
  }
  void bind_text_no_copy(int i, const std::string& v) override {
    guarded([&] { q_->bindNoCopy(i, v); });
  }
  void bind_null(int i) override {
    guarded([&] { q_->bind(i); });
  }
  bool step() override {
    return guarded([&] { return q_->executeStep(); });
  }
  int exec() override {
    return guarded([&] { return q_->exec(); });
  }
  void reset() override {
    guarded([&] { q_->reset(); });
  }
  bool is_null(int i) override {
    return guarded([&] { return q_->getColumn(i).isNull(); });
  }
  std::string text(int i) override {
    return guarded([&] { return q_->getColumn(i).getString(); });
  }
  std::int64_t int64(int i) override {
    return guarded([&] { return std::int64_t(q_->getColumn(i).getInt64()); });
  }
  double real(int i) override {
    return guarded([&] { return q_->getColumn(i).getDouble(); });
  }

 private:
  std::unique_ptr<SQLite::Statement> q_;
};

class SqliteConnection final : public Connection {
 public:
  SqliteConnection(const std::string& path, bool read_only, int busy_timeout_ms, int extra_flags)
      : db_(guarded([&] {
          return SQLite::Database(
              path,
              (read_only ? SQLite::OPEN_READONLY : SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE) |
                  extra_flags,
              busy_timeout_ms);
        })),
        busy_timeout_ms_(busy_timeout_ms) {}
  Dialect dialect() const override { return Dialect::sqlite; }
  bool read_only() const override { return sqlite3_db_readonly(db_.getHandle(), "main") == 1; }
  std::unique_ptr<StatementImpl> prepare(const std::string& sql) override {
    return std::make_unique<SqliteStatement>(db_, sql);
  }
  void exec_script(const std::string& sql) override {
    guarded([&] { db_.exec(sql); });
  }
  void cap_lock_wait_ms(int ms) override {
    sqlite3_busy_timeout(db_.getHandle(),
                         ms < 0 ? busy_timeout_ms_ : std::min(ms, busy_timeout_ms_));
  }
  void begin_write() override {
    guarded([&] { db_.exec("BEGIN IMMEDIATE"); });
  }
  void commit() override {
    guarded([&] { db_.exec("COMMIT"); });
  }
  void rollback() noexcept override {
    try {
      db_.exec("ROLLBACK");
    } catch (...) {
    }
  }
  std::int64_t last_insert_id(const std::string&) override {
    return std::int64_t(db_.getLastInsertRowid());
  }

 private:
  SQLite::Database db_;
  int busy_timeout_ms_;
};

}  // namespace

std::unique_ptr<Connection> sqlite_connection(const std::string& path, bool read_only,
                                              int busy_timeout_ms) {
  return std::make_unique<SqliteConnection>(path, read_only, busy_timeout_ms, 0);
}

std::unique_ptr<Connection> sqlite_immutable_connection(const std::string& path) {
  std::string uri = "file:";
  for (const char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static const char* const kHex = "0123456789ABCDEF";
      uri += '%';
      uri += kHex[(static_cast<unsigned char>(c) >> 4) & 0xF];
      uri += kHex[static_cast<unsigned char>(c) & 0xF];
    } else {
      uri += c;
    }
  }
  uri += "?immutable=1";
  return std::make_unique<SqliteConnection>(uri, true, 0, SQLite::OPEN_URI);
}

}  // namespace flowtune::db
