// runs.csv: the runs of the reported board with their counts of configs.
#include <map>

#include "reports/csv_files.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

std::string runs_csv(const ReportModel& model) {
  const BoardModel& b = model.reported();
  std::map<std::int64_t, int> n_measured, n_pruned, n_failed;
  for (const auto& mc : b.measured) ++n_measured[mc.measurement.run_id];
  for (const auto& p : b.pruned) ++n_pruned[p.run_id];
  for (const auto& f : b.failures) ++n_failed[f.run_id];
  std::string out =
      detail::csv_row({"run_id", "board", "workload", "status", "started_at", "ended_at", "command",
                       "git_revision", "host", "gpu_name", "driver_version", "cuda_version",
                       "clocks_observed", "dataset", "n_measured", "n_pruned", "n_failed"});
  for (const db::RunRow& r : b.runs) {
    out +=
        detail::csv_row({std::to_string(r.id), r.info.board, r.info.workload, r.status,
                         r.started_at, r.ended_at, r.info.command, r.info.git_revision, r.info.host,
                         r.info.gpu_name, r.info.driver_version, r.info.cuda_version,
                         r.info.clocks_observed, r.info.dataset, std::to_string(n_measured[r.id]),
                         std::to_string(n_pruned[r.id]), std::to_string(n_failed[r.id])});
  }
  return out;
}

}  // namespace flowtune::reports
