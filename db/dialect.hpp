// The SQL dialects of the two back-ends of a flowtune store.
#pragma once

namespace flowtune::db {

/// The back-ends' differences that SQL text cannot hide: the connection's placeholders and
/// locking (db/connection.hpp) and the column types and functions of the schema
/// (db/schema_render.cpp).
enum class Dialect { sqlite, postgresql };

}  // namespace flowtune::db
