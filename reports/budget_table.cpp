// Best accuracy within time budgets, per precision (see budget_table.hpp).
#include "reports/budget_table.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <sstream>

#include "reports/text_format.hpp"

namespace flowtune::reports {

using detail::fixed;
using detail::md_cell;
using detail::shortest_double;

std::vector<double> budgets_for(double t_min, double t_max) {
  std::vector<double> out;
  if (!(t_min > 0) || t_min > t_max) return out;
  for (int k = -2; k <= 5 && out.size() < 8; ++k)
    for (double m : {1.0, 2.0, 5.0}) {
      const double b = k < 0 ? m / std::pow(10.0, -k) : m * std::pow(10.0, k);
      if (b >= t_min && b <= 2 * t_max && out.size() < 8) out.push_back(b);
    }
  return out;
}

std::vector<BudgetCell> best_within_budgets(const std::vector<db::MeasuredConfig>& measured,
                                            const db::WorkloadRow& w,
                                            const std::vector<double>& budgets_ms) {
  std::set<std::string> precisions;
  std::map<std::string, std::set<double>> values;
  for (const auto& mc : measured) {
    precisions.insert(mc.config.precision);
    for (const auto& [name, v] : mc.config.params) values[name].insert(v);
  }
  auto varying_params = [&values](const db::ConfigRow& c) {
    std::string out;
    for (const auto& [name, v] : c.params)
      if (values[name].size() > 1)
        out += (out.empty() ? "" : " ") + name + "=" + shortest_double(v);
    return out;
  };
  std::vector<BudgetCell> out;
  for (double budget : budgets_ms)
    for (const std::string& precision : precisions)
      for (const auto& spec : w.metrics) {
        if (!spec.minimize) continue;
        BudgetCell c;
        c.budget_ms = budget;
        c.precision = precision;
        c.metric = spec.name;
        for (const auto& mc : measured) {
          if (mc.config.precision != precision || mc.measurement.time_ms_median > budget) continue;
          const double v = mc.measurement.metric(spec.name);
          if (std::isnan(v) || (c.found && v >= c.value)) continue;
          c.found = true;
          c.value = v;
          c.label = mc.config.label;
          c.params = varying_params(mc.config);
          c.time_ms = mc.measurement.time_ms_median;
        }
        out.push_back(c);
      }
  return out;
}

std::string budget_table_md(const std::vector<BudgetCell>& cells) {
  std::vector<std::string> metrics;
  for (const auto& c : cells)
    if (std::find(metrics.begin(), metrics.end(), c.metric) == metrics.end())
      metrics.push_back(c.metric);
  std::ostringstream s;
  s << "| budget ms | precision";
  for (const auto& m : metrics) s << " | best " << md_cell(m) << " (config, ms)";
  s << " |\n|---:|---";
  for (std::size_t k = 0; k < metrics.size(); ++k) s << "|---";
  s << "|\n";
  for (std::size_t i = 0; i < cells.size();) {
    const BudgetCell& head = cells[i];
    s << "| " << shortest_double(head.budget_ms) << " | " << md_cell(head.precision);
    for (; i < cells.size() && cells[i].budget_ms == head.budget_ms &&
           cells[i].precision == head.precision;
         ++i) {
      const BudgetCell& c = cells[i];
      if (c.found)
        s << " | " << fixed(c.value, 4) << " (" << md_cell(c.label)
          << (c.params.empty() ? "" : " " + md_cell(c.params)) << ", " << fixed(c.time_ms, 3)
          << ")";
      else
        s << " | -";
    }
    s << " |\n";
  }
  return s.str();
}

}  // namespace flowtune::reports
