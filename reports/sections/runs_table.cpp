// Runs section: the runs of the reported board (report.md only).
#include <sstream>

#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

using detail::md_cell;

std::string runs_md(const ReportModel& model) {
  std::ostringstream s;
  s << "## Runs\n\n"
    << "| run | workload | status | started (UTC) | ended (UTC) | host | GPU | driver | CUDA | "
       "clocks | git | dataset | command |\n"
    << "|---:|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const db::RunRow& r : model.reported().runs) {
    s << "| " << r.id << " | " << md_cell(r.info.workload) << " | " << r.status << " | "
      << md_cell(r.started_at) << " | " << md_cell(r.ended_at) << " | " << md_cell(r.info.host)
      << " | " << md_cell(r.info.gpu_name) << " | " << md_cell(r.info.driver_version) << " | "
      << md_cell(r.info.cuda_version) << " | " << md_cell(r.info.clocks_observed) << " | "
      << md_cell(r.info.git_revision) << " | " << md_cell(r.info.dataset) << " | "
      << md_cell(r.info.command) << " |\n";
  }
  return s.str();
}

}  // namespace

Section runs_section() {
  return {"runs", &runs_md, nullptr};
}

}  // namespace flowtune::reports
