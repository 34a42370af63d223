// write_report: every file of `tune report` for one board, rendered from the report model.
#include "reports/report.hpp"

#include <filesystem>
#include <stdexcept>

#include "reports/csv_files.hpp"
#include "reports/front_svgs.hpp"
#include "reports/html_report.hpp"
#include "reports/item_images.hpp"
#include "reports/markdown_report.hpp"
#include "reports/predictions.hpp"
#include "reports/report_model.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

namespace fs = std::filesystem;

void create_report_dir(const std::string& out_dir) {
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir)) {
    throw std::runtime_error(out_dir + ": cannot create the report directory (" +
                             (ec ? ec.message() : std::string("exists and is not a directory")) +
                             ")");
  }
}

// The report's files other than index.html, in writing order.
std::vector<ReportFile> report_files(const ReportModel& model) {
  std::vector<ReportFile> files = {
      {"runs.csv", runs_csv(model)},     {"measurements.csv", measurements_csv(model)},
      {"pruned.csv", pruned_csv(model)}, {"failures.csv", failures_csv(model)},
      {"pareto.csv", pareto_csv(model)}, {"report.md", markdown_report(model)}};
  for (ReportFile& f : front_svgs(model)) files.push_back(std::move(f));
  for (ReportFile& f : item_image_files(model)) files.push_back(std::move(f));
  return files;
}

}  // namespace

void write_report(const db::Repository& repo, const std::string& board, const std::string& out_dir,
                  const std::vector<std::string>& prediction_files) {
  ReportModel model = load_report_model(repo, board);
  for (const std::string& path : prediction_files) {
    const Predictions p = load_predictions(path);
    if (p.board != board)
      throw std::runtime_error(path + ": predicts board '" + p.board + "', the report is of '" +
                               board + "'");
    model.boards.front().predicted.push_back(compare_predictions(p, model.reported().measured));
  }
  const BoardModel& b = model.reported();
  if (b.runs.empty() && b.measured.empty() && b.pruned.empty()) {
    throw std::runtime_error(model.db_path + ": board '" + board +
                             "' has no runs, measurements or pruned configs; nothing to report");
  }
  create_report_dir(out_dir);
  for (const ReportFile& f : report_files(model))
    detail::write_text_file((fs::path(out_dir) / f.name).string(), f.text);
  write_html_report(model, out_dir);
}

}  // namespace flowtune::reports
