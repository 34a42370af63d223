// flowtune's deployment API (api/flowtune/flowtune.hpp): the tuned config read back and the
// CPU TV-L1 solver of the kokkos_global variant, as `tune flow --tuned` runs it.
#include "flowtune/flowtune.hpp"

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kernels/png_io.hpp"
#include "variants/kokkos_global.hpp"

namespace flowtune {
namespace {

const nlohmann::json& member(const nlohmann::json& j, const char* name, const std::string& text) {
  const auto it = j.find(name);
  if (it == j.end())
    throw std::invalid_argument(std::string("tuned config: '") + name + "' missing in '" + text +
                                "'");
  return *it;
}

std::string string_member(const nlohmann::json& j, const char* name, const std::string& text) {
  const nlohmann::json& v = member(j, name, text);
  if (!v.is_string())
    throw std::invalid_argument(std::string("tuned config: '") + name + "' is not a string in '" +
                                text + "'");
  return v.get<std::string>();
}

const nlohmann::json& object_member(const nlohmann::json& j, const char* name,
                                    const std::string& text) {
  const nlohmann::json& v = member(j, name, text);
  if (!v.is_object())
    throw std::invalid_argument(std::string("tuned config: '") + name + "' is not an object in '" +
                                text + "'");
  return v;
}

Config to_config(const TunedConfig& t) {
  Config c;
  c.workload = t.workload;
  c.variant = t.variant;
  c.precision = t.precision;
  c.tunables = t.tunables;
  c.params = t.params;
  c.clock_mhz = t.clock_mhz;
  return c;
}

}  // namespace

TunedConfig parse_tuned_config(const std::string& json) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(json);
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument("tuned config: not JSON: '" + json + "' (" + e.what() + ")");
  }
  if (!j.is_object())
    throw std::invalid_argument("tuned config: not a JSON object: '" + json + "'");
  TunedConfig c;
  c.workload = string_member(j, "workload", json);
  c.variant = string_member(j, "variant", json);
  c.precision = string_member(j, "precision", json);
  const nlohmann::json& clock = member(j, "clock_mhz", json);
  if (!clock.is_number_integer() || clock.get<std::int64_t>() < 0 ||
      clock.get<std::int64_t>() > 100000)
    throw std::invalid_argument(
        "tuned config: clock_mhz must be a whole number in [0, 100000] in '" + json + "'");
  c.clock_mhz = static_cast<int>(clock.get<std::int64_t>());
  for (const auto& [name, value] : object_member(j, "tunables", json).items()) {
    if (!value.is_number_integer() || value.get<std::int64_t>() < INT32_MIN ||
        value.get<std::int64_t>() > INT32_MAX)
      throw std::invalid_argument("tuned config: tunable '" + name + "' is not an int in '" + json +
                                  "'");
    c.tunables[name] = static_cast<int>(value.get<std::int64_t>());
  }
  for (const auto& [name, value] : object_member(j, "params", json).items()) {
    if (!value.is_number())
      throw std::invalid_argument("tuned config: parameter '" + name + "' is not a number in '" +
                                  json + "'");
    c.params[name] = value.get<double>();
  }
  return c;
}

TunedConfig read_tuned_config(const std::string& header_path) {
  std::ifstream in(header_path);
  if (!in) throw std::runtime_error(header_path + ": cannot open the tuned header");
  const std::string marker = "// flowtune-config: ";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(marker, 0) != 0) continue;
    try {
      return parse_tuned_config(line.substr(marker.size()));
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(header_path + ": malformed flowtune-config line (" + e.what() + ")");
    }
  }
  throw std::runtime_error(header_path +
                           ": not a flowtune tuned header (no '// flowtune-config:' "
                           "line; export it again with `tune export`)");
}

FlowField compute_flow(const Image& i0, const Image& i1, const TunedConfig& config) {
  if (config.workload != "tvl1")
    throw std::invalid_argument("compute_flow: config of workload '" + config.workload +
                                "', not tvl1");
  const FlowVariant& variant = kokkos_global_variant();
  if (config.variant != variant.name())
    throw std::invalid_argument("compute_flow: variant '" + config.variant +
                                "' is not in this library (only the CPU variant " + variant.name() +
                                "; tune flow runs the CUDA ones)");
  if (i0.width != i1.width || i0.height != i1.height || i0.size() == 0)
    throw std::invalid_argument("compute_flow: frames must be non-empty and of equal size, got " +
                                std::to_string(i0.width) + "x" + std::to_string(i0.height) +
                                " and " + std::to_string(i1.width) + "x" +
                                std::to_string(i1.height));
  // make_solver checks the tunables and parameters (invalid_reason) and throws
  // std::invalid_argument naming the first problem.
  return variant.make_solver(to_config(config))->compute(i0, i1);
}

FlowField compute_flow(const std::string& i0_png, const std::string& i1_png,
                       const TunedConfig& config) {
  const Image i0 = read_png_gray(i0_png);
  const Image i1 = read_png_gray(i1_png);
  if (i0.width != i1.width || i0.height != i1.height)
    throw std::runtime_error(i1_png + ": frames of different sizes (" + std::to_string(i0.width) +
                             "x" + std::to_string(i0.height) + " vs " + std::to_string(i1.width) +
                             "x" + std::to_string(i1.height) + ")");
  return compute_flow(i0, i1, config);
}

}  // namespace flowtune
