// The tuned C++17 header: the selected config as constexpr values and -D macros.
#include "select/tuned_header.hpp"

#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "db/repository.hpp"
#include "select/text_file.hpp"
#include "variants/kernel_defines.hpp"

namespace flowtune {

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
  std::string text = shortest_decimal(value);
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

// The identifier suffix of a constant per tunable and parameter (tile_x -> TileX), each
// unique and distinct from the fixed constants; the parameters' declarations.
struct Constants {
  std::vector<std::pair<std::string, int>> tunables;        // (camel name, value)
  std::vector<std::pair<std::string, std::string>> params;  // (camel name, "int kX = v")
};

Constants constants_of(const db::ConfigRow& c) {
  std::set<std::string> used = {"Workload",  "Board",      "Variant", "Precision",
                                "ConfigKey", "ConfigJson", "ClockMhz"};
  const auto claim = [&](const std::string& name) {
    const std::string camel = camel_case(name);
    if (!used.insert(camel).second)
      throw std::invalid_argument("tuned header: '" + name + "' collides with another constant (k" +
                                  camel + ")");
    return camel;
  };
  Constants k;
  for (const auto& [name, value] : c.tunables) k.tunables.emplace_back(claim(name), value);
  for (const auto& [name, value] : c.params) {
    const std::string camel = claim(name);
    if (!std::isfinite(value))
      throw std::invalid_argument("tuned header: parameter " + name + " is not finite");
    const bool whole = value == std::floor(value) && std::fabs(value) < 2.0e9;
    k.params.emplace_back(
        camel, whole ? "int k" + camel + " = " + std::to_string(static_cast<long long>(value))
                     : "double k" + camel + " = " + cpp_double(name, value));
  }
  return k;
}

std::string preamble(const db::MeasuredConfig& config, const std::string& board,
                     const Objective& objective) {
  const db::ConfigRow& c = config.config;
  const db::MeasurementRow& m = config.measurement;
  std::ostringstream h;
  h << "// Tuned " << comment_text(c.workload) << " configuration for board '"
    << comment_text(board) << "', exported by flowtune (tune export) from its database.\n"
    << "// Objective: " << comment_text(objective.name) << " ("
    << (objective.minimize ? "least" : "greatest")
    << " on the Pareto front of the workload's objectives).\n"
    << "// Measured figures (dataset " << comment_text(m.dataset) << ", measured at "
    << config.measured_at << ", run " << m.run_id << ", measurement " << config.measurement_id
    << "):\n"
    << "//   time per run   : " << fixed_decimals(m.time_ms_median, 3) << " ms (median of "
    << m.n_repeats << " repeats, min " << fixed_decimals(m.time_ms_min, 3) << ", max "
    << fixed_decimals(m.time_ms_max, 3) << ")\n"
    << "//   time per unit  : " << fixed_decimals(m.ns_per_unit, 4) << " ns\n"
    << "//   energy         : "
    << (m.energy_mj ? fixed_decimals(*m.energy_mj, 3) + " mJ per run" +
                          (m.power_w ? " (" + fixed_decimals(*m.power_w, 1) + " W mean power)"
                                     : std::string())
                    : std::string("not measured (no energy sensor reading in the database)"))
    << "\n";
  for (const auto& [name, value] : m.metrics)
    h << "//   " << comment_text(name) << std::string(name.size() < 15 ? 15 - name.size() : 0, ' ')
      << ": " << (std::isnan(value) ? std::string() : shortest_decimal(value)) << "\n";
  h << "//   config key     : " << comment_text(c.key) << "\n"
    << "//   label          : " << comment_text(c.label) << "\n"
    << "// Deployment: include this header before a CUDA kernel (kernels/cuda/*.cuh); it defines\n"
    << "// the kernel's FT_<TUNABLE> constants and FT_PRECISION_* unless already defined (-D).\n"
    << "// Host code: flowtune::parse_tuned_config(flowtune::tuned::kConfigJson)\n"
    << "// (flowtune/flowtune.hpp, CMake package flowtune).\n";
  return h.str();
}

// The preprocessor block; with comments, as a single-board header shows it (blank lines and
// a comment), else only its # lines (a multi-board header puts them under #if __CUDA_ARCH__).
std::string macros_text(const db::ConfigRow& c, bool with_comments) {
  std::ostringstream h;
  const std::string blank = with_comments ? "\n" : "";
  for (const auto& [name, value] : c.tunables)
    h << "#define FLOWTUNE_TUNED_" << upper_case(name) << " " << value << "\n";
  if (!c.tunables.empty()) h << blank;
  // The names the kernels read (kernels/cuda/*.cuh; the tuner passes them to NVRTC as -D):
  // guarded, so -D on the compiler's command line wins.
  const std::string precision = precision_macro(c.precision);
  const bool any = !c.tunables.empty() || !precision.empty();
  if (any && with_comments)
    h << "// The kernels' compile-time constants (kernels/cuda/*.cuh read FT_*).\n";
  if (!precision.empty())
    h << "#if !defined(FT_PRECISION_F32) && !defined(FT_PRECISION_F16) && "
         "!defined(FT_PRECISION_MIXED)\n"
      << "#define " << precision << " 1\n"
      << "#endif\n";
  for (const auto& [name, value] : c.tunables) {
    const std::string macro = kernel_macro(name);
    h << "#ifndef " << macro << "\n#define " << macro << " " << value << "\n#endif\n";
  }
  if (any) h << blank;
  return h.str();
}

// The body of namespace flowtune::tuned (from the blank line after its opening line to the
// blank line before its closing one).
std::string constants_text(const db::ConfigRow& c, const std::string& board) {
  const Constants k = constants_of(c);
  std::ostringstream h;
  h << "\n"
    << "inline constexpr const char* kWorkload = " << cpp_string(c.workload) << ";\n"
    << "inline constexpr const char* kBoard = " << cpp_string(board) << ";\n"
    << "inline constexpr const char* kVariant = " << cpp_string(c.variant) << ";\n"
    << "inline constexpr const char* kPrecision = " << cpp_string(c.precision) << ";\n"
    << "inline constexpr const char* kConfigKey = " << cpp_string(c.key) << ";\n"
    << "/// The whole config as JSON (the flowtune-config line), for "
       "flowtune::parse_tuned_config.\n"
    << "inline constexpr const char* kConfigJson = " << cpp_string(db::config_json(c)) << ";\n\n";
  for (const auto& [camel, value] : k.tunables)
    h << "inline constexpr int k" << camel << " = " << value << ";\n";
  for (const auto& [camel, decl] : k.params) h << "inline constexpr " << decl << ";\n";
  h << "inline constexpr int kClockMhz = " << c.clock_mhz << ";  // 0 = clock not controlled\n\n";
  return h.str();
}

}  // namespace

TunedHeaderParts tuned_header_parts(const db::MeasuredConfig& config, const std::string& board,
                                    const Objective& objective) {
  const db::ConfigRow& c = config.config;
  TunedHeaderParts p;
  p.constants = constants_text(c, board);  // validates the names first
  p.preamble = preamble(config, board, objective);
  p.config_json = comment_text(db::config_json(c));
  p.macros = macros_text(c, false);
  return p;
}

std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              const Objective& objective) {
  const TunedHeaderParts p = tuned_header_parts(config, board, objective);
  return p.preamble + tuned_config_marker() + p.config_json + "\n#pragma once\n\n" +
         macros_text(config.config, true) + "namespace flowtune::tuned {\n" + p.constants +
         "}  // namespace flowtune::tuned\n";
}

}  // namespace flowtune
