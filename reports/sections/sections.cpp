// The list of report sections, in page order.
#include "reports/sections/section.hpp"

namespace flowtune::reports {

const std::vector<Section>& report_sections() {
  static const std::vector<Section> sections = {
      summary_section(),      overview_section(),  runs_section(),   dataset_fronts_section(),
      cross_fronts_section(), predicted_section(), pruned_section(), failures_section(),
  };
  return sections;
}

}  // namespace flowtune::reports
