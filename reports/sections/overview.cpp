// The first screen of a board: what was tuned, on which board, when, with which command,
// budget and strategy, and the answer (the pick of the run's request, its speed-up over the
// stated baseline and its runs per second). reports/run_answer.hpp computes it.
#include <cmath>
#include <sstream>

#include "reports/sections/parts.hpp"
#include "reports/sections/section.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

using detail::fixed;
using detail::md_cell;
using detail::xml_escape;

std::string duration_text(double s) {
  std::ostringstream os;
  if (s >= 60) os << int(s / 60) << " min ";
  os << int(std::fmod(s, 60)) << " s";
  return os.str();
}

// "frames/s" for a workload of pixels (a run is one frame pair), else "runs/s".
std::string rate_text(const db::WorkloadRow& w, double time_ms) {
  std::ostringstream os;
  os << fixed(1000.0 / time_ms, 0) << (w.work_unit == "px" ? " frames/s" : " runs/s");
  return os.str();
}

// The pick's figures and speed-up, one sentence (plain text; the caller escapes it).
std::string answer_text(const BoardModel& b) {
  const RunAnswer& a = b.answer;
  const DatasetFront& d = b.views[a.view].data;
  const db::MeasurementRow& m = a.pick->measurement;
  std::ostringstream s;
  s << fixed(m.time_ms_median, 3) << " ms per run (" << rate_text(d.workload, m.time_ms_median)
    << ")";
  for (const auto& spec : d.workload.metrics)
    s << ", " << spec.name << " " << fixed(m.metric(spec.name), 4);
  if (m.energy_mj)
    s << ", " << fixed(m.energy_mj, 3) << " mJ per run"
      << (m.power_w ? " at " + fixed(m.power_w, 1) + " W" : std::string());
  else
    s << ", energy not measured";
  if (a.baseline_ms > 0)
    s << "; " << fixed(a.baseline_ms / m.time_ms_median, 2)
      << "x the speed of the baseline, the median time of the dataset's " << a.baseline_n
      << " measured configs (" << fixed(a.baseline_ms, 3) << " ms)";
  return s.str();
}

struct Detail {
  std::string name, value;
};

std::vector<Detail> details(const BoardModel& b) {
  const RunAnswer& a = b.answer;
  const DatasetFront& d = b.views[a.view].data;
  std::vector<Detail> out;
  out.push_back({"tuned", "workload " + d.workload.name + " on dataset " + d.dataset + ": " +
                              std::to_string(d.measured.size()) + " configs measured, " +
                              std::to_string(b.pruned.size()) + " pruned, " +
                              std::to_string(b.failures.size()) + " failed"});
  if (!a.has_run) return out;
  const db::RunInfo& i = a.run.info;
  // Facts the run could not read are recorded as "" or "n/a": left out.
  const auto known = [](const std::string& v) { return !v.empty() && v != "n/a"; };
  std::string machine = "board " + b.name + (known(i.host) ? ", host " + i.host : "");
  if (known(i.gpu_name)) machine += ", " + i.gpu_name;
  if (known(i.driver_version)) machine += ", driver " + i.driver_version;
  if (known(i.cuda_version)) machine += ", CUDA " + i.cuda_version;
  out.push_back({"machine", machine});
  std::string when = a.run.started_at + " (UTC)";
  if (const auto s = seconds_between(a.run.started_at, a.run.ended_at))
    when += ", " + duration_text(*s);
  when += ", run " + std::to_string(a.run.id) + " " + a.run.status;
  out.push_back({"when", when});
  out.push_back({"command", i.command});
  const RunRequest& r = a.request;
  out.push_back({"budget", (r.time_budget.empty() ? "time budget: the default (auto)"
                                                  : "time budget " + r.time_budget) +
                               (r.evaluations.empty() ? "" : ", evaluations " + r.evaluations)});
  out.push_back({"strategy", r.strategy.empty() ? "auto (the default)" : r.strategy});
  return out;
}

std::string overview_html(const BoardModel& b, std::size_t) {
  if (b.views.empty()) return "";
  const RunAnswer& a = b.answer;
  std::ostringstream s;
  s << "<section class=\"overview\">\n<p class=\"answer\">";
  if (a.pick) {
    const DatasetFront& d = b.views[a.view].data;
    s << "Pick for <b class=\"request\">" << xml_escape(a.request_text)
      << "</b>: <span class=\"pick-label\">"
      << xml_escape(sections::distinct_label(*a.pick, d.measured))
      << "</span>: " << xml_escape(answer_text(b)) << ".";
  } else {
    s << "No pick: " << xml_escape(a.no_pick) << ".";
  }
  s << "</p>\n<table class=\"run-details\"><tbody>\n";
  for (const Detail& dt : details(b))
    s << "<tr><th>" << xml_escape(dt.name) << "</th><td data-detail=\"" << xml_escape(dt.name)
      << "\">" << xml_escape(dt.value) << "</td></tr>\n";
  s << "</tbody></table>\n";
  if (a.pick && !a.pick->measurement.images.empty())
    s << "<div class=\"pick-images\">" << sections::item_images_html(*a.pick) << "</div>\n";
  s << "</section>\n";
  return s.str();
}

std::string overview_md(const ReportModel& model) {
  const BoardModel& b = model.reported();
  if (b.views.empty()) return "";
  const RunAnswer& a = b.answer;
  std::ostringstream s;
  if (a.pick)
    s << "**Pick for " << md_cell(a.request_text)
      << "**: " << md_cell(sections::distinct_label(*a.pick, b.views[a.view].data.measured)) << ": "
      << md_cell(answer_text(b)) << ".\n\n";
  else
    s << "**No pick**: " << md_cell(a.no_pick) << ".\n\n";
  for (const Detail& dt : details(b)) s << "- " << dt.name << ": " << md_cell(dt.value) << "\n";
  s << "\n";
  return s.str();
}

}  // namespace

Section overview_section() {
  return {"overview", &overview_md, &overview_html};
}

}  // namespace flowtune::reports
