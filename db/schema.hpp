// The SQLite schema of a flowtune database: versioned, applied by ordered migrations.
#pragma once

#include <cstdint>
#include <vector>

namespace flowtune::db {

/// One step of the schema history. Migration N brings a database from version N-1 to N;
/// it runs inside one write transaction together with the insertion of its row into
/// schema_version. Never edit a released migration: append a new one (v2, v3...).
struct Migration {
  int version;              ///< the schema version reached after this step (1, 2, ...)
  const char* description;  ///< one line, stored in schema_version.description
  const char* sql;          ///< statements separated by ';', executed with sqlite3_exec
  bool rekey;               ///< after the SQL, recompute every configs.config_key (config_key())
};

/// All migrations in ascending version order; the last one's version is kSchemaVersion.
const std::vector<Migration>& migrations();

/// The schema version this build writes and understands (see db/SCHEMA.md).
inline constexpr int kSchemaVersion = 3;

/// The oldest schema a read-only open accepts (reports, exports, replay of recordings): v3
/// only added the distributed-tuning tables, which such a reader then sees as empty.
inline constexpr int kOldestReadableSchemaVersion = 2;

/// PRAGMA application_id stamped on every flowtune database ("FTun" in ASCII), so that an
/// unrelated SQLite file is recognised and refused instead of being written into.
inline constexpr std::int32_t kApplicationId = 0x4654756E;

/// SQL of the statement that creates the schema_version table (exists before migration 1).
const char* schema_version_table_sql();

/// PostgreSQL: the whole schema at kSchemaVersion (a new store is created at this version;
/// db/schema_postgresql.cpp), and the schema_version table.
const char* postgresql_schema_sql();
const char* postgresql_schema_version_table_sql();

}  // namespace flowtune::db
