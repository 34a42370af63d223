// The tuned C++17 header: the selected config as constexpr values and -D macros.
#include "reports/export_header.hpp"

#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reports/text_format.hpp"

namespace flowtune::reports {

namespace {

// A C++ string literal holding text (backslash, quote and control characters escaped).
std::string cpp_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\%03o",
                    static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// Text safe inside a // comment: one line.
std::string comment_text(const std::string& text) {
  std::string out;
  for (char c : text) out += (c == '\n' || c == '\r') ? ' ' : c;
  return out;
}

// A double literal that reads back exactly ("0.5", "0.15", "1.0").
std::string cpp_double(const std::string& name, double value) {
  if (!std::isfinite(value)) {
    throw std::invalid_argument("tuned header: parameter " + name + " is not finite");
  }
  std::string text = detail::shortest_double(value);
  if (text.find_first_of(".e") == std::string::npos) text += ".0";
  return text;
}

// tile_x -> TileX; requires [a-z][a-z0-9_]*.
std::string camel_case(const std::string& name) {
  bool ok = !name.empty() && std::islower(static_cast<unsigned char>(name[0]));
  for (char c : name) {
    ok = ok && (std::islower(static_cast<unsigned char>(c)) ||
                std::isdigit(static_cast<unsigned char>(c)) || c == '_');
  }
  if (!ok) {
    throw std::invalid_argument("tuned header: name '" + name + "' is not a lower-case identifier");
  }
  std::string out;
  bool upper = true;
  for (char c : name) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::string upper_case(const std::string& name) {
  std::string out;
  for (char c : name) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

std::string kernel_precision_macro(const std::string& precision) {
  if (precision == "f32") return "FT_PRECISION_F32";
  if (precision == "f16") return "FT_PRECISION_F16";
  if (precision == "mixed") return "FT_PRECISION_MIXED";
  return "";
}

std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              const Objective& objective) {
  const db::ConfigRow& c = config.config;
  const db::MeasurementRow& m = config.measurement;

  std::set<std::string> used = {"Workload",  "Board",      "Variant", "Precision",
                                "ConfigKey", "ConfigJson", "ClockMhz"};
  const auto claim = [&](const std::string& name) {
    const std::string camel = camel_case(name);
    if (!used.insert(camel).second)
      throw std::invalid_argument("tuned header: '" + name + "' collides with another constant (k" +
                                  camel + ")");
    return camel;
  };
  std::vector<std::pair<std::string, int>> tunables;
  for (const auto& [name, value] : c.tunables) tunables.emplace_back(claim(name), value);
  std::vector<std::pair<std::string, std::string>> params;  // (camel name, "int k = v" / "double")
  for (const auto& [name, value] : c.params) {
    const std::string camel = claim(name);
    if (!std::isfinite(value))
      throw std::invalid_argument("tuned header: parameter " + name + " is not finite");
    const bool whole = value == std::floor(value) && std::fabs(value) < 2.0e9;
    params.emplace_back(
        camel, whole ? "int k" + camel + " = " + std::to_string(static_cast<long long>(value))
                     : "double k" + camel + " = " + cpp_double(name, value));
  }

  std::ostringstream h;
  h << "// Tuned " << comment_text(c.workload) << " configuration for board '"
    << comment_text(board) << "', exported by flowtune (tune export) from its database.\n"
    << "// Objective: " << comment_text(objective.name) << " ("
    << (objective.minimize ? "least" : "greatest")
    << " on the Pareto front of the workload's objectives).\n"
    << "// Measured figures (dataset " << comment_text(m.dataset) << ", measured at "
    << config.measured_at << ", run " << m.run_id << ", measurement " << config.measurement_id
    << "):\n"
    << "//   time per run   : " << detail::fixed(m.time_ms_median, 3) << " ms (median of "
    << m.n_repeats << " repeats, min " << detail::fixed(m.time_ms_min, 3) << ", max "
    << detail::fixed(m.time_ms_max, 3) << ")\n"
    << "//   time per unit  : " << detail::fixed(m.ns_per_unit, 4) << " ns\n"
    << "//   energy         : "
    << (m.energy_mj ? detail::fixed(*m.energy_mj, 3) + " mJ per run" : std::string("n/a")) << "\n";
  for (const auto& [name, value] : m.metrics)
    h << "//   " << comment_text(name) << std::string(name.size() < 15 ? 15 - name.size() : 0, ' ')
      << ": " << detail::shortest_double(value) << "\n";
  h << "//   config key     : " << comment_text(c.key) << "\n"
    << "//   label          : " << comment_text(c.label) << "\n"
    << "// Deployment: include this header before a CUDA kernel (kernels/cuda/*.cuh); it defines\n"
    << "// the kernel's FT_<TUNABLE> constants and FT_PRECISION_* unless already defined (-D).\n"
    << "// Host code: flowtune::parse_tuned_config(flowtune::tuned::kConfigJson)\n"
    << "// (flowtune/flowtune.hpp, CMake package flowtune).\n"
    << "// flowtune-config: " << comment_text(db::config_json(c)) << "\n"
    << "#pragma once\n\n";
  for (const auto& [name, value] : c.tunables)
    h << "#define FLOWTUNE_TUNED_" << upper_case(name) << " " << value << "\n";
  if (!c.tunables.empty()) h << "\n";
  // The names the kernels read (kernels/cuda/*.cuh; the tuner passes them to NVRTC as -D,
  // variants/cuda/cuda_variant.cpp nvrtc_defines): include this header before a kernel .cuh.
  // Guarded, so -D on the compiler's command line wins.
  const std::string precision_macro = kernel_precision_macro(c.precision);
  if (!c.tunables.empty() || !precision_macro.empty())
    h << "// The kernels' compile-time constants (kernels/cuda/*.cuh read FT_*).\n";
  if (!precision_macro.empty())
    h << "#if !defined(FT_PRECISION_F32) && !defined(FT_PRECISION_F16) && "
         "!defined(FT_PRECISION_MIXED)\n"
      << "#define " << precision_macro << " 1\n"
      << "#endif\n";
  for (const auto& [name, value] : c.tunables) {
    const std::string macro = "FT_" + upper_case(name);
    h << "#ifndef " << macro << "\n#define " << macro << " " << value << "\n#endif\n";
  }
  if (!c.tunables.empty() || !precision_macro.empty()) h << "\n";
  h << "namespace flowtune::tuned {\n\n"
    << "inline constexpr const char* kWorkload = " << cpp_string(c.workload) << ";\n"
    << "inline constexpr const char* kBoard = " << cpp_string(board) << ";\n"
    << "inline constexpr const char* kVariant = " << cpp_string(c.variant) << ";\n"
    << "inline constexpr const char* kPrecision = " << cpp_string(c.precision) << ";\n"
    << "inline constexpr const char* kConfigKey = " << cpp_string(c.key) << ";\n"
    << "/// The whole config as JSON (the flowtune-config line), for "
       "flowtune::parse_tuned_config.\n"
    << "inline constexpr const char* kConfigJson = " << cpp_string(db::config_json(c)) << ";\n\n";
  for (const auto& [camel, value] : tunables)
    h << "inline constexpr int k" << camel << " = " << value << ";\n";
  for (const auto& [camel, decl] : params) h << "inline constexpr " << decl << ";\n";
  h << "inline constexpr int kClockMhz = " << c.clock_mhz << ";  // 0 = clock not controlled\n\n"
    << "}  // namespace flowtune::tuned\n";
  return h.str();
}

ExportSelection select_for_export(const db::Repository& repo, const std::string& board,
                                  const std::string& objective, const std::string& dataset,
                                  const std::vector<Constraint>& constraints) {
  std::string chosen = dataset;
  if (chosen.empty()) {
    const std::vector<std::string> datasets = repo.datasets(board);
    if (datasets.empty()) {
      std::string known;
      for (const std::string& b : repo.boards()) known += (known.empty() ? "" : ", ") + b;
      throw std::runtime_error(
          repo.path() + ": board '" + board + "' has no measurements (boards with measurements: " +
          (known.empty() ? "none" : known) + "); run tune --board " + board + " first");
    }
    chosen = datasets.front();
  }
  const std::vector<db::MeasuredConfig> measured = repo.measured(board, chosen);
  if (measured.empty()) {
    throw std::runtime_error(repo.path() + ": board '" + board +
                             "' has no measurements on dataset '" + chosen + "'");
  }
  const db::WorkloadRow workload = repo.workload(measured.front().config.workload);
  const Objective o = resolve_objective(workload, objective);
  const std::vector<db::MeasuredConfig> candidates = satisfying(measured, constraints, workload);
  if (candidates.empty()) {
    std::ostringstream msg;
    msg << repo.path() << ": no config of board '" << board << "' on dataset '" << chosen << "' ("
        << measured.size() << " measured) satisfies";
    for (const Constraint& c : constraints) {
      const Objective f = resolve_objective(workload, c.name);
      double best_value = std::nan("");
      for (const db::MeasuredConfig& mc : measured) {
        const double v = mc.value(f.name);
        if (std::isfinite(v) && !(v >= best_value)) best_value = v;
      }
      msg << ' ' << f.name << " <= " << c.max << " (smallest measured: " << best_value << ")";
    }
    throw std::runtime_error(msg.str());
  }
  db::MeasuredConfig best;
  try {
    best = select_config(candidates, o, objectives_of(workload));
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(repo.path() + ": board '" + board + "', dataset '" + chosen +
                             "': " + e.what());
  }
  return {best, o};
}

void export_tuned_header(const db::Repository& repo, const std::string& board,
                         const std::string& objective, const std::string& out_path,
                         const std::string& dataset, const std::vector<Constraint>& constraints) {
  const ExportSelection sel = select_for_export(repo, board, objective, dataset, constraints);
  detail::write_text_file(out_path, tuned_header_text(sel.config, board, sel.objective));
}

}  // namespace flowtune::reports
