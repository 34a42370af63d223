// db::Connection over libpq (PostgreSQL's C client): parameters and results travel as text
// (float8 text output is the shortest exact round trip from PostgreSQL 12 on), SQLite's
// `?`/`?N` placeholders become `$N`.
#include <libpq-fe.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <vector>

#include "db/connection.hpp"
#include "db/repository.hpp"

namespace flowtune::db {
namespace {

// `?` -> `$k` (k counting), `?N` -> `$N`; quoted literals and identifiers are left alone.
std::string to_postgresql_placeholders(const std::string& sql) {
  std::string out;
  int next = 1;
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    const char c = sql[i];
    if (quote) {
      out += c;
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"') {
      quote = c;
      out += c;
      continue;
    }
    if (c != '?') {
      out += c;
      continue;
    }
    std::size_t j = i + 1;
    while (j < sql.size() && std::isdigit(static_cast<unsigned char>(sql[j]))) ++j;
    out += '$';
    out += j > i + 1 ? sql.substr(i + 1, j - i - 1) : std::to_string(next++);
    i = j - 1;
  }
  return out;
}

// A failure that passes (BackendError::transient): the connection is gone, or the SQLSTATE
// says the server is going down or starting (57P01-57P03), the connection failed (class 08),
// or the transaction lost a serialization conflict or a deadlock (40001, 40P01).
bool is_transient(PGconn* conn, const PGresult* result) {
  if (PQstatus(conn) == CONNECTION_BAD) return true;
  const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  if (!state) return false;
  const std::string s(state);
  return s.rfind("08", 0) == 0 || s.rfind("57P", 0) == 0 || s == "40001" || s == "40P01";
}

// libpq's message on one line (it ends with a newline and may span several).
std::string one_line(const char* message) {
  std::string out;
  for (const char* p = message; p && *p; ++p) out += (*p == '\n' || *p == '\r') ? ' ' : *p;
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

struct ResultDeleter {
  void operator()(PGresult* r) const { PQclear(r); }
};
using Result = std::unique_ptr<PGresult, ResultDeleter>;

class PostgresStatement final : public StatementImpl {
 public:
  PostgresStatement(PGconn* conn, const std::string& sql)
      : conn_(conn), sql_(to_postgresql_placeholders(sql)) {}
  void bind_int64(int i, std::int64_t v) override { set(i, std::to_string(v)); }
  void bind_double(int i, double v) override {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    set(i, buf);
  }
  void bind_text(int i, const std::string& v) override { set(i, v); }
  void bind_null(int i) override { set(i, std::nullopt); }
  bool step() override {
    if (!result_) {
      run();
      row_ = -1;
    }
    return ++row_ < PQntuples(result_.get());
  }
  int exec() override {
    run();
    const char* n = PQcmdTuples(result_.get());
    return n && *n ? std::atoi(n) : 0;
  }
  void reset() override { result_.reset(); }
  bool is_null(int i) override { return PQgetisnull(result_.get(), row_, i) != 0; }
  std::string text(int i) override {
    return is_null(i) ? std::string() : std::string(PQgetvalue(result_.get(), row_, i));
  }
  std::int64_t int64(int i) override {
    return is_null(i) ? 0 : std::strtoll(PQgetvalue(result_.get(), row_, i), nullptr, 10);
  }
  double real(int i) override {
    return is_null(i) ? 0 : std::strtod(PQgetvalue(result_.get(), row_, i), nullptr);
  }

 private:
  void set(int i, std::optional<std::string> v) {
    if (int(params_.size()) < i) params_.resize(std::size_t(i));
    params_[std::size_t(i - 1)] = std::move(v);
  }
  void run() {
    std::vector<const char*> values;
    for (const auto& p : params_) values.push_back(p ? p->c_str() : nullptr);
    result_.reset(PQexecParams(conn_, sql_.c_str(), int(values.size()), nullptr, values.data(),
                               nullptr, nullptr, 0));
    const ExecStatusType s = result_ ? PQresultStatus(result_.get()) : PGRES_FATAL_ERROR;
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
      const std::string message = one_line(PQerrorMessage(conn_));
      const bool transient = is_transient(conn_, result_.get());
      result_.reset();
      throw BackendError(message, 0, false, transient);
    }
  }

  PGconn* conn_;
  std::string sql_;
  std::vector<std::optional<std::string>> params_;
  Result result_;
  int row_ = -1;
};

class PostgresConnection final : public Connection {
 public:
  explicit PostgresConnection(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
    if (!conn_ || PQstatus(conn_) != CONNECTION_OK) {
      const std::string message = conn_ ? PQerrorMessage(conn_) : "out of memory";
      if (conn_) PQfinish(conn_);
      conn_ = nullptr;
      throw BackendError("cannot connect: " + one_line(message.c_str()));
    }
    exec_script("SET client_min_messages = warning");
  }
  ~PostgresConnection() override {
    if (conn_) PQfinish(conn_);
  }
  PostgresConnection(const PostgresConnection&) = delete;
  PostgresConnection& operator=(const PostgresConnection&) = delete;
  Dialect dialect() const override { return Dialect::postgresql; }
  bool read_only() const override { return false; }
  std::unique_ptr<StatementImpl> prepare(const std::string& sql) override {
    return std::make_unique<PostgresStatement>(conn_, sql);
  }
  void exec_script(const std::string& sql) override {
    Result r(PQexec(conn_, sql.c_str()));
    const ExecStatusType s = r ? PQresultStatus(r.get()) : PGRES_FATAL_ERROR;
    if (s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK)
      throw BackendError(one_line(PQerrorMessage(conn_)), 0, false, is_transient(conn_, r.get()));
    // Session settings outside a transaction are set again after a reconnection.
    if (sql.rfind("SET ", 0) == 0 && !in_transaction()) session_.push_back(sql);
  }
  bool reconnect() override {
    if (PQstatus(conn_) == CONNECTION_OK) return true;
    PQreset(conn_);
    if (PQstatus(conn_) != CONNECTION_OK) return false;
    std::vector<std::string> settings;
    settings.swap(session_);
    try {
      for (const std::string& sql : settings) exec_script(sql);
    } catch (const BackendError&) {
      return false;
    }
    return true;
  }
  void begin_write() override { exec_script("BEGIN"); }
  void commit() override { exec_script("COMMIT"); }
  void rollback() noexcept override {
    try {
      exec_script("ROLLBACK");
    } catch (...) {
    }
  }
  std::int64_t last_insert_id(const std::string& table) override {
    PostgresStatement q(conn_, "SELECT currval(pg_get_serial_sequence(?, 'id'))");
    q.bind_text(1, table);
    if (!q.step()) throw BackendError("no id inserted into " + table);
    return q.int64(0);
  }

 private:
  PGconn* conn_;
  std::vector<std::string> session_;  ///< SET statements to replay after a reconnection
};

}  // namespace

std::unique_ptr<Connection> postgresql_connection(const std::string& url) {
  return std::make_unique<PostgresConnection>(url);
}

bool postgresql_supported() {
  return true;
}

}  // namespace flowtune::db
