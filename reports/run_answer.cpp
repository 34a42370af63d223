// The answer of a board's latest run (reports/run_answer.hpp).
#include "reports/run_answer.hpp"

#include <time.h>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "reports/report_model.hpp"
#include "reports/text_format.hpp"

namespace flowtune::reports {
namespace {

std::string figure_name(std::string name) {
  if (name == "ms") return "time_ms";
  if (name == "mj") return "energy_mj";
  if (name == "w") return "power_w";
  if (name == "edp") return "edp_mj_ms";
  return name;
}

void add_constraint(RunRequest& r, const std::string& name, const std::string& value) {
  try {
    std::size_t used = 0;
    const double v = std::stod(value, &used);
    if (used == value.size()) r.constraints.push_back({figure_name(name), v});
  } catch (const std::exception&) {
    // not a number: left out
  }
}

std::optional<double> unix_seconds(const std::string& iso) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0;
  double s = 0;
  if (std::sscanf(iso.c_str(), "%d-%d-%dT%d:%d:%lf", &y, &mo, &d, &h, &mi, &s) != 6)
    return std::nullopt;
  tm t{};
  t.tm_year = y - 1900;
  t.tm_mon = mo - 1;
  t.tm_mday = d;
  t.tm_hour = h;
  t.tm_min = mi;
  return double(timegm(&t)) + s;
}

}  // namespace

RunRequest parse_run_request(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> words;
  for (std::string w; in >> w;) words.push_back(w);
  RunRequest r;
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string opt = words[i], value;
    if (opt.rfind("--", 0) != 0) continue;
    const auto eq = opt.find('=');
    const bool inline_value = eq != std::string::npos;
    if (inline_value) {
      value = opt.substr(eq + 1);
      opt = opt.substr(0, eq);
    }
    const auto next = [&]() -> std::string {
      if (inline_value) return value;
      return i + 1 < words.size() ? words[++i] : std::string();
    };
    if (opt == "--objective") {
      r.objective = next();
    } else if (opt == "--time-budget") {
      r.time_budget = next();
    } else if (opt == "--budget" || opt == "--max-evals") {
      r.evaluations = next();
    } else if (opt == "--strategy") {
      r.strategy = next();
    } else if (opt == "--max") {
      const std::string t = next();
      const auto e = t.find('=');
      if (e != std::string::npos) add_constraint(r, t.substr(0, e), t.substr(e + 1));
    } else if (opt.rfind("--max-", 0) == 0 && opt != "--max-rounds" && opt != "--max-window-ms" &&
               opt != "--max-pixels") {
      add_constraint(r, opt.substr(6), next());
    }
  }
  return r;
}

std::optional<double> seconds_between(const std::string& from_iso, const std::string& to_iso) {
  const std::optional<double> a = unix_seconds(from_iso), b = unix_seconds(to_iso);
  if (!a || !b || *b < *a) return std::nullopt;
  return *b - *a;
}

RunAnswer run_answer(const std::vector<db::RunRow>& runs, const std::vector<DatasetView>& views) {
  RunAnswer a;
  if (views.empty()) return a;
  for (const db::RunRow& run : runs)
    for (std::size_t k = 0; k < views.size(); ++k)
      if (run.info.dataset == views[k].data.dataset && run.id >= a.run.id) {
        a.has_run = true;
        a.run = run;
        a.view = k;
      }
  if (a.has_run) a.request = parse_run_request(a.run.info.command);
  const DatasetFront& d = views[a.view].data;
  std::vector<double> times;
  for (const db::MeasuredConfig& mc : d.measured) times.push_back(mc.measurement.time_ms_median);
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    const std::size_t n = times.size();
    a.baseline_ms = n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    a.baseline_n = n;
  }
  try {
    const Objective objective =
        resolve_objective(d.workload, a.request.objective.empty() ? "time" : a.request.objective);
    a.request_text = (objective.minimize ? "least " : "greatest ") + objective.name;
    for (std::size_t k = 0; k < a.request.constraints.size(); ++k)
      a.request_text += std::string(k ? ", " : " with ") + a.request.constraints[k].name +
                        " <= " + detail::shortest_double(a.request.constraints[k].max);
    const std::vector<db::MeasuredConfig> candidates =
        satisfying(d.measured, a.request.constraints, d.workload);
    if (candidates.empty()) {
      a.no_pick = "no measured config satisfies " + a.request_text;
      return a;
    }
    a.pick = select_config(candidates, objective, d.objectives);
  } catch (const std::exception& e) {
    a.no_pick = e.what();
  }
  return a;
}

}  // namespace flowtune::reports
