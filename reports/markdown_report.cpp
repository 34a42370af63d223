// report.md: the Markdown sections, concatenated in list order.
#include "reports/markdown_report.hpp"

#include "reports/sections/section.hpp"

namespace flowtune::reports {

std::string markdown_report(const ReportModel& model) {
  std::string out;
  for (const Section& section : report_sections())
    if (section.markdown) out += section.markdown(model);
  return out;
}

}  // namespace flowtune::reports
