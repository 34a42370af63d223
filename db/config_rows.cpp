// Reading, inserting and re-keying rows of the configs table.
#include "db/config_rows.hpp"

#include <utility>
#include <vector>

namespace flowtune::db {

ConfigRow read_config(Statement& q, int first) {
  ConfigRow c;
  c.board = q.getColumn(first + 0).getString();
  c.key = q.getColumn(first + 1).getString();
  c.label = q.getColumn(first + 2).getString();
  c.workload = q.getColumn(first + 3).getString();
  c.variant = q.getColumn(first + 4).getString();
  c.precision = q.getColumn(first + 5).getString();
  c.tunables = parse_tunables_json(q.getColumn(first + 6).getString());
  c.clock_mhz = q.getColumn(first + 7).getInt();
  c.params = parse_params_json(q.getColumn(first + 8).getString());
  return c;
}

ConfigUpserter::ConfigUpserter(Connection& c)
    : c_(c),
      ins_(c,
           "INSERT INTO configs(board, config_key, label, workload, variant, "
           "precision, tunables_json, clock_mhz, params_json) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
           "ON CONFLICT(board, config_key) DO NOTHING"),
      sel_(c, "SELECT id FROM configs WHERE board = ? AND config_key = ?") {}

std::int64_t ConfigUpserter::id(const ConfigRow& config) {
  return id(config, tunables_json(config.tunables), params_json(config.params));
}

std::int64_t ConfigUpserter::id(const ConfigRow& config, const std::string& tunables_json,
                                const std::string& params_json) {
  // The texts outlive the statement's use of them: it is reset before returning.
  ins_.bind_no_copy(1, config.board);
  ins_.bind_no_copy(2, config.key);
  ins_.bind_no_copy(3, config.label);
  ins_.bind_no_copy(4, config.workload);
  ins_.bind_no_copy(5, config.variant);
  ins_.bind_no_copy(6, config.precision);
  ins_.bind_no_copy(7, tunables_json);
  ins_.bind(8, config.clock_mhz);
  ins_.bind_no_copy(9, params_json);
  const int inserted = ins_.exec();
  ins_.reset();
  if (inserted == 1) return c_.last_insert_id("configs");  // a new config: no lookup
  sel_.bind(1, config.board);
  sel_.bind(2, config.key);
  sel_.executeStep();
  const std::int64_t id = sel_.getColumn(0).getInt64();
  sel_.reset();
  return id;
}

std::int64_t upsert_config(Connection& c, const ConfigRow& config) {
  return ConfigUpserter(c).id(config);
}

void rekey_configs(Connection& c) {
  std::vector<std::pair<std::int64_t, std::string>> keys;
  Statement q(c, std::string("SELECT c.id, ") + kConfigColumns + " FROM configs c");
  while (q.executeStep())
    keys.emplace_back(q.getColumn(0).getInt64(), config_key(read_config(q, 1)));
  Statement u(c, "UPDATE configs SET config_key = ? WHERE id = ?");
  for (const auto& [id, key] : keys) {
    u.bind(1, key);
    u.bind(2, id);
    u.exec();
    u.reset();
  }
}

}  // namespace flowtune::db
