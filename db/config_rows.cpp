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

std::int64_t upsert_config(Connection& c, const ConfigRow& config) {
  Statement ins(c,
                "INSERT INTO configs(board, config_key, label, workload, variant, "
                "precision, tunables_json, clock_mhz, params_json) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT(board, config_key) DO NOTHING");
  ins.bind(1, config.board);
  ins.bind(2, config.key);
  ins.bind(3, config.label);
  ins.bind(4, config.workload);
  ins.bind(5, config.variant);
  ins.bind(6, config.precision);
  ins.bind(7, tunables_json(config.tunables));
  ins.bind(8, config.clock_mhz);
  ins.bind(9, params_json(config.params));
  ins.exec();
  Statement sel(c, "SELECT id FROM configs WHERE board = ? AND config_key = ?");
  sel.bind(1, config.board);
  sel.bind(2, config.key);
  sel.executeStep();
  return sel.getColumn(0).getInt64();
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
