// `tune params`: the parameter schema of a workload (the README's parameter table).
#include <iostream>

#include "cli/cli.hpp"
#include "cli/commands.hpp"
#include "cli/options.hpp"

namespace flowtune::cli {
namespace {

std::string type_name(const ParamSpec& p) {
  switch (p.type) {
    case ParamSpec::Type::integer:
      return "integer";
    case ParamSpec::Type::categorical:
      return "categorical";
    case ParamSpec::Type::real:
      break;
  }
  return "real";
}

// Text safe in a Markdown table cell.
std::string md(const std::string& text) {
  std::string out;
  for (char c : text) out += c == '|' ? std::string("\\|") : std::string(1, c);
  return out;
}

// The dimension's values and ranges, and the value it fixes when a space leaves it out where
// that is not the ParamSpec default: "5..100 log, 10 points (10 values); else 300" (a single
// value is that value).
std::string dims_text(const ParamSpec& p, const ParamDimension& dim) {
  std::string s = dim.text(p);
  const double fixed = dim.fixed_value(p);
  if (dim.size() > 1 && fixed != p.default_value) s += "; else " + p.value_text(fixed);
  return s;
}

// What the dimension column's ranges mean (printed under the parameters).
constexpr const char* kRangeLegend =
    "A dimension's range LO..HI step S takes every value from LO in steps of S; LO..HI (whole "
    "numbers) every integer; \"log, N points\" N values spread geometrically over [LO, HI], "
    "rounded to 2 significant digits (whole numbers for an integer parameter); \"(N values)\" "
    "is the count the space enumerates. \"else V\": the value the parameter takes on that "
    "target when a space leaves the dimension out (`--no-default-dimensions`, `--param` naming "
    "others); otherwise it takes its default. `--param NAME=LO:HI:STEP`, `LO:HI:log[:N]`, "
    "`LO:HI:lin:N` and lists of values and ranges (`n_scales=0,3:8`) set a dimension.";

// The default, and the absent value where it differs (what a DB row, tuned header or
// imported file without the parameter means; ParamSpec::absent_value): "5 (absent: 0)".
std::string default_text(const ParamSpec& p) {
  std::string s = p.value_text(p.default_value);
  if (p.absent_value && *p.absent_value != p.default_value)
    s += " (absent: " + p.value_text(*p.absent_value) + ")";
  return s;
}

}  // namespace

int run_params(const std::vector<std::string>& args) {
  std::string workload_name;
  bool markdown = false;
  po::options_description desc = command_options("params options");
  desc.add_options()("workload", po::value(&workload_name), "workload (default: every workload)")(
      "markdown", po::bool_switch(&markdown), "print a Markdown table (the README's)");
  po::variables_map vm;
  if (parse(args, desc, {}, vm, "tune params [--workload W] [--markdown]")) return 0;
  std::vector<const Workload*> workloads;
  if (workload_name.empty()) {
    workloads = all_workloads();
  } else {
    try {
      workloads.push_back(&find_workload(workload_name));
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--workload: ") + e.what());
    }
  }
  for (const Workload* w : workloads) {
    const ParamDimensions cpu = w->default_dimensions("cpu"), gpu = w->default_dimensions("cuda");
    const auto dim = [](const ParamDimensions& d, const ParamSpec& p) {
      const auto it = d.find(p.name);
      return it == d.end() ? std::string("default") : dims_text(p, it->second);
    };
    std::cout << (markdown ? "### Workload `" : "workload ") << w->name() << (markdown ? "`" : "")
              << ": " << w->description() << "\n";
    std::string metrics;
    for (const MetricSpec& m : w->metrics())
      metrics += (metrics.empty() ? "" : ", ") + m.name + " (" +
                 (m.unit.empty() ? "" : m.unit + ", ") + (m.minimize ? "lower" : "higher") +
                 " is better)";
    std::cout << (markdown ? "\n" : "") << "metrics: " << (metrics.empty() ? "none" : metrics)
              << "; work unit: " << w->work_unit() << "\n";
    if (w->params().empty()) {
      std::cout << (markdown ? "\n" : "") << "no parameters\n\n";
      continue;
    }
    if (markdown) {
      std::cout << "\n| parameter | type | unit | default | valid | `tune` dimension (cpu / cuda) "
                   "| meaning | source |\n"
                << "|---|---|---|---:|---|---|---|---|\n";
      for (const ParamSpec& p : w->params())
        std::cout << "| `" << p.name << "` | " << type_name(p) << " | " << p.unit << " | "
                  << default_text(p) << " | " << p.range_text() << " | " << dim(cpu, p) << " / "
                  << dim(gpu, p) << " | " << md(p.doc) << " | " << md(p.source) << " |\n";
    } else {
      for (const ParamSpec& p : w->params())
        std::cout << "  " << p.name << " (" << type_name(p) << (p.unit.empty() ? "" : ", " + p.unit)
                  << "): default " << default_text(p) << ", valid " << p.range_text()
                  << "; tune dimension cpu {" << dim(cpu, p) << "}, cuda {" << dim(gpu, p) << "}\n"
                  << "      " << p.doc << " [" << p.source << "]\n";
    }
    std::cout << "\n";
  }
  std::cout << (markdown ? "" : "(") << kRangeLegend << (markdown ? "\n" : ")\n");
  return 0;
}

}  // namespace flowtune::cli
