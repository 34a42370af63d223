// Recording and reading a workload's work unit, front objectives and metric specs.
#include "db/workload_store.hpp"

#include <sstream>
#include <utility>

#include "db/store.hpp"

namespace flowtune::db {

void WorkloadStore::record_workload(const WorkloadRow& w) {
  std::string objectives;
  for (const std::string& o : w.front_objectives) objectives += (objectives.empty() ? "" : " ") + o;
  return store_->retrying("cannot record workload '" + w.name + "'", [&] {
    Connection& c = store_->connection();
    Transaction tx(c);
    Statement q(c,
                "INSERT INTO workloads(name, work_unit, front_objectives) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET work_unit = excluded.work_unit, "
                "front_objectives = excluded.front_objectives");
    q.bind(1, w.name);
    q.bind(2, w.work_unit);
    q.bind(3, objectives);
    q.exec();
    Statement m(c,
                "INSERT INTO metric_specs(workload, name, unit, minimize, description) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT(workload, name) DO UPDATE SET "
                "unit = excluded.unit, minimize = excluded.minimize, "
                "description = excluded.description");
    for (const MetricSpecRow& spec : w.metrics) {
      m.bind(1, w.name);
      m.bind(2, spec.name);
      m.bind(3, spec.unit);
      m.bind(4, spec.minimize ? 1 : 0);
      m.bind(5, spec.doc);
      m.exec();
      m.reset();
    }
    tx.commit();
  });
}

WorkloadRow WorkloadStore::workload(const std::string& name) const {
  WorkloadRow w;
  store_->retrying("cannot read workload '" + name + "'", [&] {
    w = WorkloadRow{};
    Connection& c = store_->connection();
    Statement q(c, "SELECT work_unit, front_objectives FROM workloads WHERE name = ?");
    q.bind(1, name);
    if (!q.executeStep()) store_->fail("workload '" + name + "' is not recorded in this database");
    w.name = name;
    w.work_unit = q.getColumn(0).getString();
    std::istringstream objectives(q.getColumn(1).getString());
    for (std::string o; objectives >> o;) w.front_objectives.push_back(o);
    Statement m(c,
                "SELECT name, unit, minimize, description FROM metric_specs "
                "WHERE workload = ? ORDER BY " +
                    c.insertion_order("metric_specs"));
    m.bind(1, name);
    while (m.executeStep()) {
      MetricSpecRow spec;
      spec.name = m.getColumn(0).getString();
      spec.unit = m.getColumn(1).getString();
      spec.minimize = m.getColumn(2).getInt() != 0;
      spec.doc = m.getColumn(3).getString();
      w.metrics.push_back(std::move(spec));
    }
  });
  return w;
}

}  // namespace flowtune::db
