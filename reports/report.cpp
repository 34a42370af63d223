// write_report: CSV, Markdown and SVG views of one board's tuning results.
#include "reports/report.hpp"

#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reports/export_header.hpp"
#include "reports/svg_plot.hpp"
#include "reports/text_format.hpp"
#include "tuner/pareto.hpp"

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

std::vector<std::string> config_fields(const db::ConfigRow& c) {
  return {c.key,
          c.label,
          c.variant,
          c.precision,
          c.tunables_json,
          std::to_string(c.clock_mhz),
          std::to_string(c.iterations),
          std::to_string(c.n_scales),
          std::to_string(c.n_warpings),
          shortest_double(c.zoom),
          shortest_double(c.epsilon),
          shortest_double(c.tau),
          shortest_double(c.lambda),
          shortest_double(c.theta)};
}
const std::vector<std::string> kConfigHeader = {
    "config_key", "label",      "variant", "precision", "tunables_json", "clock_mhz", "iterations",
    "n_scales",   "n_warpings", "zoom",    "epsilon",   "tau",           "lambda",    "theta"};

void append(std::vector<std::string>& a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
}

std::string runs_csv(const std::vector<db::RunRow>& runs,
                     const std::vector<db::MeasuredConfig>& measured,
                     const std::vector<db::PrunedRow>& pruned) {
  std::map<std::int64_t, int> n_measured, n_pruned;
  for (const auto& mc : measured) ++n_measured[mc.measurement.run_id];
  for (const auto& p : pruned) ++n_pruned[p.run_id];
  std::string out = csv_row({"run_id", "board", "status", "started_at", "ended_at", "command",
                             "git_revision", "host", "gpu_name", "driver_version", "cuda_version",
                             "clocks_observed", "dataset", "n_measured", "n_pruned"});
  for (const db::RunRow& r : runs) {
    out +=
        csv_row({std::to_string(r.id), r.info.board, r.status, r.started_at, r.ended_at,
                 r.info.command, r.info.git_revision, r.info.host, r.info.gpu_name,
                 r.info.driver_version, r.info.cuda_version, r.info.clocks_observed, r.info.dataset,
                 std::to_string(n_measured[r.id]), std::to_string(n_pruned[r.id])});
  }
  return out;
}

std::string measurements_csv(const std::vector<db::MeasuredConfig>& measured,
                             const std::set<std::int64_t>& on_front) {
  std::vector<std::string> sequences;  // union over rows, first-seen order
  std::set<std::string> seen;
  for (const auto& mc : measured) {
    for (const auto& s : mc.measurement.sequences) {
      if (seen.insert(s.sequence).second) sequences.push_back(s.sequence);
    }
  }
  std::vector<std::string> header = {"measurement_id", "run_id", "measured_at", "dataset", "board"};
  append(header, kConfigHeader);
  append(header, {"time_ms_median", "time_ms_min", "time_ms_max", "n_repeats", "ns_per_px",
                  "energy_mj", "nj_per_px", "power_w", "clock_mhz_observed", "aepe", "aae_deg",
                  "resources_json", "on_front_time_aepe"});
  for (const std::string& s : sequences) {
    append(header, {"time_ms_" + s, "aepe_" + s, "aae_deg_" + s});
  }
  std::string out = csv_row(header);
  for (const auto& mc : measured) {
    const db::MeasurementRow& m = mc.measurement;
    std::vector<std::string> row = {std::to_string(mc.measurement_id), std::to_string(m.run_id),
                                    mc.measured_at, m.dataset, mc.config.board};
    append(row, config_fields(mc.config));
    append(row, {shortest_double(m.time_ms_median), shortest_double(m.time_ms_min),
                 shortest_double(m.time_ms_max), std::to_string(m.n_repeats),
                 shortest_double(m.ns_per_px), opt(m.energy_mj), opt(m.nj_per_px), opt(m.power_w),
                 m.clock_mhz_observed ? std::to_string(*m.clock_mhz_observed) : "",
                 shortest_double(m.aepe), shortest_double(m.aae_deg), m.resources_json,
                 on_front.count(mc.measurement_id) ? "1" : "0"});
    for (const std::string& name : sequences) {
      const db::SequenceResult* found = nullptr;
      for (const auto& s : m.sequences) {
        if (s.sequence == name) found = &s;
      }
      if (found) {
        append(row, {shortest_double(found->time_ms), shortest_double(found->aepe),
                     shortest_double(found->aae_deg)});
      } else {
        append(row, {"", "", ""});
      }
    }
    out += csv_row(row);
  }
  return out;
}

