// The configs table as the stores read and write it (internal to db/): its columns in the
// order read_config() reads them, the insertion of a config, the re-keying of every config
// after a migration; and the conversions of nullable values between C++ and SQL.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>

#include "db/connection.hpp"
#include "db/rows.hpp"

namespace flowtune::db {

/// Columns of configs (table alias c) in the order read_config() reads them.
inline constexpr const char* kConfigColumns =
    "c.board, c.config_key, c.label, c.workload, c.variant, c.precision, c.tunables_json, "
    "c.clock_mhz, c.params_json";
inline constexpr int kConfigColumnCount = 9;

/// The config in the kConfigColumns of q's current row, from column first on. Throws
/// std::invalid_argument for malformed JSON in the row.
ConfigRow read_config(Statement& q, int first);

/// Inside a write transaction: the id of (config.board, config.key), inserting the config
/// when new (an existing row is left as it is: the first write wins).
std::int64_t upsert_config(Connection& c, const ConfigRow& config);

/// upsert_config with its statements prepared once, for many configs in one transaction.
class ConfigUpserter {
 public:
  explicit ConfigUpserter(Connection& c);
  /// As upsert_config(c, config).
  std::int64_t id(const ConfigRow& config);
  /// As id(config) for a config whose tunables_json(config.tunables) and
  /// params_json(config.params) are given (its maps are not read).
  std::int64_t id(const ConfigRow& config, const std::string& tunables_json,
                  const std::string& params_json);

 private:
  Connection& c_;
  Statement ins_, sel_;
};

/// Inside a write transaction: recomputes every configs.config_key with config_key() from
/// the stored columns (after a migration that changed what a key holds), so that a resumed
/// run finds the migrated points. Throws std::invalid_argument for malformed JSON.
void rekey_configs(Connection& c);

/// The column's value, NaN for NULL.
inline double nan_if_null(const Column& col) {
  return col.isNull() ? std::nan("") : col.getDouble();
}
/// The column's value, 0 for NULL.
inline double zero_if_null(const Column& col) {
  return col.isNull() ? 0.0 : col.getDouble();
}
/// The column's value, nullopt for NULL.
inline std::optional<double> optional_double(const Column& col) {
  if (col.isNull()) return std::nullopt;
  return col.getDouble();
}

/// Binds value, or NULL for NaN.
inline void bind_double_or_null(Statement& q, int index, double value) {
  if (std::isnan(value)) {
    q.bind(index);
  } else {
    q.bind(index, value);
  }
}
/// Binds the value, or NULL when empty or NaN.
inline void bind_optional(Statement& q, int index, const std::optional<double>& value) {
  if (value && !std::isnan(*value)) {
    q.bind(index, *value);
  } else {
    q.bind(index);
  }
}
/// Binds the value, or NULL when empty.
inline void bind_optional(Statement& q, int index, const std::optional<int>& value) {
  if (value) {
    q.bind(index, *value);
  } else {
    q.bind(index);
  }
}

}  // namespace flowtune::db
