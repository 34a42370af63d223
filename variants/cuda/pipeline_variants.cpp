// Adaptors of the pipelined schemes (kernels/cuda/tvl1_pipeline.cuh; Romera et al. 2023,
// sec. 3.3, fig. 6 and 7): `shared_pipeline` (ring of lines in shared memory) and
// `global_pipeline` (the same ring in a per-block global scratch). Tunables: w (strip width =
// ring line width), parts (columns per thread: the 1D block has w / parts threads), depth
// (pipeline depth P = iterations per launch), skew (rows between consecutive iterations: 1 =
// the paper's P + 1 line ring, 2 = 2 barriers per row, 2P + 1 lines; kernels/cuda/
// tvl1_pipeline.cuh), strip_h (output rows per block), rows_per_thread (register blocking:
// rows each thread updates per step, skew 1 only; absent = 1, the same kernel) and, for
// shared_pipeline, optin (1 = opt in to more than 48 KiB of shared memory per block, Volta
// and newer) and staging (1 = the ring filled by cp.async, sm_80 and newer, f32 and mixed,
// rows_per_thread 1; absent = 0, the same kernel).
#include <stdexcept>
#include <string>

#include "variants/cuda/cuda_variant.hpp"
#include "variants/cuda/device_fields.hpp"
#include "variants/cuda/iteration_schedules.hpp"

namespace flowtune::cuda {

int pipeline_ring_bytes(const std::string& precision, int w, int depth, int skew,
                        int rows_per_thread, int staging) {
  if (skew != 1 && skew != 2)
    throw std::invalid_argument("pipeline_ring_bytes: skew must be 1 or 2, got " +
                                std::to_string(skew));
  if (rows_per_thread < 1 || (skew == 2 && rows_per_thread != 1))
    throw std::invalid_argument(
        "pipeline_ring_bytes: rows_per_thread must be >= 1 (1 with skew "
        "2), got " +
        std::to_string(rows_per_thread));
  const int pair = storage_of(precision) == Storage::f32 ? 8 : 4;
  // cp.async staging with skew 1 needs the line of the next row free a step ahead: one more.
  const int extra = staging != 0 && skew == 1 ? 1 : 0;
  return (4 * pair + pair / 2) * w * (skew * depth + rows_per_thread + extra);
}

TunableDomain staging_domain() {
  return {"staging", {0, 1}};
}

int staging_of(const Config& config) {
  const auto it = config.tunables.find(staging_domain().name);
  return it == config.tunables.end() ? 0 : it->second;
}

TunableDomain rows_per_thread_domain() {
  return {"rows_per_thread", {1, 2, 4}};
}

int rows_per_thread_of(const Config& config) {
  const auto it = config.tunables.find(rows_per_thread_domain().name);
  return it == config.tunables.end() ? 1 : it->second;
}

int pixels_per_thread_column(const std::string& precision) {
  return precision == "f16" ? 2 : 1;
}

int pipeline_threads(const Config& c) {
  return c.tunable("w") / pixels_per_thread_column(c.precision) / c.tunable("parts");
}

int pipeline_ring_bytes(const Config& c) {
  return pipeline_ring_bytes(c.precision, c.tunable("w"), c.tunable("depth"), c.tunable("skew"),
                             rows_per_thread_of(c), staging_of(c));
}

namespace {

constexpr int kDefaultSharedPerBlock = 48 * 1024;

std::optional<std::string> pipeline_invalid_reason(const std::string& name, const Config& c) {
  const int w = c.tunable("w"), depth = c.tunable("depth"), parts = c.tunable("parts");
  const int columns = w / pixels_per_thread_column(c.precision);
  if (columns * pixels_per_thread_column(c.precision) != w || columns % parts != 0 ||
      (columns / parts) % 32 != 0)
    return name + ": w=" + std::to_string(w) + " in parts=" + std::to_string(parts) +
           " does not give a whole number of warps per block (" + c.precision + ": " +
           std::to_string(pixels_per_thread_column(c.precision)) + " pixel(s) per thread column)";
  if (c.tunable("skew") > 2)
    return name + ": skew must be 1 or 2, got " + std::to_string(c.tunable("skew"));
  const int rows = rows_per_thread_of(c);
  if (rows < 1) return name + ": rows_per_thread must be >= 1, got " + std::to_string(rows);
  if (rows > 1 && c.tunable("skew") != 1)
    return name + ": rows_per_thread=" + std::to_string(rows) +
           " needs skew=1 (skew 2 already runs depth independent updates per thread and phase)";
  if (columns / parts > 1024)
    return name + ": block of " + std::to_string(columns / parts) + " threads > 1024";
  if (w <= 2 * depth)
    return name + ": w=" + std::to_string(w) + " leaves no output columns at depth " +
           std::to_string(depth) + " (a strip needs w > 2 * depth: depth halo columns per side)";
  return std::nullopt;
}

class SharedPipelineVariant final : public CudaVariant {
 public:
  std::string name() const override { return "shared_pipeline"; }
  std::vector<TunableDomain> tunables() const override {
    std::vector<TunableDomain> d = {
        {"w", {64, 128, 256, 512}}, {"parts", {1, 2}}, {"depth", {2, 3, 5, 8}},  {"skew", {1, 2}},
        {"strip_h", {16, 32, 64}},  {"optin", {0, 1}}, rows_per_thread_domain(), staging_domain(),
        resident_px_domain(),       tiled_px_domain(), persistent_px_domain()};
    for (TunableDomain& t : tiled_shape_domains()) d.push_back(std::move(t));
    return d;
  }
  LaunchShape launch_shape(const Config& c) const override {
    return {pipeline_threads(c), pipeline_ring_bytes(c)};
  }
  std::unique_ptr<IterationSchedule> make_schedule(const Config& c) const override {
    return make_pipeline_schedule(*this, c, RingMemory::shared);
  }

