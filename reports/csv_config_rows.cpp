// pruned.csv and failures.csv: configs with their run and what happened to them.
#include "reports/csv_files.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

// Header run_id, config columns, parameters, extra_header; one row per element of rows.
template <typename Row, typename Extra>
std::string config_rows_csv(const std::vector<Row>& rows,
                            const std::vector<std::string>& extra_header, Extra extra) {
  std::vector<const db::ConfigRow*> configs;
  for (const Row& r : rows) configs.push_back(&r.config);
  const std::vector<std::string> params = detail::param_names(configs);
  std::vector<std::string> header = {"run_id"};
  detail::append(header, detail::kConfigHeader);
  detail::append(header, params);
  detail::append(header, extra_header);
  std::string out = detail::csv_row(header);
  for (const Row& r : rows) {
    std::vector<std::string> row = {std::to_string(r.run_id)};
    detail::append(row, detail::config_fields(r.config, params));
    detail::append(row, extra(r));
    out += detail::csv_row(row);
  }
  return out;
}

}  // namespace

std::string pruned_csv(const ReportModel& model) {
  return config_rows_csv(model.reported().pruned, {"reason"},
                         [](const db::PrunedRow& p) { return std::vector<std::string>{p.reason}; });
}

std::string failures_csv(const ReportModel& model) {
  return config_rows_csv(
      model.reported().failures, {"dataset", "failure_class", "message", "failed_at"},
      [](const db::FailureRow& f) {
        return std::vector<std::string>{f.dataset, f.failure_class, f.message, f.failed_at};
      });
}

}  // namespace flowtune::reports
