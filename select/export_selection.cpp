// Constrained selection of the deployed config and the export of its header.
#include "select/export_selection.hpp"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "select/text_file.hpp"
#include "select/tuned_header.hpp"

namespace flowtune {

ExportSelection select_for_export(const db::Repository& repo, const std::string& board,
                                  const std::string& objective, const std::string& dataset,
                                  const std::vector<Constraint>& constraints) {
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
  }
  const std::vector<db::MeasuredConfig> measured = repo.measured(board, chosen);
  if (measured.empty()) {
    throw std::runtime_error(repo.path() + ": board '" + board +
                             "' has no measurements on dataset '" + chosen + "'");
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
    best = select_config(candidates, o, objectives_of(workload));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(repo.path() + ": board '" + board + "', dataset '" + chosen +
                             "': " + e.what());
  }
  return {best, o};
}

void export_tuned_header(const db::Repository& repo, const std::string& board,
                         const std::string& objective, const std::string& out_path,
                         const std::string& dataset, const std::vector<Constraint>& constraints) {
  const ExportSelection sel = select_for_export(repo, board, objective, dataset, constraints);
  write_text_file(out_path, tuned_header_text(sel.config, board, sel.objective));
}

}  // namespace flowtune
