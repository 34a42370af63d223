// flowtune's deployment API (api/flowtune/flowtune.hpp): the tuned config read back and the
// TV-L1 solver of its variant, as `tune flow --tuned` runs it: the CPU variants kokkos_global
// and simd_fused always, the CUDA variants (NVRTC + the GPU frame pipeline) when built with CUDA.
#include "flowtune/flowtune.hpp"

#include <memory>
#include <stdexcept>
#include <vector>

#include "kernels/metrics.hpp"
#include "kernels/png_io.hpp"
#include "select/tuned_header_reader.hpp"
#include "variants/cuda/tvl1_schemes.hpp"
#include "variants/kokkos_global.hpp"
#include "variants/simd/simd_fused.hpp"

#ifdef FLOWTUNE_HAVE_CUDA
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_frame_solver.hpp"
#include "variants/cuda/cuda_variant.hpp"
#endif

namespace flowtune {
namespace {

/// The variant of this library called `name` (the one `tune flow` finds in its registry), or
/// nullptr. A CUDA variant checks here that a GPU is usable, so that no NVRTC build is
/// attempted without one; the frame pipeline checks again when it starts.
const FlowVariant* deployed_variant(const std::string& name) {
  // kHostVariants (flowtune.hpp) lists these two: a deployment's compile-time check.
  if (name == kokkos_global_variant().name()) return &kokkos_global_variant();
  if (name == simd_fused_variant().name()) return &simd_fused_variant();
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

TunedConfig read_tuned_config(const std::string& header_path) {
  return read_tuned_header(header_path);
}

TunedConfig read_tuned_config(const std::string& header_path, const std::string& board, int width,
                              int height) {
  return read_tuned_header(header_path, board, width, height);
}

struct Tvl1SizedSolver::Entries {
  std::string path;
  std::vector<TunedHeaderEntry> all;                 // the board's entries
  std::vector<std::unique_ptr<Tvl1Solver>> solvers;  // one per entry, built when first used
  std::size_t index_for(int width, int height) const {
    const TunedHeaderEntry& e = select_tuned_entry(all, all.front().board, width, height, path);
    return std::size_t(&e - all.data());
  }
};

Tvl1SizedSolver::Tvl1SizedSolver(const std::string& header_path, const std::string& board)
    : entries_(std::make_unique<Entries>()) {
  entries_->path = header_path;
  const std::vector<TunedHeaderEntry> all = read_tuned_header_entries(header_path);
  // The board's entries (select_tuned_entry's errors for a missing or ambiguous board).
  const std::string chosen = select_tuned_entry(all, board, 1, 1, header_path).board;
  for (const TunedHeaderEntry& e : all)
    if (e.board == chosen) entries_->all.push_back(e);
  entries_->solvers.resize(entries_->all.size());
}

Tvl1SizedSolver::~Tvl1SizedSolver() = default;
Tvl1SizedSolver::Tvl1SizedSolver(Tvl1SizedSolver&&) noexcept = default;
Tvl1SizedSolver& Tvl1SizedSolver::operator=(Tvl1SizedSolver&&) noexcept = default;

void Tvl1SizedSolver::compute(const Image& i0, const Image& i1, FlowField& flow) {
  const std::size_t k = entries_->index_for(i0.width, i0.height);
  if (!entries_->solvers[k])
    entries_->solvers[k] = std::make_unique<Tvl1Solver>(entries_->all[k].config);
  entries_->solvers[k]->compute(i0, i1, flow);
}

const TunedConfig& Tvl1SizedSolver::config_for(int width, int height) const {
  return entries_->all[entries_->index_for(width, height)].config;
}

std::pair<int, int> Tvl1SizedSolver::tuned_size_for(int width, int height) const {
  const TunedHeaderEntry& e = entries_->all[entries_->index_for(width, height)];
  return {e.width, e.height};
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
  return Tvl1Solver(config).compute(i0, i1);
}

Tvl1Solver::Tvl1Solver(const TunedConfig& config) : config_(config) {
  if (config.workload != "tvl1")
    throw std::invalid_argument("compute_flow: config of workload '" + config.workload +
                                "', not tvl1");
  const FlowVariant* variant = deployed_variant(config.variant);
  if (!variant)
    throw std::invalid_argument(
        "compute_flow: variant '" + config.variant +
        "' is not a TV-L1 variant of this library (kokkos_global, simd_fused; with "
        "CUDA also " +
        cuda::tvl1_cuda_scheme_list() + ")");
  // make_solver checks the tunables and parameters (invalid_reason) and throws
  // std::invalid_argument naming the first problem; a CUDA solver builds its kernels with
  // NVRTC (cached as for `tune`) and throws std::runtime_error when the GPU fails.
  solver_ = variant->make_solver(config);
}

Tvl1Solver::~Tvl1Solver() = default;
Tvl1Solver::Tvl1Solver(Tvl1Solver&&) noexcept = default;
Tvl1Solver& Tvl1Solver::operator=(Tvl1Solver&&) noexcept = default;

void Tvl1Solver::compute(const Image& i0, const Image& i1, FlowField& flow) {
  if (i0.width != i1.width || i0.height != i1.height || i0.size() == 0)
    throw std::invalid_argument("compute_flow: frames must be non-empty and of equal size, got " +
                                std::to_string(i0.width) + "x" + std::to_string(i0.height) +
                                " and " + std::to_string(i1.width) + "x" +
                                std::to_string(i1.height));
  solver_->compute_into(i0, i1, flow);
}

FlowField Tvl1Solver::compute(const Image& i0, const Image& i1) {
  FlowField flow;
  compute(i0, i1, flow);
  return flow;
}

namespace {

/// The width x height frame whose row y starts at p + y * stride elements, as the Image the
/// host solvers take (8-bit values widened exactly).
template <class T>
Image image_of(const T* p, int width, int height, std::size_t stride) {
  Image f(width, height);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) f.at(x, y) = float(p[std::size_t(y) * stride + std::size_t(x)]);
  return f;
}

}  // namespace

void Tvl1Solver::compute_u8(const std::uint8_t* i0, const std::uint8_t* i1, int width, int height,
                            std::ptrdiff_t stride, FlowField& flow) {
  if (!i0 || !i1 || width < 1 || height < 1 || stride < width)
    throw std::invalid_argument("Tvl1Solver::compute_u8: null frame, size " +
                                std::to_string(width) + "x" + std::to_string(height) +
                                " < 1 or stride " + std::to_string(stride) + " < width");
#ifdef FLOWTUNE_HAVE_CUDA
  if (cuda::is_tvl1_cuda_scheme(config_.variant)) {
    cuda::compute_flow_u8(*solver_, i0, i1, width, height, stride, flow);
    return;
  }
#endif
  solver_->compute_into(image_of(i0, width, height, std::size_t(stride)),
                        image_of(i1, width, height, std::size_t(stride)), flow);
}

void Tvl1Solver::compute_f32(const float* i0, const float* i1, int width, int height,
                             std::ptrdiff_t stride, FlowField& flow) {
  const std::ptrdiff_t row = std::ptrdiff_t(width) * std::ptrdiff_t(sizeof(float));
  if (!i0 || !i1 || width < 1 || height < 1 || stride < row ||
      stride % std::ptrdiff_t(sizeof(float)) != 0)
    throw std::invalid_argument("Tvl1Solver::compute_f32: null frame, size " +
                                std::to_string(width) + "x" + std::to_string(height) +
                                " < 1 or stride " + std::to_string(stride) +
                                " bytes < 4 width or not a multiple of 4");
#ifdef FLOWTUNE_HAVE_CUDA
  if (cuda::is_tvl1_cuda_scheme(config_.variant)) {
    cuda::compute_flow_f32(*solver_, i0, i1, width, height, stride, flow);
    return;
  }
#endif
  const std::size_t floats = std::size_t(stride) / sizeof(float);
  solver_->compute_into(image_of(i0, width, height, floats), image_of(i1, width, height, floats),
                        flow);
}

std::shared_ptr<void> Tvl1Solver::page_lock(const void* p, std::size_t bytes) {
  return solver_->page_lock(p, bytes);
}

void Tvl1Solver::compute_device(const float* i0, const float* i1, int width, int height,
                                float* flow, CUstream_st* stream) {
  if (!cuda::is_tvl1_cuda_scheme(config_.variant))
    throw std::invalid_argument("Tvl1Solver::compute_device: variant '" + config_.variant +
                                "' runs on the host; use compute() (the host API)");
#ifdef FLOWTUNE_HAVE_CUDA
  cuda::compute_flow_device(*solver_, i0, i1, width, height, flow, stream);
#else
  (void)i0, (void)i1, (void)width, (void)height, (void)flow, (void)stream;
  throw std::runtime_error(
      "Tvl1Solver::compute_device: this flowtune library was built without CUDA");
#endif
}

void Tvl1Solver::compute_device_pitched(const float* i0, std::size_t pitch0, const float* i1,
                                        std::size_t pitch1, int width, int height, float* flow,
                                        std::size_t flow_pitch, CUstream_st* stream) {
  if (!cuda::is_tvl1_cuda_scheme(config_.variant))
    throw std::invalid_argument("Tvl1Solver::compute_device_pitched: variant '" + config_.variant +
                                "' runs on the host; use compute() (the host API)");
#ifdef FLOWTUNE_HAVE_CUDA
  cuda::compute_flow_device_pitched(*solver_, i0, pitch0, i1, pitch1, width, height, flow,
                                    flow_pitch, stream);
#else
  (void)i0, (void)pitch0, (void)i1, (void)pitch1, (void)width, (void)height, (void)flow,
      (void)flow_pitch, (void)stream;
  throw std::runtime_error(
      "Tvl1Solver::compute_device_pitched: this flowtune library was built without CUDA");
#endif
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
