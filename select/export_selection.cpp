// Constrained selection of the deployed config and the export of its header.
#include "select/export_selection.hpp"

#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "select/text_file.hpp"
#include "select/tuned_header.hpp"

namespace flowtune {

namespace {

std::vector<db::MeasuredConfig> of_workload(std::vector<db::MeasuredConfig> measured,
                                            const std::string& workload) {
  if (workload.empty()) return measured;
  std::vector<db::MeasuredConfig> out;
  for (db::MeasuredConfig& mc : measured)
    if (mc.config.workload == workload) out.push_back(std::move(mc));
  return out;
}

std::set<std::string> workloads_of(const std::vector<db::MeasuredConfig>& measured) {
  std::set<std::string> out;
  for (const db::MeasuredConfig& mc : measured) out.insert(mc.config.workload);
  return out;
}

std::string joined(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

ExportSelection select_for_export(const db::Repository& repo, const std::string& board,
                                  const std::string& objective, const std::string& dataset,
                                  const std::vector<Constraint>& constraints,
                                  const std::string& workload_name) {
  std::string chosen = dataset;
  if (chosen.empty()) {
    const std::vector<std::string> datasets = repo.datasets(board);
    if (datasets.empty()) {
      std::string known;
      for (const std::string& b : repo.boards()) known += (known.empty() ? "" : ", ") + b;
      throw std::runtime_error(
          repo.path() + ": board '" + board + "' has no measurements (boards with measurements: " +
          (known.empty() ? "none" : known) + "); run tune --board " + board + " first");
    }
    chosen = datasets.front();
    // The dataset with the most measurements of the workload asked for.
    for (const std::string& d : datasets) {
      if (!of_workload(repo.measured(board, d), workload_name).empty()) {
        chosen = d;
        break;
      }
    }
  }
  const std::vector<db::MeasuredConfig> all = repo.measured(board, chosen);
  const std::vector<db::MeasuredConfig> measured = of_workload(all, workload_name);
  if (measured.empty()) {
    throw std::runtime_error(
        repo.path() + ": board '" + board + "' has no measurements" +
        (workload_name.empty() ? "" : " of workload '" + workload_name + "'") + " on dataset '" +
        chosen + "'" +
        (all.empty() ? "" : " (workloads measured there: " + joined(workloads_of(all)) + ")"));
  }
  if (const std::set<std::string> names = workloads_of(measured); names.size() > 1) {
    throw std::runtime_error(repo.path() + ": board '" + board + "', dataset '" + chosen +
                             "' has measurements of several workloads (" + joined(names) +
                             "); choose one with --workload");
  }
  const db::WorkloadRow workload = repo.workload(measured.front().config.workload);
  const Objective o = resolve_objective(workload, objective);
  const std::vector<db::MeasuredConfig> candidates = satisfying(measured, constraints, workload);
  if (candidates.empty()) {
    std::ostringstream msg;
    msg << repo.path() << ": no config of board '" << board << "' on dataset '" << chosen << "' ("
        << measured.size() << " measured) satisfies";
    for (const Constraint& c : constraints) {
      const Objective f = resolve_objective(workload, c.name);
      double best_value = std::nan("");
      for (const db::MeasuredConfig& mc : measured) {
        const double v = mc.value(f.name);
        if (std::isfinite(v) && !(v >= best_value)) best_value = v;
      }
      msg << ' ' << f.name << " <= " << c.max << " (smallest measured: " << best_value << ")";
    }
    throw std::runtime_error(msg.str());
  }
  db::MeasuredConfig best;
  try {
    best = select_config(candidates, o, objectives_of(workload, measured));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(repo.path() + ": board '" + board + "', dataset '" + chosen +
                             "': " + e.what());
  }
  return {best, o};
}

std::string dataset_at_resolution(const db::Repository& repo, const std::string& board,
                                  const std::string& size) {
  std::set<std::string> sizes;
  for (const std::string& d : repo.datasets(board)) {  // most measurements first
    const std::size_t at = d.rfind('@');
    if (at == std::string::npos) continue;
    const std::size_t end = d.find('+', at);
    const std::string s =
        d.substr(at + 1, end == std::string::npos ? std::string::npos : end - at - 1);
    if (s == size) return d;
    sizes.insert(s);
  }
  throw std::runtime_error(repo.path() + ": board '" + board + "' has no measurements at " + size +
                           " (tune --resolution " + size + " measures them; sizes " +
                           "measured: " + (sizes.empty() ? "none" : joined(sizes)) + ")");
}

void export_tuned_header(const db::Repository& repo, const std::string& board,
                         const std::string& objective, const std::string& out_path,
                         const std::string& dataset, const std::vector<Constraint>& constraints,
                         const std::string& workload) {
  const ExportSelection sel =
      select_for_export(repo, board, objective, dataset, constraints, workload);
  write_text_file(out_path, tuned_header_text(sel.config, board, sel.objective));
}

}  // namespace flowtune
