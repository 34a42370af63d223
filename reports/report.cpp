// write_report: CSV, Markdown and SVG views of one board's tuning results (any workload:
// parameters and metrics are read from the DB by name).
#include "reports/report.hpp"

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reports/budget_table.hpp"
#include "reports/cross_front.hpp"
#include "reports/html_report.hpp"
#include "reports/svg_plot.hpp"
#include "reports/text_format.hpp"
#include "select/export_selection.hpp"
#include "select/objectives.hpp"
#include "select/pareto.hpp"
#include "select/tuned_header.hpp"

namespace flowtune::reports {

namespace {

namespace fs = std::filesystem;
using detail::csv_row;
using detail::fixed;
using detail::md_cell;
using detail::shortest_double;

std::string opt(const std::optional<double>& v) {
  return v ? shortest_double(*v) : "";
}

void append(std::vector<std::string>& a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
}

// Union of the parameter names of the rows, sorted.
template <typename Rows, typename Get>
std::vector<std::string> param_names(const Rows& rows, Get get) {
  std::set<std::string> names;
  for (const auto& r : rows)
    for (const auto& kv : get(r).params) names.insert(kv.first);
  return {names.begin(), names.end()};
}

const std::vector<std::string> kConfigHeader = {"config_key", "label",      "workload",
                                                "variant",    "precision",  "tunables_json",
                                                "clock_mhz",  "params_json"};

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

std::string runs_csv(const std::vector<db::RunRow>& runs,
                     const std::vector<db::MeasuredConfig>& measured,
                     const std::vector<db::PrunedRow>& pruned,
                     const std::vector<db::FailureRow>& failures) {
  std::map<std::int64_t, int> n_measured, n_pruned, n_failed;
  for (const auto& mc : measured) ++n_measured[mc.measurement.run_id];
  for (const auto& p : pruned) ++n_pruned[p.run_id];
  for (const auto& f : failures) ++n_failed[f.run_id];
  std::string out =
      csv_row({"run_id", "board", "workload", "status", "started_at", "ended_at", "command",
               "git_revision", "host", "gpu_name", "driver_version", "cuda_version",
               "clocks_observed", "dataset", "n_measured", "n_pruned", "n_failed"});
  for (const db::RunRow& r : runs) {
    out += csv_row({std::to_string(r.id), r.info.board, r.info.workload, r.status, r.started_at,
                    r.ended_at, r.info.command, r.info.git_revision, r.info.host, r.info.gpu_name,
                    r.info.driver_version, r.info.cuda_version, r.info.clocks_observed,
                    r.info.dataset, std::to_string(n_measured[r.id]),
                    std::to_string(n_pruned[r.id]), std::to_string(n_failed[r.id])});
  }
  return out;
}

std::string measurements_csv(const std::vector<db::MeasuredConfig>& measured,
                             const std::set<std::int64_t>& on_front) {
  const std::vector<std::string> params = param_names(
      measured, [](const db::MeasuredConfig& mc) -> const db::ConfigRow& { return mc.config; });
  std::set<std::string> metric_set;
  std::vector<std::string> items;  // union over rows, first-seen order
  std::set<std::string> seen;
  for (const auto& mc : measured) {
    for (const auto& kv : mc.measurement.metrics) metric_set.insert(kv.first);
    for (const auto& it : mc.measurement.items)
      if (seen.insert(it.item).second) items.push_back(it.item);
  }
  const std::vector<std::string> metrics(metric_set.begin(), metric_set.end());
  std::vector<std::string> header = {"measurement_id", "run_id", "measured_at", "dataset", "board"};
  append(header, kConfigHeader);
  append(header, params);
  append(header, {"time_ms_median", "time_ms_min", "time_ms_max", "n_repeats", "ns_per_unit",
                  "energy_mj", "nj_per_unit", "power_w", "clock_mhz_observed"});
  append(header, metrics);
  append(header, {"resources_json", "on_front"});
  for (const std::string& item : items) {
    header.push_back("time_ms_" + item);
    for (const std::string& m : metrics) header.push_back(m + "_" + item);
  }
  std::string out = csv_row(header);
  for (const auto& mc : measured) {
    const db::MeasurementRow& m = mc.measurement;
    std::vector<std::string> row = {std::to_string(mc.measurement_id), std::to_string(m.run_id),
                                    mc.measured_at, m.dataset, mc.config.board};
    append(row, config_fields(mc.config, params));
    append(row,
           {shortest_double(m.time_ms_median), shortest_double(m.time_ms_min),
            shortest_double(m.time_ms_max), std::to_string(m.n_repeats),
            shortest_double(m.ns_per_unit), opt(m.energy_mj), opt(m.nj_per_unit), opt(m.power_w),
            m.clock_mhz_observed ? std::to_string(*m.clock_mhz_observed) : ""});
    for (const std::string& name : metrics) row.push_back(shortest_double(m.metric(name)));
    append(row, {m.resources_json, on_front.count(mc.measurement_id) ? "1" : "0"});
    for (const std::string& item : items) {
      const db::ItemResult* found = nullptr;
      for (const auto& r : m.items)
        if (r.item == item) found = &r;
      row.push_back(found ? shortest_double(found->time_ms) : "");
      for (const std::string& name : metrics) {
        const auto it =
            found ? found->metrics.find(name) : std::map<std::string, double>::const_iterator{};
        row.push_back(found && it != found->metrics.end() ? shortest_double(it->second) : "");
      }
    }
    out += csv_row(row);
  }
  return out;
}

template <typename Row>
std::string config_rows_csv(const std::vector<Row>& rows,
                            const std::vector<std::string>& extra_header,
                            std::vector<std::string> (*extra)(const Row&)) {
  const std::vector<std::string> params =
      param_names(rows, [](const Row& r) -> const db::ConfigRow& { return r.config; });
  std::vector<std::string> header = {"run_id"};
  append(header, kConfigHeader);
  append(header, params);
  append(header, extra_header);
  std::string out = csv_row(header);
  for (const Row& r : rows) {
    std::vector<std::string> row = {std::to_string(r.run_id)};
    append(row, config_fields(r.config, params));
    append(row, extra(r));
    out += csv_row(row);
  }
  return out;
}

struct DatasetFronts {
  std::string dataset;
  db::WorkloadRow workload;
  std::vector<Objective> objectives;
  std::vector<db::MeasuredConfig> measured, front, time_energy;
  bool has_energy = false;
};

std::string md_front_table(const std::vector<db::MeasuredConfig>& front, const db::WorkloadRow& w) {
  std::ostringstream s;
  std::set<std::string> varying;
  std::map<std::string, std::set<double>> values;
  for (const auto& mc : front)
    for (const auto& [name, v] : mc.config.params) values[name].insert(v);
  for (const auto& [name, set] : values)
    if (set.size() > 1) varying.insert(name);
  s << "| label | params | time ms | ns/" << md_cell(w.work_unit) << " | energy mJ";
  for (const auto& m : w.metrics)
    s << " | " << md_cell(m.name) << (m.unit.empty() ? "" : " " + md_cell(m.unit));
  s << " |\n|---|---|---:|---:|---:";
  for (std::size_t k = 0; k < w.metrics.size(); ++k) s << "|---:";
  s << "|\n";
  for (const auto& mc : front) {
    const db::MeasurementRow& m = mc.measurement;
    std::string p;
    for (const std::string& name : varying)
      p += (p.empty() ? "" : " ") + name + "=" + shortest_double(mc.config.params.at(name));
    s << "| " << md_cell(mc.config.label) << " | " << md_cell(p) << " | "
      << fixed(m.time_ms_median, 3) << " | " << fixed(m.ns_per_unit, 4) << " | "
      << fixed(m.energy_mj, 3);
    for (const auto& spec : w.metrics) s << " | " << fixed(m.metric(spec.name), 4);
    s << " |\n";
  }
  return s.str();
}

std::string svg_name(const DatasetFronts& f) {
  std::string name = "pareto";
  for (const Objective& o : f.objectives)
    name += "_" + (o.name == "time_ms" ? std::string("time") : o.name);
  return name + ".svg";
}

std::string cross_svg_name(std::size_t k) {
  return "cross_front_" + std::to_string(k + 1) + ".svg";
}

std::string report_md(const std::string& board, const std::string& db_path,
                      const std::vector<db::RunRow>& runs, const std::vector<DatasetFronts>& fronts,
                      const std::vector<CrossFront>& cross, std::size_t n_measured,
                      const std::vector<db::PrunedRow>& pruned,
                      const std::vector<db::FailureRow>& failures) {
  std::ostringstream s;
  s << "# flowtune report: board " << md_cell(board) << "\n\n"
    << "Database: " << md_cell(db_path) << ". " << n_measured << " measured configs, "
    << pruned.size() << " pruned configs, " << failures.size() << " failures, " << runs.size()
    << " run(s).\n\n"
    << "Files: [runs.csv](runs.csv), [measurements.csv](measurements.csv), "
       "[pruned.csv](pruned.csv), [failures.csv](failures.csv), [pareto.csv](pareto.csv).\n\n"
    << "Times are per run of the workload (a frame, a solve; median over repeats); metrics are "
       "means over the items of the dataset; energy is n/a where the board has no sensor.\n\n"
    << "## Runs\n\n"
    << "| run | workload | status | started (UTC) | ended (UTC) | host | GPU | driver | CUDA | "
       "clocks | git | dataset | command |\n"
    << "|---:|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const db::RunRow& r : runs) {
    s << "| " << r.id << " | " << md_cell(r.info.workload) << " | " << r.status << " | "
      << md_cell(r.started_at) << " | " << md_cell(r.ended_at) << " | " << md_cell(r.info.host)
      << " | " << md_cell(r.info.gpu_name) << " | " << md_cell(r.info.driver_version) << " | "
      << md_cell(r.info.cuda_version) << " | " << md_cell(r.info.clocks_observed) << " | "
      << md_cell(r.info.git_revision) << " | " << md_cell(r.info.dataset) << " | "
      << md_cell(r.info.command) << " |\n";
  }
  if (fronts.empty()) s << "\nNo measurements yet.\n";
  for (const DatasetFronts& f : fronts) {
    std::string axes;
    for (const Objective& o : f.objectives) axes += (axes.empty() ? "" : " vs ") + o.name;
    s << "\n## Dataset " << md_cell(f.dataset) << " (workload " << md_cell(f.workload.name) << ", "
      << f.measured.size() << " measured configs)\n\n";
    if (f.objectives.size() >= 2) s << "![Pareto front, " << axes << "](" << svg_name(f) << ")\n\n";
    s << "### Pareto front: " << axes << " (" << f.front.size() << " configs)\n\n"
      << md_front_table(f.front, f.workload);
    if (f.has_energy) {
      s << "\n### Pareto front: time vs energy (" << f.time_energy.size() << " configs)\n\n"
        << md_front_table(f.time_energy, f.workload);
    }
    s << "\n### Best config per objective\n\n| objective | label | time ms | energy mJ";
    for (const auto& m : f.workload.metrics) s << " | " << md_cell(m.name);
    s << " |\n|---|---|---:|---:";
    for (std::size_t k = 0; k < f.workload.metrics.size(); ++k) s << "|---:";
    s << "|\n";
    std::vector<Objective> objectives = f.objectives;
    if (f.has_energy) objectives.push_back(resolve_objective(f.workload, "energy"));
    for (const Objective& o : objectives) {
      try {
        const db::MeasuredConfig best = select_config(f.measured, o, f.objectives);
        const db::MeasurementRow& m = best.measurement;
        s << "| " << md_cell(o.name) << " | " << md_cell(best.config.label) << " | "
          << fixed(m.time_ms_median, 3) << " | " << fixed(m.energy_mj, 3);
        for (const auto& spec : f.workload.metrics) s << " | " << fixed(m.metric(spec.name), 4);
        s << " |\n";
      } catch (const std::invalid_argument& e) {
        s << "| " << md_cell(o.name) << " | n/a (" << md_cell(e.what()) << ") | | |\n";
      }
    }
    double t_min = 1e300, t_max = 0;
    for (const auto& mc : f.measured) {
      t_min = std::min(t_min, mc.measurement.time_ms_median);
      t_max = std::max(t_max, mc.measurement.time_ms_median);
    }
    const auto budgets = budgets_for(t_min, t_max);
    const auto cells = best_within_budgets(f.measured, f.workload, budgets);
    if (!cells.empty())
      s << "\n### Best accuracy within a time budget, per precision (paper table 2)\n\n"
        << budget_table_md(cells);
  }
  for (std::size_t k = 0; k < cross.size(); ++k) s << cross_front_md(cross[k], cross_svg_name(k));
  if (!pruned.empty()) {
    std::map<std::string, int> by_reason;
    for (const auto& p : pruned) ++by_reason[p.reason];
    s << "\n## Pruned configs (" << pruned.size() << ")\n\n| reason | configs |\n|---|---:|\n";
    for (const auto& kv : by_reason) s << "| " << md_cell(kv.first) << " | " << kv.second << " |\n";
  }
  if (!failures.empty()) {
    s << "\n## Failures (" << failures.size()
      << ")\n\n| run | class | config | dataset | message |\n"
      << "|---:|---|---|---|---|\n";
    for (const auto& f : failures)
      s << "| " << f.run_id << " | " << md_cell(f.failure_class) << " | " << md_cell(f.config.label)
        << " | " << md_cell(f.dataset) << " | " << md_cell(f.message) << " |\n";
  }
  return s.str();
}

std::string axis_label(const Objective& o) {
  return o.name + (o.unit.empty() ? "" : " (" + o.unit + ")");
}

std::string front_svg(const DatasetFronts& f, const std::string& board, const Objective& x,
                      const Objective& y) {
  std::vector<double> xs, ys;
  std::vector<std::vector<double>> points;
  for (const auto& mc : f.measured) {
    xs.push_back(mc.value(x.name));
    ys.push_back(mc.value(y.name));
    points.push_back({oriented_value(mc, x), oriented_value(mc, y)});
  }
  return scatter_svg(xs, ys, pareto_front(points),
                     "board " + board + ", " + f.dataset + ": " + x.name + " vs " + y.name,
                     axis_label(x), axis_label(y));
}

std::vector<std::string> pruned_extra(const db::PrunedRow& p) {
  return {p.reason};
}
std::vector<std::string> failure_extra(const db::FailureRow& f) {
  return {f.dataset, f.failure_class, f.message, f.failed_at};
}

}  // namespace

