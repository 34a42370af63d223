// The DB half of flowtune._flowtune: every table a user analyses (runs, measurements and
// their per-item results, Pareto fronts, failures, pruned configs) read through db::Repository
// opened read-only, returned as columns (name -> list) that python/flowtune/database.py turns
// into pandas DataFrames. Column meanings and units: db/SCHEMA.md.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "bindings.hpp"
#include "db/repository.hpp"
#include "select/objectives.hpp"

namespace py = pybind11;

namespace flowtune::python {
namespace {

/// Columns built row by row; a column first seen at row n is padded with None before it, a
/// column a row does not set gets None. Columns keep the order of first appearance.
class Table {
 public:
  void set(const std::string& name, py::object value) {
    auto it = columns_.find(name);
    if (it == columns_.end()) {
      order_.push_back(name);
      it = columns_.emplace(name, py::list()).first;
      for (std::size_t i = 0; i < rows_; ++i) it->second.append(py::none());
    }
    if (py::len(it->second) == rows_ + 1)
      throw std::logic_error("column '" + name + "' set twice in one row");
    it->second.append(std::move(value));
  }
  template <typename T>
  void set(const std::string& name, const T& value) {
    set(name, py::object(py::cast(value)));
  }
  void end_row() {
    ++rows_;
    for (auto& [name, column] : columns_)
      if (py::len(column) < rows_) column.append(py::none());
  }
  /// {"columns": [names in order], "data": {name: list}}
  py::dict result() const {
    py::dict data;
    for (const auto& [name, column] : columns_) data[py::str(name)] = column;
    py::dict out;
    out["columns"] = order_;
    out["data"] = data;
    return out;
  }

