// The accuracy table (tuner/accuracy_table.hpp).
#include "tuner/accuracy_table.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace flowtune {

std::string AccuracyTable::key_of(const db::ConfigRow& config) {
  return config.workload + " " + config.precision + " " + db::params_json(config.params);
}

void AccuracyTable::add(const db::MeasuredConfig& mc) {
  AccuracyEntry& e = entries_[key_of(mc.config)];
  ++e.rows;
  e.boards.insert(mc.config.board);
  for (const auto& [name, value] : mc.measurement.metrics) {
    if (!std::isfinite(value)) continue;
    auto lo = e.lo.find(name);
    if (lo == e.lo.end()) {
      e.lo[name] = e.hi[name] = value;
    } else {
      lo->second = std::min(lo->second, value);
      e.hi[name] = std::max(e.hi[name], value);
    }
  }
}

const AccuracyEntry* AccuracyTable::find(const db::ConfigRow& config) const {
  const auto it = entries_.find(key_of(config));
  return it == entries_.end() ? nullptr : &it->second;
}

std::set<std::string> AccuracyTable::boards() const {
  std::set<std::string> out;
  for (const auto& [key, e] : entries_) out.insert(e.boards.begin(), e.boards.end());
  return out;
}

bool AccuracyTable::known_infeasible(const db::ConfigRow& config,
                                     const std::vector<std::pair<Objective, double>>& constraints,
                                     double tolerance, std::vector<double>* slack) const {
  const AccuracyEntry* e = find(config);
  if (slack) slack->clear();
  bool infeasible = false;
  for (const auto& [figure, max] : constraints) {
    double s = std::numeric_limits<double>::quiet_NaN();
    if (e) {
      const auto it = e->lo.find(figure.name);
      if (it != e->lo.end()) s = (it->second - max) / std::max(std::fabs(max), 1e-12);
    }
    if (s > tolerance) infeasible = true;
    if (slack) slack->push_back(s);
  }
  return infeasible;
}

AccuracyTable load_accuracy_table(const db::Repository& repo, const std::string& label,
                                  const std::string& workload, const std::string& dataset) {
  AccuracyTable table;
  std::set<std::string> datasets;
  for (const std::string& board : repo.boards())
    for (const db::MeasuredConfig& mc : repo.measured(board)) {
      if (mc.config.workload != workload) continue;
      datasets.insert(mc.measurement.dataset);
      if (mc.measurement.dataset == dataset) table.add(mc);
    }
  if (table.size() == 0) {
    std::string held;
    for (const std::string& d : datasets) held += (held.empty() ? "" : ", ") + d;
    throw std::runtime_error(label + ": no measurement of workload " + workload + " on dataset " +
                             dataset + " to take accuracy from (it holds " +
                             (held.empty() ? std::string("none of that workload") : held) + ")");
  }
  return table;
}

AccuracyAgreement accuracy_agreement(const AccuracyTable& table,
                                     const std::vector<db::MeasuredConfig>& measured) {
  AccuracyAgreement a;
  for (const db::MeasuredConfig& mc : measured) {
    ++a.rows;
    const AccuracyEntry* e = table.find(mc.config);
    if (!e) continue;
    ++a.rows_with_key;
    for (const auto& [name, value] : mc.measurement.metrics) {
      const auto lo = e->lo.find(name);
      if (lo == e->lo.end() || !std::isfinite(value)) continue;
      const double nearest = std::clamp(value, lo->second, e->hi.at(name));
      const double d = std::fabs(value - nearest) / std::max(std::fabs(value), 1e-12);
      double& worst = a.max_relative_difference[name];
      worst = std::max(worst, d);
    }
  }
  return a;
}

}  // namespace flowtune