void write_report(const db::Repository& repo, const std::string& board,
                  const std::string& out_dir) {
  const std::vector<db::RunRow> runs = repo.runs(board);
  const std::vector<db::MeasuredConfig> measured = repo.measured(board);
  const std::vector<db::PrunedRow> pruned = repo.pruned(board);
  const std::vector<db::FailureRow> failures = repo.failures(board);
  if (runs.empty() && measured.empty() && pruned.empty()) {
    throw std::runtime_error(repo.path() + ": board '" + board +
                             "' has no runs, measurements or pruned configs; nothing to report");
  }

  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec || !fs::is_directory(out_dir)) {
    throw std::runtime_error(out_dir + ": cannot create the report directory (" +
                             (ec ? ec.message() : std::string("exists and is not a directory")) +
                             ")");
  }

  std::vector<DatasetFronts> fronts;
  std::set<std::int64_t> on_front;
  const std::vector<std::string> datasets = repo.datasets(board);
  for (const std::string& dataset : datasets) {
    std::vector<std::string> workloads;  // of this dataset, in order of first measurement
    for (const auto& mc : measured)
      if (mc.measurement.dataset == dataset &&
          std::find(workloads.begin(), workloads.end(), mc.config.workload) == workloads.end())
        workloads.push_back(mc.config.workload);
    for (const std::string& workload : workloads) {
      DatasetFronts f;
      f.dataset = dataset;
      for (const auto& mc : measured)
        if (mc.measurement.dataset == dataset && mc.config.workload == workload)
          f.measured.push_back(mc);
      f.workload = workload_or_default(repo, workload);
      f.objectives = objectives_of(f.workload);
      f.front = pareto_configs(f.measured, f.objectives);
      for (const auto& mc : f.front) on_front.insert(mc.measurement_id);
      for (const auto& mc : f.measured) f.has_energy = f.has_energy || mc.measurement.energy_mj;
      if (f.has_energy)
        f.time_energy = pareto_configs(f.measured, {resolve_objective(f.workload, "time"),
                                                    resolve_objective(f.workload, "energy")});
      fronts.push_back(std::move(f));
    }
  }
  const std::vector<CrossFront> cross = cross_algorithm_fronts(repo, measured, datasets);

  std::string pareto =
      csv_row({"front", "dataset", "workload", "rank", "measurement_id", "config_key", "label",
               "time_ms_median", "ns_per_unit", "energy_mj", "metrics_json"});
  for (const DatasetFronts& f : fronts) {
    for (int which = 0; which < 2; ++which) {
      const auto& front = which == 0 ? f.front : f.time_energy;
      std::string name = which == 0 ? "" : "time_energy";
      if (which == 0)
        for (const Objective& o : f.objectives) name += (name.empty() ? "" : "_") + o.name;
      for (std::size_t r = 0; r < front.size(); ++r) {
        const db::MeasurementRow& m = front[r].measurement;
        pareto +=
            csv_row({name, f.dataset, f.workload.name, std::to_string(r + 1),
                     std::to_string(front[r].measurement_id), front[r].config.key,
                     front[r].config.label, shortest_double(m.time_ms_median),
                     shortest_double(m.ns_per_unit), opt(m.energy_mj), db::params_json(m.metrics)});
      }
    }
  }

  for (const CrossFront& f : cross) {
    std::string name = "cross";
    for (const Objective& o : f.objectives) name += "_" + o.name;
    for (std::size_t r = 0; r < f.front.size(); ++r) {
      const db::MeasurementRow& m = f.front[r].measurement;
      pareto +=
          csv_row({name, f.dataset, f.front[r].config.workload, std::to_string(r + 1),
                   std::to_string(f.front[r].measurement_id), f.front[r].config.key,
                   f.front[r].config.label, shortest_double(m.time_ms_median),
                   shortest_double(m.ns_per_unit), opt(m.energy_mj), db::params_json(m.metrics)});
    }
  }

  const fs::path dir(out_dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    detail::write_text_file((dir / name).string(), text);
  };
  write("runs.csv", runs_csv(runs, measured, pruned, failures));
  write("measurements.csv", measurements_csv(measured, on_front));
  write("pruned.csv", config_rows_csv<db::PrunedRow>(pruned, {"reason"}, &pruned_extra));
  write("failures.csv",
        config_rows_csv<db::FailureRow>(
            failures, {"dataset", "failure_class", "message", "failed_at"}, &failure_extra));
  write("pareto.csv", pareto);
  write("report.md",
        report_md(board, repo.path(), runs, fronts, cross, measured.size(), pruned, failures));
  for (std::size_t k = 0; k < cross.size(); ++k) {
    const CrossFront& f = cross[k];
    std::vector<double> xs, ys;
    std::vector<std::vector<double>> points;
    for (const auto& mc : f.measured) {
      xs.push_back(mc.value(f.objectives[0].name));
      ys.push_back(mc.value(f.objectives[1].name));
      points.push_back({oriented_value(mc, f.objectives[0]), oriented_value(mc, f.objectives[1])});
    }
    std::string workloads;
    for (const std::string& w : f.workloads) workloads += (workloads.empty() ? "" : ", ") + w;
    write(cross_svg_name(k), scatter_svg(xs, ys, pareto_front(points),
                                         "board " + board + ", " + f.dataset +
                                             ": cross-algorithm front (" + workloads + ")",
                                         axis_label(f.objectives[0]), axis_label(f.objectives[1])));
  }
  std::set<std::string> plotted;  // one plot per pair of objectives: the dataset with most data
  for (const DatasetFronts& f : fronts) {
    if (f.objectives.size() >= 2 && plotted.insert(svg_name(f)).second)
      write(svg_name(f), front_svg(f, board, f.objectives[0], f.objectives[1]));
  }
  if (!fronts.empty() && fronts.front().has_energy) {
    const DatasetFronts& f = fronts.front();
    write("pareto_time_energy.svg", front_svg(f, board, resolve_objective(f.workload, "time"),
                                              resolve_objective(f.workload, "energy")));
  }
  write_html_report(repo, board, out_dir);
}

}  // namespace flowtune::reports