 private:
  std::vector<std::string> order_;
  std::map<std::string, py::list> columns_;
  std::size_t rows_ = 0;
};

py::object optional_double(double v) {
  return std::isnan(v) ? py::object(py::none()) : py::object(py::float_(v));
}

/// The config's columns: board, workload, variant, precision, label, key, clock_mhz, the
/// tunables and parameters as JSON and as one column each (tunable_<name>, param_<name>).
void set_config(Table& t, const db::ConfigRow& c) {
  t.set("board", c.board);
  t.set("workload", c.workload);
  t.set("variant", c.variant);
  t.set("precision", c.precision);
  t.set("label", c.label);
  t.set("clock_mhz", c.clock_mhz);
  t.set("config_json", db::config_json(c));
  for (const auto& [name, value] : c.tunables) t.set("tunable_" + name, value);
  for (const auto& [name, value] : c.params) t.set("param_" + name, value);
  t.set("key", c.key);
}

void set_measurement(Table& t, const db::MeasuredConfig& mc) {
  const db::MeasurementRow& m = mc.measurement;
  t.set("measurement_id", mc.measurement_id);
  t.set("run_id", m.run_id);
  t.set("dataset", m.dataset);
  set_config(t, mc.config);
  t.set("time_ms", m.time_ms_median);
  t.set("time_ms_min", m.time_ms_min);
  t.set("time_ms_max", m.time_ms_max);
  t.set("n_repeats", m.n_repeats);
  t.set("ns_per_unit", m.ns_per_unit);
  t.set("energy_mj", m.energy_mj);
  t.set("nj_per_unit", m.nj_per_unit);
  t.set("power_w", m.power_w);
  t.set("clock_mhz_observed", m.clock_mhz_observed);
  for (const auto& [name, value] : m.metrics) t.set(name, optional_double(value));
  t.set("measured_at", mc.measured_at);
}

/// Every board the DB knows: those with runs and those with measurements, sorted.
std::vector<std::string> boards_of(const db::Repository& repo,
                                   const std::vector<db::RunRow>& runs) {
  std::set<std::string> boards;
  for (const db::RunRow& r : runs) boards.insert(r.info.board);
  for (const std::string& b : repo.boards()) boards.insert(b);
  return {boards.begin(), boards.end()};
}

/// The Pareto fronts of a board as `tune report` computes them: per dataset (most
/// measurements first) and per workload of the dataset (in order of first measurement), the
/// front over the workload's objectives (select/objectives.hpp), sorted by the first.
void add_fronts(Table& t, const db::Repository& repo, const std::string& board,
                const std::vector<db::MeasuredConfig>& measured) {
  std::map<std::string, db::WorkloadRow> workloads;
  for (const std::string& dataset : repo.datasets(board)) {
    std::vector<std::string> names;
    for (const auto& mc : measured)
      if (mc.measurement.dataset == dataset &&
          std::find(names.begin(), names.end(), mc.config.workload) == names.end())
        names.push_back(mc.config.workload);
    for (const std::string& name : names) {
      if (!workloads.count(name)) workloads.emplace(name, workload_or_default(repo, name));
      const std::vector<Objective> objectives = objectives_of(workloads.at(name));
      std::vector<db::MeasuredConfig> of;
      for (const auto& mc : measured)
        if (mc.measurement.dataset == dataset && mc.config.workload == name) of.push_back(mc);
      std::string objective_names;
      for (const Objective& o : objectives)
        objective_names += (objective_names.empty() ? "" : ",") + o.name;
      int rank = 0;
      for (const db::MeasuredConfig& mc : pareto_configs(of, objectives)) {
        t.set("board", board);
        t.set("dataset", dataset);
        t.set("workload", name);
        t.set("objectives", objective_names);
        t.set("rank", rank++);
        t.set("measurement_id", mc.measurement_id);
        t.end_row();
      }
    }
  }
}

py::dict read_db(const std::string& path) {
  const db::Repository repo(path, db::OpenMode::read_only);
  Table runs, measurements, items, fronts, failures, pruned;
  const std::vector<db::RunRow> run_rows = repo.runs();
  for (const db::RunRow& r : run_rows) {
    runs.set("run_id", r.id);
    runs.set("board", r.info.board);
    runs.set("workload", r.info.workload);
    runs.set("dataset", r.info.dataset);
    runs.set("status", r.status);
    runs.set("started_at", r.started_at);
    runs.set("ended_at", r.ended_at);
    runs.set("command", r.info.command);
    runs.set("git_revision", r.info.git_revision);
    runs.set("host", r.info.host);
    runs.set("gpu_name", r.info.gpu_name);
    runs.set("driver_version", r.info.driver_version);
    runs.set("cuda_version", r.info.cuda_version);
    runs.set("clocks_observed", r.info.clocks_observed);
    runs.set("pid", r.pid);
    runs.end_row();
  }
  for (const std::string& board : boards_of(repo, run_rows)) {
    const std::vector<db::MeasuredConfig> measured = repo.measured(board);
    for (const db::MeasuredConfig& mc : measured) {
      set_measurement(measurements, mc);
      measurements.end_row();
      for (const db::ItemResult& r : mc.measurement.items) {
        items.set("measurement_id", mc.measurement_id);
        items.set("item", r.item);
        items.set("time_ms", r.time_ms);
        for (const auto& [name, value] : r.metrics) items.set(name, optional_double(value));
        items.end_row();
      }
    }
    add_fronts(fronts, repo, board, measured);
    for (const db::FailureRow& f : repo.failures(board)) {
      failures.set("run_id", f.run_id);
      failures.set("dataset", f.dataset);
      set_config(failures, f.config);
      failures.set("failure_class", f.failure_class);
      failures.set("message", f.message);
      failures.set("failed_at", f.failed_at);
      failures.end_row();
    }
    for (const db::PrunedRow& p : repo.pruned(board)) {
      pruned.set("run_id", p.run_id);
      set_config(pruned, p.config);
      pruned.set("reason", p.reason);
      pruned.end_row();
    }
  }
  py::dict out;
  out["path"] = repo.path();
  out["schema_version"] = repo.schema_version();
  out["runs"] = runs.result();
  out["measurements"] = measurements.result();
  out["items"] = items.result();
  out["fronts"] = fronts.result();
  out["failures"] = failures.result();
  out["pruned"] = pruned.result();
  return out;
}

}  // namespace

void bind_db(py::module_& m) {
  m.def("_read_db", &read_db, py::arg("path"),
        "Every table of a flowtune DB (opened read-only) as columns.");
}

}  // namespace flowtune::python
