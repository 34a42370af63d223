// The dialect map of the schema: how each abstract column type and each token of the
// definition (db/schema_tables.cpp) is written in SQLite and in PostgreSQL, and the
// rendering of tables, indexes and views into DDL.
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "db/schema.hpp"

namespace flowtune::db {

namespace {

const char* type_sql(ColumnType type, Dialect d) {
  const bool pg = d == Dialect::postgresql;
  switch (type) {
    case ColumnType::id:
      return pg ? "BIGSERIAL PRIMARY KEY" : "INTEGER PRIMARY KEY";
    case ColumnType::int64:
      return pg ? "BIGINT" : "INTEGER";
    case ColumnType::int32:
      return "INTEGER";
    case ColumnType::real:
      return pg ? "DOUBLE PRECISION" : "REAL";
    case ColumnType::text:
      return "TEXT";
  }
  throw std::logic_error("unknown column type");
}

struct Token {
  const char* name;
  const char* sqlite;
  const char* postgresql;
};

// The tokens of render_schema_text(); no name is a prefix of another.
constexpr Token kTokens[] = {
    {"$now", "(strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
     "(to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"'))"},
    {"$json_object_agg", "json_group_object", "json_object_agg"},
    {"$json_each", "json_each", "json_each_text"},
    {"$as_text", "", "::text"},
    {"$as_real", "", "::double precision"},
    {"$as_json", "", "::json"},
};

}  // namespace

std::string render_schema_text(const std::string& text, Dialect dialect) {
  std::string out;
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t dollar = text.find('$', i);
    out += text.substr(i, dollar - i);
    if (dollar == std::string::npos) break;
    const Token* token = std::find_if(std::begin(kTokens), std::end(kTokens), [&](const Token& t) {
      return text.compare(dollar, std::strlen(t.name), t.name) == 0;
    });
    if (token == std::end(kTokens))
      throw std::logic_error("unknown schema token at '" + text.substr(dollar, 20) + "'");
    out += dialect == Dialect::postgresql ? token->postgresql : token->sqlite;
    i = dollar + std::strlen(token->name);
  }
  return out;
}

std::string table_sql(const TableDef& table, Dialect dialect, bool if_not_exists) {
  std::size_t width = 0;
  for (const ColumnDef& c : table.columns) width = std::max(width, std::strlen(c.name));
  std::vector<std::string> lines;
  for (const ColumnDef& c : table.columns) {
    std::string line = "  " + std::string(c.name);
    line.append(width + 1 - std::strlen(c.name), ' ');
    line += type_sql(c.type, dialect);
    if (*c.constraints) line += std::string(" ") + c.constraints;
    lines.push_back(render_schema_text(line, dialect));
  }
  for (const char* constraint : table.constraints) lines.push_back(std::string("  ") + constraint);
  std::string sql =
      std::string("CREATE TABLE ") + (if_not_exists ? "IF NOT EXISTS " : "") + table.name + " (\n";
  for (std::size_t i = 0; i < lines.size(); ++i)
    sql += lines[i] + (i + 1 < lines.size() ? ",\n" : "\n");
  sql += ");\n";
  for (const IndexDef& index : table.indexes)
    sql += std::string("CREATE INDEX ") + index.name + " ON " + table.name + "(" + index.columns +
           ");\n";
  return sql;
}

std::string schema_sql(Dialect dialect) {
  std::string sql;
  for (const TableDef& table : schema_tables()) sql += table_sql(table, dialect) + "\n";
  for (const ViewDef& view : schema_views())
    sql += std::string("CREATE VIEW ") + view.name + " AS" +
           render_schema_text(view.select, dialect) + ";\n\n";
  return sql;
}

std::string schema_version_table_sql(Dialect dialect) {
  return table_sql(schema_version_table(), dialect, true);
}

}  // namespace flowtune::db