std::string pruned_csv(const std::vector<db::PrunedRow>& pruned) {
  std::vector<std::string> header = {"run_id"};
  append(header, kConfigHeader);
  header.push_back("reason");
  std::string out = csv_row(header);
  for (const db::PrunedRow& p : pruned) {
    std::vector<std::string> row = {std::to_string(p.run_id)};
    append(row, config_fields(p.config));
    row.push_back(p.reason);
    out += csv_row(row);
  }
  return out;
}

struct DatasetFronts {
  std::string dataset;
  std::vector<db::MeasuredConfig> measured, time_aepe, time_energy;
  bool has_energy = false;
};

std::string md_front_table(const std::vector<db::MeasuredConfig>& front) {
  std::ostringstream s;
  s << "| label | time ms | ns/px | energy mJ | AEPE px | AAE deg | config key |\n"
    << "|---|---:|---:|---:|---:|---:|---|\n";
  for (const auto& mc : front) {
    const db::MeasurementRow& m = mc.measurement;
    s << "| " << md_cell(mc.config.label) << " | " << fixed(m.time_ms_median, 3) << " | "
      << fixed(m.ns_per_px, 2) << " | " << fixed(m.energy_mj, 3) << " | " << fixed(m.aepe, 4)
      << " | " << fixed(m.aae_deg, 3) << " | `" << md_cell(mc.config.key) << "` |\n";
  }
  return s.str();
}

std::string report_md(const std::string& board, const std::string& db_path,
                      const std::vector<db::RunRow>& runs, const std::vector<DatasetFronts>& fronts,
                      std::size_t n_measured, const std::vector<db::PrunedRow>& pruned) {
  std::ostringstream s;
  s << "# flowtune report: board `" << md_cell(board) << "`\n\n"
    << "Database: `" << md_cell(db_path) << "`. " << n_measured << " measured configs, "
    << pruned.size() << " pruned configs, " << runs.size() << " run(s).\n\n"
    << "Files: [runs.csv](runs.csv), [measurements.csv](measurements.csv), "
       "[pruned.csv](pruned.csv), [pareto.csv](pareto.csv), "
       "[pareto_time_aepe.svg](pareto_time_aepe.svg).\n\n"
    << "Times are per frame (median over repeats); AEPE/AAE are means over the sequences "
       "of the dataset; energy is n/a where the board has no sensor.\n\n"
    << "## Runs\n\n"
    << "| run | status | started (UTC) | ended (UTC) | host | GPU | driver | CUDA | clocks | "
       "git | dataset | command |\n"
    << "|---:|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const db::RunRow& r : runs) {
    s << "| " << r.id << " | " << r.status << " | " << md_cell(r.started_at) << " | "
      << md_cell(r.ended_at) << " | " << md_cell(r.info.host) << " | " << md_cell(r.info.gpu_name)
      << " | " << md_cell(r.info.driver_version) << " | " << md_cell(r.info.cuda_version) << " | "
      << md_cell(r.info.clocks_observed) << " | " << md_cell(r.info.git_revision) << " | "
      << md_cell(r.info.dataset) << " | `" << md_cell(r.info.command) << "` |\n";
  }
  if (fronts.empty()) s << "\nNo measurements yet.\n";
  for (std::size_t k = 0; k < fronts.size(); ++k) {
    const DatasetFronts& f = fronts[k];
    s << "\n## Dataset `" << md_cell(f.dataset) << "` (" << f.measured.size()
      << " measured configs)\n\n";
    if (k == 0) s << "![Pareto front, time vs AEPE](pareto_time_aepe.svg)\n\n";
    s << "### Pareto front: time vs AEPE (" << f.time_aepe.size() << " configs)\n\n"
      << md_front_table(f.time_aepe);
    if (f.has_energy) {
      s << "\n### Pareto front: time vs energy (" << f.time_energy.size() << " configs)\n\n"
        << md_front_table(f.time_energy);
    }
    s << "\n### Best config per objective\n\n"
      << "| objective | label | time ms | energy mJ | AEPE px | AAE deg |\n"
      << "|---|---|---:|---:|---:|---:|\n";
    for (Objective o : {Objective::time, Objective::aepe, Objective::energy}) {
      if (o == Objective::energy && !f.has_energy) {
        s << "| energy | n/a (no energy measured) | | | | |\n";
        continue;
      }
      try {
        const db::MeasuredConfig best = select_config(f.measured, o);
        const db::MeasurementRow& m = best.measurement;
        s << "| " << objective_name(o) << " | " << md_cell(best.config.label) << " | "
          << fixed(m.time_ms_median, 3) << " | " << fixed(m.energy_mj, 3) << " | "
          << fixed(m.aepe, 4) << " | " << fixed(m.aae_deg, 3) << " |\n";
      } catch (const std::invalid_argument& e) {
        s << "| " << objective_name(o) << " | n/a (" << md_cell(e.what()) << ") | | | | |\n";
      }
    }
  }
  if (!pruned.empty()) {
    std::map<std::string, int> by_reason;
    for (const auto& p : pruned) ++by_reason[p.reason];
    s << "\n## Pruned configs (" << pruned.size() << ")\n\n| reason | configs |\n|---|---:|\n";
    for (const auto& kv : by_reason) s << "| " << md_cell(kv.first) << " | " << kv.second << " |\n";
  }
  return s.str();
}

