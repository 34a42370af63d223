// load_report_model: every DB read of `tune report`, then the derived fronts.
#include "reports/report_model.hpp"

#include <algorithm>
#include <utility>

namespace flowtune::reports {

namespace {

BoardModel load_board(const db::Repository& repo, const std::string& name) {
  BoardModel b;
  b.name = name;
  b.runs = repo.runs(name);
  b.measured = repo.measured(name);
  std::map<std::int64_t, std::vector<db::ItemImage>> images = repo.item_images(name);
  for (db::MeasuredConfig& mc : b.measured) {
    const auto it = images.find(mc.measurement_id);
    if (it == images.end()) continue;
    mc.measurement.images = std::move(it->second);
    // Shown as flow, ground truth, endpoint error (then any other kind), whatever the DB order.
    const auto rank = [](const db::ItemImage& im) {
      return im.kind == "flow"             ? 0
             : im.kind == "ground_truth"   ? 1
             : im.kind == "endpoint_error" ? 2
                                           : 3;
    };
    std::stable_sort(
        mc.measurement.images.begin(), mc.measurement.images.end(),
        [&](const db::ItemImage& x, const db::ItemImage& y) { return rank(x) < rank(y); });
  }
  b.pruned = repo.pruned(name);
  b.failures = repo.failures(name);
  b.datasets = repo.datasets(name);
  return b;
}

std::vector<db::MeasuredConfig> of_dataset(const std::vector<db::MeasuredConfig>& measured,
                                           const std::string& dataset) {
  std::vector<db::MeasuredConfig> out;
  for (const auto& mc : measured)
    if (mc.measurement.dataset == dataset) out.push_back(mc);
  return out;
}

// Per dataset: all its configs over the objectives of the workload measured first.
void add_views(BoardModel& b, const std::map<std::string, db::WorkloadRow>& workloads) {
  for (const std::string& dataset : b.datasets) {
    std::vector<db::MeasuredConfig> measured = of_dataset(b.measured, dataset);
    if (measured.empty()) continue;
    const db::WorkloadRow& w = workloads.at(measured.front().config.workload);
    DatasetView v{make_dataset_front(dataset, w, std::move(measured)), {}};
    v.plots = plots_of(v.data);
    b.views.push_back(std::move(v));
  }
}

// Per dataset and per workload of the dataset (in order of first measurement).
std::vector<DatasetFront> workload_fronts(const BoardModel& b,
                                          const std::map<std::string, db::WorkloadRow>& workloads) {
  std::vector<DatasetFront> out;
  for (const std::string& dataset : b.datasets) {
    const std::vector<db::MeasuredConfig> measured = of_dataset(b.measured, dataset);
    std::vector<std::string> names;
    for (const auto& mc : measured)
      if (std::find(names.begin(), names.end(), mc.config.workload) == names.end())
        names.push_back(mc.config.workload);
    for (const std::string& name : names) {
      std::vector<db::MeasuredConfig> of_workload;
      for (const auto& mc : measured)
        if (mc.config.workload == name) of_workload.push_back(mc);
      out.push_back(make_dataset_front(dataset, workloads.at(name), std::move(of_workload)));
    }
  }
  return out;
}

}  // namespace

ReportModel load_report_model(const db::Repository& repo, const std::string& board) {
  ReportModel m;
  m.db_path = repo.path();
  m.board = board;
  m.boards.push_back(load_board(repo, board));
  for (const std::string& b : repo.boards())
    if (b != board) m.boards.push_back(load_board(repo, b));
  for (const BoardModel& b : m.boards)
    for (const auto& mc : b.measured)
      if (!m.workloads.count(mc.config.workload))
        m.workloads.emplace(mc.config.workload, workload_or_default(repo, mc.config.workload));
  const BoardModel& reported = m.boards.front();
  m.fronts = workload_fronts(reported, m.workloads);
  m.cross = cross_algorithm_fronts(m.workloads, reported.measured, reported.datasets);
  for (BoardModel& b : m.boards) {
    add_views(b, m.workloads);
    b.answer = run_answer(b.runs, b.views);
  }
  return m;
}

}  // namespace flowtune::reports