 protected:
  std::optional<std::string> scheme_invalid_reason(const Config& c) const override {
    if (auto why = pipeline_invalid_reason(name(), c)) return why;
    const int bytes = pipeline_ring_bytes(c);
    if (c.tunable("optin") > 1)
      return name() + ": optin must be 0 or 1, got " + std::to_string(c.tunable("optin"));
    const int staging = staging_of(c);
    if (staging < 0 || staging > 1)
      return name() + ": staging must be 0 or 1, got " + std::to_string(staging);
    if (staging == 1 && c.precision == "f16")
      return name() +
             ": staging=1 (cp.async) needs f32 or mixed: the f16 ring holds pixel pairs "
             "transposed from the fields' layout, which a byte copy cannot do";
    if (staging == 1 && rows_per_thread_of(c) != 1)
      return name() + ": staging=1 (cp.async) needs rows_per_thread=1, got " +
             std::to_string(rows_per_thread_of(c));
    if (c.tunable("optin") == 1 && bytes <= kDefaultSharedPerBlock)
      return name() + ": optin=1 adds nothing, the ring needs " + std::to_string(bytes) +
             " bytes <= 48 KiB (same kernel as optin=0)";
    return std::nullopt;
  }
};

class GlobalPipelineVariant final : public CudaVariant {
 public:
  std::string name() const override { return "global_pipeline"; }
  std::vector<TunableDomain> tunables() const override {
    std::vector<TunableDomain> d = {
        {"w", {64, 128, 256}}, {"parts", {1, 2}},         {"depth", {2, 3, 5}},
        {"skew", {1, 2}},      {"strip_h", {16, 32, 64}}, rows_per_thread_domain(),
        resident_px_domain(),  tiled_px_domain(),         persistent_px_domain()};
    for (TunableDomain& t : tiled_shape_domains()) d.push_back(std::move(t));
    return d;
  }
  LaunchShape launch_shape(const Config& c) const override { return {pipeline_threads(c), 0}; }
  std::unique_ptr<IterationSchedule> make_schedule(const Config& c) const override {
    return make_pipeline_schedule(*this, c, RingMemory::global);
  }

 protected:
  std::optional<std::string> scheme_invalid_reason(const Config& c) const override {
    return pipeline_invalid_reason(name(), c);
  }
};

}  // namespace

const CudaVariant& shared_pipeline_variant() {
  static const SharedPipelineVariant v;
  return v;
}

const CudaVariant& global_pipeline_variant() {
  static const GlobalPipelineVariant v;
  return v;
}

}  // namespace flowtune::cuda