std::string front_svg(const DatasetFronts& f, const std::string& board, Objective y) {
  std::vector<double> xs, ys;
  std::vector<std::vector<double>> points;
  for (const auto& mc : f.measured) {
    xs.push_back(objective_value(mc, Objective::time));
    ys.push_back(objective_value(mc, y));
    points.push_back({xs.back(), ys.back()});
  }
  const bool aepe = y == Objective::aepe;
  return scatter_svg(
      xs, ys, pareto_front(points),
      "board " + board + ", " + f.dataset + ": time vs " + (aepe ? "AEPE" : "energy"),
      "time per frame (ms, median)", aepe ? "AEPE (px)" : "energy per frame (mJ)");
}

}  // namespace

void write_report(const db::Repository& repo, const std::string& board,
                  const std::string& out_dir) {
  const std::vector<db::RunRow> runs = repo.runs(board);
  const std::vector<db::MeasuredConfig> measured = repo.measured(board);
  const std::vector<db::PrunedRow> pruned = repo.pruned(board);
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
  for (const std::string& dataset : repo.datasets(board)) {
    DatasetFronts f;
    f.dataset = dataset;
    for (const auto& mc : measured) {
      if (mc.measurement.dataset == dataset) f.measured.push_back(mc);
    }
    f.time_aepe = pareto_configs(f.measured, Objective::time, Objective::aepe);
    for (const auto& mc : f.time_aepe) on_front.insert(mc.measurement_id);
    for (const auto& mc : f.measured) f.has_energy = f.has_energy || mc.measurement.energy_mj;
    if (f.has_energy)
      f.time_energy = pareto_configs(f.measured, Objective::time, Objective::energy);
    fronts.push_back(std::move(f));
  }

  std::string pareto = csv_row({"front", "dataset", "rank", "measurement_id", "config_key", "label",
                                "time_ms_median", "ns_per_px", "energy_mj", "aepe", "aae_deg"});
  for (const DatasetFronts& f : fronts) {
    for (int which = 0; which < 2; ++which) {
      const auto& front = which == 0 ? f.time_aepe : f.time_energy;
      for (std::size_t r = 0; r < front.size(); ++r) {
        const db::MeasurementRow& m = front[r].measurement;
        pareto += csv_row({which == 0 ? "time_aepe" : "time_energy", f.dataset,
                           std::to_string(r + 1), std::to_string(front[r].measurement_id),
                           front[r].config.key, front[r].config.label,
                           shortest_double(m.time_ms_median), shortest_double(m.ns_per_px),
                           opt(m.energy_mj), shortest_double(m.aepe), shortest_double(m.aae_deg)});
      }
    }
  }

  const fs::path dir(out_dir);
  const auto write = [&](const char* name, const std::string& text) {
    detail::write_text_file((dir / name).string(), text);
  };
  write("runs.csv", runs_csv(runs, measured, pruned));
  write("measurements.csv", measurements_csv(measured, on_front));
  write("pruned.csv", pruned_csv(pruned));
  write("pareto.csv", pareto);
  write("report.md", report_md(board, repo.path(), runs, fronts, measured.size(), pruned));
  if (fronts.empty()) {
    write("pareto_time_aepe.svg", scatter_svg({}, {}, {}, "board " + board + ": no measurements",
                                              "time per frame (ms, median)", "AEPE (px)"));
  } else {
    write("pareto_time_aepe.svg", front_svg(fronts.front(), board, Objective::aepe));
    if (fronts.front().has_energy) {
      write("pareto_time_energy.svg", front_svg(fronts.front(), board, Objective::energy));
    }
  }
}

}  // namespace flowtune::reports
