// The config columns shared by the CSV files.
#include <set>

#include "reports/csv_files.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports::detail {

const std::vector<std::string> kConfigHeader = {"config_key", "label",      "workload",
                                                "variant",    "precision",  "tunables_json",
                                                "clock_mhz",  "params_json"};

std::vector<std::string> param_names(const std::vector<const db::ConfigRow*>& configs) {
  std::set<std::string> names;
  for (const db::ConfigRow* c : configs)
    for (const auto& kv : c->params) names.insert(kv.first);
  return {names.begin(), names.end()};
}

std::vector<std::string> config_fields(const db::ConfigRow& c,
                                       const std::vector<std::string>& params) {
  std::vector<std::string> out = {c.key,
                                  c.label,
                                  c.workload,
                                  c.variant,
                                  c.precision,
                                  db::tunables_json(c.tunables),
                                  std::to_string(c.clock_mhz),
                                  db::params_json(c.params)};
  for (const std::string& p : params) {
    const auto it = c.params.find(p);
    out.push_back(it == c.params.end() ? "" : shortest_double(it->second));
  }
  return out;
}

void append(std::vector<std::string>& a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
}

std::string optional_double(const std::optional<double>& v) {
  return v ? shortest_double(*v) : "";
}

}  // namespace flowtune::reports::detail
