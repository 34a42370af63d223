// flowtune's deployment API (api/flowtune/flowtune.hpp): the tuned config read back and the
// TV-L1 solver of its variant, as `tune flow --tuned` runs it: the CPU variant kokkos_global
// always, the CUDA variants (NVRTC + the GPU frame pipeline) when built with CUDA.
#include "flowtune/flowtune.hpp"

#include <cstdint>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "variants/cuda/tvl1_schemes.hpp"
#include "variants/kokkos_global.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#endif

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

/// The variant of this library called `name` (the one `tune flow` finds in its registry), or
/// nullptr. A CUDA variant checks here that a GPU is usable, so that no NVRTC build is
/// attempted without one; the frame pipeline checks again when it starts.
const FlowVariant* deployed_variant(const std::string& name) {
  if (name == kokkos_global_variant().name()) return &kokkos_global_variant();
  if (!cuda::is_tvl1_cuda_scheme(name)) return nullptr;
#ifdef FLOWTUNE_HAVE_CUDA
  if (!cuda::device_available())
    throw std::runtime_error("compute_flow: variant '" + name +
                             "' runs on a CUDA GPU and none is usable here (no device or no "
                             "driver); use a header tuned for the host board (kokkos_global)");
  return cuda::find_tvl1_cuda_scheme(name);
#else
  throw std::runtime_error("compute_flow: variant '" + name +
                           "' is a CUDA variant and this flowtune library was built without "
                           "CUDA (rebuild it with the CUDA toolkit, or use a header tuned for "
                           "the host board, variant kokkos_global)");
#endif
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
  if (i0.width != i1.width || i0.height != i1.height || i0.size() == 0)
    throw std::invalid_argument("compute_flow: frames must be non-empty and of equal size, got " +
                                std::to_string(i0.width) + "x" + std::to_string(i0.height) +
                                " and " + std::to_string(i1.width) + "x" +
                                std::to_string(i1.height));
  const FlowVariant* variant = deployed_variant(config.variant);
  if (!variant)
    throw std::invalid_argument("compute_flow: variant '" + config.variant +
                                "' is not a TV-L1 variant of this library (kokkos_global; with "
                                "CUDA also " +
                                cuda::tvl1_cuda_scheme_list() + ")");
  // make_solver checks the tunables and parameters (invalid_reason) and throws
  // std::invalid_argument naming the first problem; a CUDA solver builds its kernels with
  // NVRTC (cached as for `tune`) and throws std::runtime_error when the GPU fails.
  return variant->make_solver(to_config(config))->compute(i0, i1);
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

double average_endpoint_error(const FlowField& flow, const FlowField& ground_truth) {
  return flow_error(flow, ground_truth).aepe;
}

}  // namespace flowtune
