// The reference flow of frame pairs without ground truth (see reference_flow.hpp).
#include "workloads/tvl1/reference_flow.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <system_error>

#include "kernels/flo_io.hpp"
#include "kernels/photometric.hpp"
#include "variants/variant.hpp"
#include "workloads/tvl1/tvl1_workload.hpp"

namespace flowtune {
namespace fs = std::filesystem;

std::uint64_t fnv1a64(const void* bytes, std::size_t n, std::uint64_t seed) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  std::uint64_t h = seed;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string hex64(std::uint64_t value) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(value));
  return text;
}

Config reference_config() {
  const FlowVariant* variant = nullptr;
  for (const char* name : {"simd_fused", "kokkos_global"})
    if ((variant = find_flow_variant(name)) != nullptr) break;
  if (!variant)
    throw std::runtime_error(
        "no host TV-L1 variant (simd_fused, kokkos_global) is compiled in to compute the "
        "reference flow of inputs without ground truth");
  Config c;
  c.workload = "tvl1";
  c.variant = variant->name();
  c.precision = "f32";
  for (const TunableDomain& d : variant->tunables())
    c.tunables[d.name] = d.default_values.empty() ? d.values.front() : d.default_values.back();
  c.params = tvl1_workload().default_params();
  // Each pair's reference starts from 0: warm_start (a stream's chaining, flow_runner.hpp)
  // is no parameter of it, and leaving it out keeps the reference's hash, so its cache and
  // the footage's dataset key, what they were before the parameter existed.
  c.params.erase("warm_start");
  return c;
}

std::string reference_config_text(const Config& config) {
  return config.variant + " " + config.precision + " (" + config.params_text() + ")";
}

std::string reference_config_hash(const Config& config) {
  const std::string text =
      config.workload + "|" + config.variant + "|" + config.precision + "|" + config.params_text();
  return hex64(fnv1a64(text.data(), text.size()));
}

std::string reference_cache_dir() {
  std::string base;
  if (const char* e = std::getenv("FLOWTUNE_CACHE_DIR"); e && *e)
    base = e;
  else if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x)
    base = std::string(x) + "/flowtune";
  else if (const char* h = std::getenv("HOME"); h && *h)
    base = std::string(h) + "/.cache/flowtune";
  else
    base = fs::temp_directory_path().string() + "/flowtune-cache";
  return base + "/reference-flow";
}

namespace {

std::uint64_t pair_hash(const Sequence& s, const std::string& config_hash) {
  std::uint64_t h = fnv1a64(config_hash.data(), config_hash.size());
  for (const Image* im : {&s.i0, &s.i1}) {
    const int shape[2] = {im->width, im->height};
    h = fnv1a64(shape, sizeof shape, h);
    h = fnv1a64(im->data.data(), im->data.size() * sizeof(float), h);
  }
  return h;
}

bool read_cached(const fs::path& file, int width, int height, FlowField& out) {
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return false;
  try {
    FlowField f = read_flo(file.string());
    if (f.width != width || f.height != height) return false;
    out = std::move(f);
    return true;
  } catch (const std::exception&) {
    return false;  // a damaged cache file: computed again
  }
}

bool write_cached(const fs::path& file, const FlowField& flow) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  const fs::path tmp = file.string() + ".tmp" + std::to_string(::getpid());
  try {
    write_flo(tmp.string(), flow);
  } catch (const std::exception&) {
    fs::remove(tmp, ec);
    return false;
  }
  fs::rename(tmp, file, ec);
  if (ec) fs::remove(tmp, ec);
  return !ec;
}

}  // namespace

ReferenceFlowStats attach_reference_flows(
    std::vector<Sequence>& sequences, const Config& config, const std::string& cache_dir,
    const std::function<void(const std::string&)>& on_compute) {
  ReferenceFlowStats stats;
  stats.cache_dir = cache_dir;
  const std::string config_hash = reference_config_hash(config);
  std::unique_ptr<FlowSolver> solver;
  for (std::size_t k = 0; k < sequences.size(); ++k) {
    Sequence& s = sequences[k];
    const std::string stem = hex64(pair_hash(s, config_hash));
    const fs::path forward_file = fs::path(cache_dir) / (stem + "-forward.flo");
    const fs::path backward_file = fs::path(cache_dir) / (stem + "-backward.flo");
    FlowField forward, backward;
    if (read_cached(forward_file, s.i0.width, s.i0.height, forward) &&
        read_cached(backward_file, s.i0.width, s.i0.height, backward)) {
      ++stats.cached;
    } else {
      if (on_compute)
        on_compute(s.name + " (" + std::to_string(k + 1) + " of " +
                   std::to_string(sequences.size()) + ")");
      try {
        if (!solver) {
          const FlowVariant* v = find_flow_variant(config.variant);
          if (!v) throw std::runtime_error("variant " + config.variant + " is not compiled in");
          solver = v->make_solver(config);
        }
        forward = solver->compute(s.i0, s.i1);
        backward = solver->compute(s.i1, s.i0);
      } catch (const std::exception& e) {
        throw std::runtime_error(s.name + ": the reference flow (" + reference_config_text(config) +
                                 ") failed: " + e.what());
      }
      write_cached(forward_file, forward);
      write_cached(backward_file, backward);
      ++stats.computed;
    }
    s.visible = forward_backward_visible(forward, backward);
    s.reference = std::move(forward);
  }
  return stats;
}

}  // namespace flowtune
