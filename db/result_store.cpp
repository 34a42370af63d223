// Recording measurements (with their metrics and items) and reading them back.
#include "db/result_store.hpp"

#include <cmath>
#include <map>
#include <stdexcept>
#include <utility>

#include "db/base64.hpp"
#include "db/config_rows.hpp"
#include "db/shared_writes.hpp"
#include "db/store.hpp"

namespace flowtune::db {

namespace {

// The filter of the reads below: ?1 board, ?2 dataset ("" = all), ?3 config key ("" = all).
constexpr const char* kMeasuredWhere =
    "WHERE c.board = ?1 AND (?2 = '' OR m.dataset = ?2) AND (?3 = '' OR c.config_key = ?3)";

void bind_where(Statement& q, const std::string& board, const std::string& dataset,
                const std::string& config_key) {
  q.bind(1, board);
  q.bind(2, dataset);
  q.bind(3, config_key);
}

// The measurement in q's current row after the config columns.
MeasuredConfig read_measured(Statement& q) {
  MeasuredConfig mc;
  mc.config = read_config(q, 0);
  int i = kConfigColumnCount;
  mc.measurement_id = q.getColumn(i++).getInt64();
  mc.measured_at = q.getColumn(i++).getString();
  MeasurementRow& m = mc.measurement;
  m.run_id = q.getColumn(i++).getInt64();
  m.dataset = q.getColumn(i++).getString();
  m.time_ms_median = q.getColumn(i++).getDouble();
  m.time_ms_min = q.getColumn(i++).getDouble();
  m.time_ms_max = q.getColumn(i++).getDouble();
  m.n_repeats = q.getColumn(i++).getInt();
  m.ns_per_unit = q.getColumn(i++).getDouble();
  m.energy_mj = optional_double(q.getColumn(i++));
  m.nj_per_unit = optional_double(q.getColumn(i++));
  m.power_w = optional_double(q.getColumn(i++));
  const Column clock = q.getColumn(i++);
  if (!clock.isNull()) m.clock_mhz_observed = clock.getInt();
  m.resources_json = q.getColumn(i++).getString();
  return mc;
}

// Measurements by id -> index in out.
using IndexOf = std::map<std::int64_t, std::size_t>;

// Appends the item results of the measurements in index_of to them, in insertion order.
void read_items(Connection& c, const std::string& board, const std::string& dataset,
                const std::string& config_key, const IndexOf& index_of,
                std::vector<MeasuredConfig>& out) {
  Statement s(c, std::string("SELECT s.measurement_id, s.item, s.time_ms "
                             "FROM item_results s JOIN measurements m ON m.id = s.measurement_id "
                             "JOIN configs c ON c.id = m.config_id ") +
                     kMeasuredWhere + " ORDER BY s.measurement_id, " + c.insertion_order("s"));
  bind_where(s, board, dataset, config_key);
  while (s.executeStep()) {
    const auto it = index_of.find(s.getColumn(0).getInt64());
    if (it == index_of.end()) continue;  // written between the two reads
    ItemResult r;
    r.item = s.getColumn(1).getString();
    r.time_ms = s.getColumn(2).getDouble();
    out[it->second].measurement.items.push_back(std::move(r));
  }
}

// Sets the metrics (dataset-level and per item) of the measurements in index_of.
void read_metrics(Connection& c, const std::string& board, const std::string& dataset,
                  const std::string& config_key, const IndexOf& index_of,
                  std::vector<MeasuredConfig>& out) {
  Statement x(c, std::string("SELECT x.measurement_id, x.item, x.name, x.value "
                             "FROM metrics x JOIN measurements m ON m.id = x.measurement_id "
                             "JOIN configs c ON c.id = m.config_id ") +
                     kMeasuredWhere);
  bind_where(x, board, dataset, config_key);
  while (x.executeStep()) {
    const auto it = index_of.find(x.getColumn(0).getInt64());
    if (it == index_of.end()) continue;
    MeasurementRow& m = out[it->second].measurement;
    const std::string item = x.getColumn(1).getString();
    const double value = nan_if_null(x.getColumn(3));
    if (item.empty()) {
      m.metrics[x.getColumn(2).getString()] = value;
      continue;
    }
    for (ItemResult& r : m.items)
      if (r.item == item) r.metrics[x.getColumn(2).getString()] = value;
  }
}

void insert_metrics(Statement& q, std::int64_t measurement_id, const std::string& item,
                    const std::map<std::string, double>& metrics) {
  for (const auto& [name, value] : metrics) {
    q.bind(1, measurement_id);
    q.bind(2, item);
    q.bind(3, name);
    bind_double_or_null(q, 4, value);
    q.exec();
    q.reset();
  }
}

}  // namespace

void check_measurement(const Store& store, const ConfigRow& config, const MeasurementRow& m) {
  if (config.board.empty() || config.key.empty()) store.fail("a config needs a board and a key");
  if (config.workload.empty()) store.fail("config '" + config.key + "' has no workload");
  if (!std::isfinite(m.time_ms_median) || !std::isfinite(m.time_ms_min) ||
      !std::isfinite(m.time_ms_max) || !std::isfinite(m.ns_per_unit)) {
    store.fail("non-finite time in the measurement of '" + config.key + "'");
  }
}

MeasurementInserter::MeasurementInserter(Connection& c)
    : c_(c),
      configs_(c),
      measurement_(c,
                   "INSERT INTO measurements(config_id, run_id, dataset, time_ms_median, "
                   "time_ms_min, time_ms_max, n_repeats, ns_per_unit, energy_mj, "
                   "nj_per_unit, power_w, clock_mhz_observed, resources_json) "
                   "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      metric_(c, "INSERT INTO metrics(measurement_id, item, name, value) VALUES (?, ?, ?, ?)"),
      item_(c, "INSERT INTO item_results(measurement_id, item, time_ms) VALUES (?, ?, ?)"),
      image_(c,
             "INSERT INTO item_images(measurement_id, item, kind, width, height, scale, "
             "png_base64) VALUES (?, ?, ?, ?, ?, ?, ?)") {}

void MeasurementInserter::insert(const ConfigRow& config, const MeasurementRow& m) {
  insert(configs_.id(config), m.run_id, m);
}

void MeasurementInserter::insert(std::int64_t config_id, std::int64_t run_id,
                                 const MeasurementRow& m) {
  Statement& q = measurement_;
  q.bind(1, config_id);
  q.bind(2, run_id);
  q.bind_no_copy(3, m.dataset);  // every parameter is bound again at the next insert
  q.bind(4, m.time_ms_median);
  q.bind(5, m.time_ms_min);
  q.bind(6, m.time_ms_max);
  q.bind(7, m.n_repeats);
  q.bind(8, m.ns_per_unit);
  bind_optional(q, 9, m.energy_mj);
  bind_optional(q, 10, m.nj_per_unit);
  bind_optional(q, 11, m.power_w);
  bind_optional(q, 12, m.clock_mhz_observed);
  q.bind(13, m.resources_json);
  q.exec();
  q.reset();
  const std::int64_t measurement_id = c_.last_insert_id("measurements");
  insert_metrics(metric_, measurement_id, "", m.metrics);
  for (const ItemResult& r : m.items) {
    item_.bind(1, measurement_id);
    item_.bind(2, r.item);
    item_.bind(3, r.time_ms);
    item_.exec();
    item_.reset();
    insert_metrics(metric_, measurement_id, r.item, r.metrics);
  }
  for (const ItemImage& im : m.images) {
    image_.bind(1, measurement_id);
    image_.bind(2, im.item);
    image_.bind(3, im.kind);
    image_.bind(4, im.width);
    image_.bind(5, im.height);
    image_.bind(6, im.scale);
    image_.bind(7, base64_encode(im.png));
    image_.exec();
    image_.reset();
  }
}

void insert_measurement(Connection& c, const ConfigRow& config, const MeasurementRow& m) {
  MeasurementInserter(c).insert(config, m);
}

bool ResultStore::is_measured(const std::string& board, const std::string& config_key,
                              const std::string& dataset) const {
  return store_->retrying("cannot query measurements", [&] {
    Statement q(store_->connection(),
                "SELECT 1 FROM measurements m JOIN configs c ON c.id = m.config_id "
                "WHERE c.board = ? AND c.config_key = ? AND m.dataset = ?");
    q.bind(1, board);
    q.bind(2, config_key);
    q.bind(3, dataset);
    return q.executeStep();
  });
}

void ResultStore::record_measurement(const ConfigRow& config, const MeasurementRow& m) {
  check_measurement(*store_, config, m);
  if (is_measured(config.board, config.key, m.dataset)) {
    store_->fail("config '" + config.key + "' on board '" + config.board +
                 "' is already measured on dataset '" + m.dataset + "'");
  }
  return store_->retrying("cannot record the measurement of '" + config.key + "' (run " +
                              std::to_string(m.run_id) + ")",
                          [&] {
                            Transaction tx(store_->connection());
                            insert_measurement(store_->connection(), config, m);
                            tx.commit();
                          });
}

bool ResultStore::record_energy(const std::string& board, const std::string& config_key,
                                const std::string& dataset, double energy_mj, double nj_per_unit,
                                double power_w) {
  for (const double v : {energy_mj, nj_per_unit, power_w})
    if (!std::isfinite(v) || v < 0)
      store_->fail("energy of '" + config_key + "' on board '" + board +
                   "': figures must be finite and >= 0 (energy " + std::to_string(energy_mj) +
                   " mJ, " + std::to_string(nj_per_unit) + " nJ per unit, " +
                   std::to_string(power_w) + " W)");
  return store_->retrying("cannot record the energy of '" + config_key + "'", [&] {
    Statement q(store_->connection(),
                "UPDATE measurements SET energy_mj = ?, nj_per_unit = ?, power_w = ? "
                "WHERE dataset = ? AND config_id IN "
                "(SELECT id FROM configs WHERE board = ? AND config_key = ?)");
    q.bind(1, energy_mj);
    q.bind(2, nj_per_unit);
    q.bind(3, power_w);
    q.bind(4, dataset);
    q.bind(5, board);
    q.bind(6, config_key);
    return q.exec() > 0;
  });
}

std::vector<MeasuredConfig> ResultStore::measured(const std::string& board,
                                                  const std::string& dataset) const {
  return measured_where(board, dataset, "");
}

std::optional<MeasuredConfig> ResultStore::measurement_of(const std::string& board,
                                                          const std::string& config_key,
                                                          const std::string& dataset) const {
  std::vector<MeasuredConfig> found = measured_where(board, dataset, config_key);
  if (found.empty()) return std::nullopt;
  return std::move(found.front());
}

std::vector<MeasuredConfig> ResultStore::measured_where(const std::string& board,
                                                        const std::string& dataset,
                                                        const std::string& config_key) const {
  std::vector<MeasuredConfig> out;
  store_->retrying("cannot read measurements", [&] {
    out.clear();
    Connection& c = store_->connection();
    Statement q(c, std::string("SELECT ") + kConfigColumns +
                       ", m.id, m.measured_at, m.run_id, m.dataset, m.time_ms_median, "
                       "m.time_ms_min, m.time_ms_max, m.n_repeats, m.ns_per_unit, "
                       "m.energy_mj, m.nj_per_unit, m.power_w, m.clock_mhz_observed, "
                       "m.resources_json "
                       "FROM measurements m JOIN configs c ON c.id = m.config_id " +
                       kMeasuredWhere + " ORDER BY m.id");
    bind_where(q, board, dataset, config_key);
    IndexOf index_of;
    while (q.executeStep()) {
      out.push_back(read_measured(q));
      index_of[out.back().measurement_id] = out.size() - 1;
    }
    read_items(c, board, dataset, config_key, index_of, out);
    read_metrics(c, board, dataset, config_key, index_of, out);
  });
  return out;
}

std::map<std::int64_t, std::vector<ItemImage>> ResultStore::item_images(
    const std::string& board) const {
  std::map<std::int64_t, std::vector<ItemImage>> out;
  if (store_->version() < 4) return out;  // a read-only file from before item_images
  try {
    Statement q(store_->connection(),
                "SELECT i.measurement_id, i.item, i.kind, i.width, i.height, i.scale, "
                "i.png_base64 FROM item_images i JOIN measurements m ON m.id = i.measurement_id "
                "JOIN configs c ON c.id = m.config_id WHERE c.board = ? "
                "ORDER BY i.measurement_id, i.item, i.kind");
    q.bind(1, board);
    while (q.executeStep()) {
      ItemImage im;
      im.item = q.getColumn(1).getString();
      im.kind = q.getColumn(2).getString();
      im.width = q.getColumn(3).getInt();
      im.height = q.getColumn(4).getInt();
      im.scale = q.getColumn(5).getDouble();
      try {
        im.png = base64_decode(q.getColumn(6).getString());
      } catch (const std::invalid_argument& e) {
        store_->fail("item_images of measurement " + std::to_string(q.getColumn(0).getInt64()) +
                     ": " + e.what());
      }
      out[q.getColumn(0).getInt64()].push_back(std::move(im));
    }
  } catch (const BackendError& e) {
    store_->fail(std::string("cannot read item images (") + e.what() + ")");
  }
  return out;
}

std::vector<std::string> ResultStore::boards() const {
  std::vector<std::string> out;
  store_->retrying("cannot read boards", [&] {
    out.clear();
    Statement q(store_->connection(),
                "SELECT DISTINCT c.board FROM configs c "
                "JOIN measurements m ON m.config_id = c.id ORDER BY c.board");
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  });
  return out;
}

std::vector<std::string> ResultStore::datasets(const std::string& board) const {
  std::vector<std::string> out;
  store_->retrying("cannot read datasets", [&] {
    out.clear();
    Statement q(store_->connection(),
                "SELECT m.dataset FROM measurements m JOIN configs c "
                "ON c.id = m.config_id WHERE c.board = ? GROUP BY m.dataset "
                "ORDER BY count(*) DESC, m.dataset");
    q.bind(1, board);
    while (q.executeStep()) out.push_back(q.getColumn(0).getString());
  });
  return out;
}

}  // namespace flowtune::db
