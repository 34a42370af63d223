// The schema of a flowtune store: one definition of the current version's tables, indexes
// and views (db/schema_tables.cpp) rendered into the DDL of each SQL dialect
// (db/schema_render.cpp), and the ordered history of SQLite migrations that brings an older
// file to the current version (db/schema_migrations.cpp). Column meanings and units are in
// db/SCHEMA.md.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/dialect.hpp"

namespace flowtune::db {

/// The schema version this build writes and understands (see db/SCHEMA.md).
inline constexpr int kSchemaVersion = 6;

/// The oldest schema a read-only open accepts (reports, exports, replay of recordings): v3
/// only added the distributed-tuning tables, v4 the item_images table and v5 the
/// kernel_binaries table, which such a reader then sees as empty.
inline constexpr int kOldestReadableSchemaVersion = 2;

/// PRAGMA application_id stamped on every flowtune database ("FTun" in ASCII), so that an
/// unrelated SQLite file is recognised and refused instead of being written into.
inline constexpr std::int32_t kApplicationId = 0x4654756E;

// ---- The definition (db/schema_tables.cpp) ----------------------------------------------

/// A column type independent of the dialect; renderings (SQLite / PostgreSQL):
enum class ColumnType {
  id,     ///< the row id: INTEGER PRIMARY KEY (the rowid) / BIGSERIAL PRIMARY KEY
  int64,  ///< the id of another row, a process id, a count: INTEGER / BIGINT
  int32,  ///< a small integer (MHz, repeats, 0/1 flags, versions): INTEGER / INTEGER
  real,   ///< a floating-point number: REAL / DOUBLE PRECISION
  text,   ///< text (also ISO 8601 timestamps and JSON): TEXT / TEXT
};

/// One column. constraints: SQL both dialects accept after the type ("NOT NULL DEFAULT ''",
/// "NOT NULL REFERENCES runs(id)", "CHECK (...)"), "" for none; the token $now stands for
/// the dialect's "current UTC time as ISO 8601 text with milliseconds" expression.
struct ColumnDef {
  const char* name;
  ColumnType type;
  const char* constraints;
};

/// A non-unique index: CREATE INDEX name ON <table>(columns).
struct IndexDef {
  const char* name;
  const char* columns;  ///< e.g. "config_id, dataset"
};

/// A table: its columns in order, the table constraints after them ("UNIQUE (a, b)",
/// "PRIMARY KEY (a, b)") and the indexes created with it.
struct TableDef {
  const char* name;
  std::vector<ColumnDef> columns;
  std::vector<const char*> constraints;
  std::vector<IndexDef> indexes;
};

/// A view: CREATE VIEW name AS select. select may use the dialect tokens of
/// render_schema_text() ($json_object_agg, $json_each, $as_text, $as_real, $as_json).
struct ViewDef {
  const char* name;
  const char* select;
};

/// The tables of the current schema version (kSchemaVersion) in creation order (a table
/// follows the tables it references), schema_version excluded.
const std::vector<TableDef>& schema_tables();
/// The views of the current schema version, in creation order.
const std::vector<ViewDef>& schema_views();
/// The schema_version table (one row per migration), created before anything else.
const TableDef& schema_version_table();
/// The tables added by version `version` that a PostgreSQL store of version - 1 gains
/// unchanged (additive steps: 4 and 5; empty when that version has no such step, e.g. 3).
std::vector<TableDef> additive_tables_of_version(int version);

// ---- Rendering (db/schema_render.cpp) ---------------------------------------------------

/// text with the dialect's tokens replaced: $now (the current UTC time as ISO 8601 text,
/// e.g. 2024-05-01T12:00:00.123Z), $json_object_agg (the aggregate that builds a JSON
/// object from name/value pairs), $json_each (the table function over a JSON object's
/// key/value pairs, values as text on PostgreSQL), $as_text / $as_real / $as_json (casts
/// appended to an expression; empty on SQLite). Throws std::logic_error for an unknown token.
std::string render_schema_text(const std::string& text, Dialect dialect);
/// CREATE TABLE (IF NOT EXISTS when if_not_exists) and CREATE INDEX statements of table.
std::string table_sql(const TableDef& table, Dialect dialect, bool if_not_exists = false);
/// The whole current schema (every table, index and view; not schema_version) as statements
/// separated by ';', for a new store created at kSchemaVersion.
std::string schema_sql(Dialect dialect);
/// The statement that creates the schema_version table if it does not exist.
std::string schema_version_table_sql(Dialect dialect = Dialect::sqlite);

// ---- SQLite history (db/schema_migrations.cpp) -------------------------------------------

/// One step of the schema history of an SQLite file. Migration N brings a file from version
/// N-1 to N; it runs inside one write transaction together with the insertion of its row
/// into schema_version. Never edit a released migration: append a new one (v4...), and
/// change the definition (schema_tables()) to the state it reaches.
struct Migration {
  int version;              ///< the schema version reached after this step (1, 2, ...)
  const char* description;  ///< one line, stored in schema_version.description
  const char* sql;          ///< SQLite statements separated by ';'
  bool rekey;               ///< after the SQL, recompute every configs.config_key (config_key())
};

/// All migrations in ascending version order; the last one's version is kSchemaVersion.
/// A new SQLite file is created from schema_sql() instead, with a schema_version row for
/// each of them; the tests check that both roads lead to the same schema.
const std::vector<Migration>& migrations();

}  // namespace flowtune::db
