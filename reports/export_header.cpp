// The tuned C++17 header: the selected config as constexpr values and -D macros.
#include "reports/export_header.hpp"

#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "reports/text_format.hpp"
#include "reports/tunables_json.hpp"

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
    throw std::invalid_argument("tuned header: tunable name '" + name +
                                "' is not a lower-case identifier");
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

std::string objective_description(Objective objective) {
  switch (objective) {
    case Objective::time:
      return "time (least time per frame on the Pareto front over time and AEPE)";
    case Objective::aepe:
      return "aepe (least AEPE on the Pareto front over time and AEPE)";
    case Objective::energy:
      return "energy (least energy per frame on the Pareto front over energy and AEPE)";
  }
  return "";
}

}  // namespace

std::string tuned_header_text(const db::MeasuredConfig& config, const std::string& board,
                              Objective objective) {
  const db::ConfigRow& c = config.config;
  const db::MeasurementRow& m = config.measurement;
  const auto tunables = parse_tunables_json(c.tunables_json);

  const std::set<std::string> fixed_names = {
      "Board", "Variant", "Precision", "ConfigKey", "Iterations", "NScales", "NWarpings",
      "Zoom",  "Epsilon", "Tau",       "Lambda",    "Theta",      "ClockMhz"};
  std::set<std::string> used;
  for (const auto& kv : tunables) {
    const std::string camel = camel_case(kv.first);
    if (fixed_names.count(camel) != 0 || !used.insert(camel).second) {
      throw std::invalid_argument("tuned header: tunable '" + kv.first +
                                  "' collides with another constant (k" + camel + ")");
    }
  }

  std::ostringstream h;
  h << "// Tuned TV-L1 configuration for board '" << comment_text(board)
    << "', exported by flowtune (tune export) from its database.\n"
    << "// Objective: " << objective_description(objective) << ".\n"
    << "// Measured figures (dataset " << comment_text(m.dataset) << ", measured at "
    << config.measured_at << ", run " << m.run_id << ", measurement " << config.measurement_id
    << "):\n"
    << "//   time per frame : " << detail::fixed(m.time_ms_median, 3) << " ms (median of "
    << m.n_repeats << " repeats, min " << detail::fixed(m.time_ms_min, 3) << ", max "
    << detail::fixed(m.time_ms_max, 3) << ")\n"
    << "//   time per pixel : " << detail::fixed(m.ns_per_px, 3) << " ns/px\n"
    << "//   energy         : "
    << (m.energy_mj ? detail::fixed(*m.energy_mj, 3) + " mJ per frame" : std::string("n/a")) << "\n"
    << "//   AEPE           : " << detail::fixed(m.aepe, 4) << " px\n"
    << "//   AAE            : " << detail::fixed(m.aae_deg, 3) << " deg\n"
    << "//   config key     : " << comment_text(c.key) << "\n"
    << "//   label          : " << comment_text(c.label) << "\n"
    << "// Deployment: compile the CUDA kernels with the same -D constants, e.g. "
       "-DFLOWTUNE_TUNED_<TUNABLE>=<value>\n"
    << "// as defined below (identical redefinitions are allowed).\n"
    << "#pragma once\n\n";
  for (const auto& kv : tunables) {
    h << "#define FLOWTUNE_TUNED_" << upper_case(kv.first) << " " << kv.second << "\n";
  }
  if (!tunables.empty()) h << "\n";
  h << "namespace flowtune::tuned {\n\n"
    << "inline constexpr const char* kBoard = " << cpp_string(board) << ";\n"
    << "inline constexpr const char* kVariant = " << cpp_string(c.variant) << ";\n"
    << "inline constexpr const char* kPrecision = " << cpp_string(c.precision) << ";\n"
    << "inline constexpr const char* kConfigKey = " << cpp_string(c.key) << ";\n\n";
  for (const auto& kv : tunables) {
    h << "inline constexpr int k" << camel_case(kv.first) << " = " << kv.second << ";\n";
  }
  h << "inline constexpr int kIterations = " << c.iterations << ";\n"
    << "inline constexpr int kNScales = " << c.n_scales << ";\n"
    << "inline constexpr int kNWarpings = " << c.n_warpings << ";\n"
    << "inline constexpr double kZoom = " << cpp_double("zoom", c.zoom) << ";\n"
    << "inline constexpr double kEpsilon = " << cpp_double("epsilon", c.epsilon) << ";\n"
    << "inline constexpr double kTau = " << cpp_double("tau", c.tau) << ";\n"
    << "inline constexpr double kLambda = " << cpp_double("lambda", c.lambda) << ";\n"
    << "inline constexpr double kTheta = " << cpp_double("theta", c.theta) << ";\n"
    << "inline constexpr int kClockMhz = " << c.clock_mhz << ";  // 0 = clock not controlled\n\n"
    << "}  // namespace flowtune::tuned\n";
  return h.str();
}

void export_tuned_header(const db::Repository& repo, const std::string& board, Objective objective,
                         const std::string& out_path, const std::string& dataset) {
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
  db::MeasuredConfig best;
  try {
    best = select_config(measured, objective);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(repo.path() + ": board '" + board + "', dataset '" + chosen +
                             "': " + e.what());
  }
  detail::write_text_file(out_path, tuned_header_text(best, board, objective));
}

}  // namespace flowtune::reports
