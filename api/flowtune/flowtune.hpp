// flowtune's deployment API: TV-L1 optical flow with a config tuned by `tune` and exported by
// `tune export` as a header (flowtune::tuned), on the CPU (the kokkos_global and simd_fused
// variants) or, in a flowtune built with CUDA, on the GPU (the CUDA variants, as `tune flow` runs
// them). The one public header of the CMake package `flowtune` (target flowtune::tvl1):
//
//   #include <flowtune/flowtune.hpp>
//   #include "tuned.h"  // from `tune export --board host -o tuned.h` (or --board h200)
//   const auto config = flowtune::parse_tuned_config(flowtune::tuned::kConfigJson);
//   flowtune::write_flo("flow.flo", flowtune::compute_flow("f10.png", "f11.png", config));
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "kernels/image.hpp"    // flowtune::Image (grayscale, [0, 255]), flowtune::FlowField
#include "variants/config.hpp"  // flowtune::Config

struct CUstream_st;  // cudaStream_t is CUstream_st* (cuda_runtime_api.h)

namespace flowtune {

class FlowSolver;

/// The host (CPU) variants compute_flow runs in every build of this library, with or without
/// CUDA; a header tuned for the host board names one of them.
inline constexpr std::string_view kHostVariants[] = {"kokkos_global", "simd_fused"};

/// True when `variant` is one of kHostVariants. constexpr, so that a deployment built for
/// the CPU can check its tuned header at compile time:
///   static_assert(flowtune::is_host_variant(flowtune::tuned::kVariant), "...");
constexpr bool is_host_variant(std::string_view variant) {
  for (const std::string_view v : kHostVariants)
    if (v == variant) return true;
  return false;
}

/// One tuned point of the TV-L1 design space, as `tune export` writes it into the header's
/// `// flowtune-config: {...}` line and its flowtune::tuned::kConfigJson constant: the
/// engine's Config (variants/config.hpp: workload, variant, precision, tunables, params,
/// clock_mhz), so a deployed config is the tuned one with no conversion.
using TunedConfig = Config;

/// Parses the config JSON of a tuned header (flowtune::tuned::kConfigJson, or the text after
/// `// flowtune-config: `): an object with "workload", "variant", "precision" (strings),
/// "clock_mhz" (integer in [0, 100000]), "tunables" (integers) and "params" (numbers).
/// Nothing is checked against a variant here (compute_flow does). Throws
/// std::invalid_argument naming the problem for text that is not such an object.
TunedConfig parse_tuned_config(const std::string& json);

/// Reads the config of a tuned header file written by `tune export` (its
/// `// flowtune-config:` line, as `tune flow --tuned` does). Throws std::runtime_error
/// naming the file when it cannot be read, has no such line, or the line is malformed.
TunedConfig read_tuned_config(const std::string& header_path);

/// The config of a tuned header for `board` ("" = the header's only board) and frames of
/// width x height: in a header tuned at several sizes (`tune export --resolution`, lines
/// `// flowtune-config[<board>@<W>x<H>]:`) the size nearest to the frames' (the pixel count
/// decides: |ln(pixel ratio)| + 1e-3 |ln(aspect ratio)|); a header of one config returns it
/// whatever the size. Throws std::runtime_error naming the file as read_tuned_config does, and
/// when the board is missing or ambiguous (the message lists the header's boards and sizes).
TunedConfig read_tuned_config(const std::string& header_path, const std::string& board, int width,
                              int height);

/// TV-L1 flow I0 -> I1 with `config`, exactly as `tune flow --tuned` computes it (the same
/// solver of config.variant: for "kokkos_global" pyramid, warpings and Kokkos iterations in
/// float on the host, tiles from tile_x/tile_y; for "simd_fused" the same driver with the
/// SIMD iterations on `threads` OpenMP threads (f32, or mixed: binary16 storage); for a CUDA
/// variant ("global", "shared_fusion", "global_pipeline", "shared_pipeline"; precision f32, f16 or
/// mixed) the GPU frame pipeline with the variant's kernels built by NVRTC for the current device,
/// cached under $FLOWTUNE_CACHE_DIR or ~/.cache/flowtune as `tune` caches them).
/// i0, i1: grayscale frames, intensities in [0, 255], of equal width x height. Returns the
/// flow (u right, v down, in pixels), width x height.
/// Throws std::invalid_argument when config is not a TV-L1 config of a known variant, when
/// its tunables or parameters are missing or invalid (the message names the first), or when
/// the frames differ in size or are empty; std::runtime_error for a CUDA variant when the
/// library was built without CUDA, when no CUDA device is usable, or when the NVRTC build
/// or the GPU fails.
FlowField compute_flow(const Image& i0, const Image& i1, const TunedConfig& config);

/// A TV-L1 solver of one tuned config kept across frames (video): the solver compute_flow
/// makes once per call, here made once, so its buffers, its NVRTC build and (on the GPU) one
/// CUDA Graph per frame size (up to 4 sizes) are reused from frame to frame. Not thread-safe:
/// one Tvl1Solver per host thread. Same numerics and errors as compute_flow.
class Tvl1Solver {
 public:
  /// Builds the solver of config.variant (throws as compute_flow does for a bad config, no
  /// GPU for a CUDA variant, or an NVRTC failure).
  explicit Tvl1Solver(const TunedConfig& config);
  ~Tvl1Solver();
  Tvl1Solver(Tvl1Solver&&) noexcept;
  Tvl1Solver& operator=(Tvl1Solver&&) noexcept;

  /// Host API: flow I0 -> I1 (i0, i1 grayscale, [0, 255], equal width x height) into the
  /// caller's `flow` (resized to width x height; u right, v down, in pixels). A CUDA solver
  /// stages the frames through pinned buffers kept per size and writes into flow's storage,
  /// so a `flow` reused at the same size is not reallocated. Synchronous.
  /// Throws std::invalid_argument for empty frames or frames of different sizes,
  /// std::runtime_error when the GPU fails.
  void compute(const Image& i0, const Image& i1, FlowField& flow);
  /// As above, returning a new FlowField.
  FlowField compute(const Image& i0, const Image& i1);
  /// 8-bit host API: flow I0 -> I1 of two 8-bit grey frames (cameras, PNGs), width x height
  /// bytes each, row r at i + r * stride (stride in bytes, >= width), into `flow` as compute()
  /// does. A CUDA solver uploads the bytes and widens them on the device (a quarter of the
  /// float frames' bus time); a host variant widens them on the host. The flow equals
  /// compute()'s on float frames of the same integer values, bit for bit.
  /// Throws std::invalid_argument for null frames, a size < 1 or stride < width,
  /// std::runtime_error when the GPU fails.
  void compute_u8(const std::uint8_t* i0, const std::uint8_t* i1, int width, int height,
                  std::ptrdiff_t stride, FlowField& flow);
  /// Float host API on strided rows: flow I0 -> I1 of two width x height float frames (any
  /// range, normalised jointly as compute() does), row r at i + r * stride bytes (stride >= 4
  /// width, a multiple of 4: an OpenCV CV_32FC1 cv::Mat or an ROI of one), into `flow` as
  /// compute() does. A CUDA solver copies the rows into its pinned upload buffer (where
  /// compute() copies an Image's); a host variant copies them into the Image its solver takes.
  /// The flow equals compute()'s on the same values, bit for bit.
  /// Throws std::invalid_argument for null frames, a size < 1 or a bad stride,
  /// std::runtime_error when the GPU fails.
  void compute_f32(const float* i0, const float* i1, int width, int height, std::ptrdiff_t stride,
                   FlowField& flow);
  /// Keeps the caller's host bytes [p, p + bytes) page-locked while the returned handle
  /// lives (counted per range across the process; cudaHostRegister), so that a CUDA solver's
  /// compute() / compute_u8() upload frames and download the flow by DMA, without the copies
  /// through its own pinned buffers, when both frames and flow.u / flow.v are locked (lock
  /// the flow once it has the frames' size: compute() then keeps its storage). nullptr for a
  /// host variant or when the driver refuses; results never depend on it, only the time.
  /// The memory must stay allocated while the handle lives.
  std::shared_ptr<void> page_lock(const void* p, std::size_t bytes);

  /// Device-pointer API (CUDA variants): frames already on the GPU, the caller's stream and
  /// output buffer, no host copy and no host wait. i0, i1: device pointers to width x height
  /// floats each (row-major, no pitch; intensities of any range, normalised jointly as the
  /// host API does). flow: device pointer to 2 x width x height floats, planar: u (right, in
  /// pixels) of every pixel row-major, then v (down, in pixels). Enqueued on `stream` (a
  /// cudaStream_t of the current device; nullptr = the legacy default stream): the flow is
  /// ready, and i0 / i1 may be reused, once the stream has reached this call. The flow equals
  /// the host API's bit for bit. The first frame at a size allocates the size's buffers
  /// (which synchronises the device); later frames are one graph launch plus two
  /// device-to-device copies in and one out.
  /// Throws std::invalid_argument for null pointers, a size < 1, or a config of a host
  /// variant (kokkos_global), std::runtime_error in a library built without CUDA or when the
  /// GPU fails.
  void compute_device(const float* i0, const float* i1, int width, int height, float* flow,
                      CUstream_st* stream);

  /// Device-pointer API for pitched images (cudaMallocPitch, OpenCV's cv::cuda::GpuMat): as
  /// compute_device, with the frames' row y at i0 + y * pitch0 and i1 + y * pitch1 bytes
  /// (floats; pitch >= 4 width) and the flow written as interleaved (u, v) float pairs, row y
  /// at flow + y * flow_pitch bytes (flow_pitch >= 8 width): OpenCV's CV_32FC1 frames in and
  /// CV_32FC2 flow out. Pitches are multiples of 4 bytes. The flow equals compute_device's bit
  /// for bit and costs no extra copy: pitched frames are copied in by one 2-D copy each (where
  /// compute_device copies them too), the flow leaves by one interleaving launch (where
  /// compute_device copies it). Throws as compute_device does, and std::invalid_argument for a
  /// pitch that is too small or not a multiple of 4.
  void compute_device_pitched(const float* i0, std::size_t pitch0, const float* i1,
                              std::size_t pitch1, int width, int height, float* flow,
                              std::size_t flow_pitch, CUstream_st* stream);

  /// The config this solver runs.
  const TunedConfig& config() const { return config_; }

 private:
  TunedConfig config_;
  std::unique_ptr<FlowSolver> solver_;
};

/// The configs of a header tuned at several frame sizes, each run where it fits: compute()
/// picks the config tuned nearest to the frames' size (read_tuned_config's rule) and keeps one
/// Tvl1Solver per config used, built at its first frame, so a stream that changes size (a
/// camera mode switch) changes config without rebuilding one already used. Not thread-safe.
class Tvl1SizedSolver {
 public:
  /// Reads every config of `board` ("" = the header's only board) in header_path; nothing is
  /// built yet. Throws std::runtime_error naming the file for a header that cannot be read or
  /// has no config of that board.
  Tvl1SizedSolver(const std::string& header_path, const std::string& board = "");
  ~Tvl1SizedSolver();
  Tvl1SizedSolver(Tvl1SizedSolver&&) noexcept;
  Tvl1SizedSolver& operator=(Tvl1SizedSolver&&) noexcept;

  /// Tvl1Solver::compute with the config tuned nearest to i0's size (same errors).
  void compute(const Image& i0, const Image& i1, FlowField& flow);
  /// The config compute() runs for frames of width x height.
  const TunedConfig& config_for(int width, int height) const;
  /// The frame size the config of config_for(width, height) was tuned at (0 x 0 = the inputs'
  /// own sizes), as {width, height}.
  std::pair<int, int> tuned_size_for(int width, int height) const;

 private:
  struct Entries;
  std::unique_ptr<Entries> entries_;
};

/// As above on two PNG files (read as grayscale with BT.601 luma, like `tune flow`).
/// Throws std::runtime_error "<path>: <problem>" for a missing, unreadable, corrupt or
/// oversized PNG (over 64 Mpx), frames of different sizes; else as above.
FlowField compute_flow(const std::string& i0_png, const std::string& i1_png,
                       const TunedConfig& config);

/// Reads a PNG as a grayscale Image in [0, 255] (kernels/png_io.hpp: BT.601 luma, any bit
/// depth). Throws std::runtime_error "<path>: <problem>" on any read error.
Image read_png_gray(const std::string& path);

/// Writes `flow` as a Middlebury .flo file (tag "PIEH", int32 width and height, then
/// float32 (u, v) pairs row-major, little-endian; kernels/flo_io.hpp). Throws
/// std::invalid_argument "<path>: ..." for an empty or inconsistent field and
/// std::runtime_error "<path>: ..." on write errors.
void write_flo(const std::string& path, const FlowField& flow);

/// Reads a Middlebury .flo file (format of write_flo; unknown flow kept as stored, > 1e9 or
/// NaN), e.g. a ground truth such as Middlebury's flow10.flo. Throws std::runtime_error
/// "<path>: <problem>" on a missing, malformed or oversized file (over 64 Mpx).
FlowField read_flo(const std::string& path);

/// Average endpoint error of `flow` against `ground_truth` in pixels: the mean of
/// sqrt((u-u_gt)^2 + (v-v_gt)^2) over the pixels of known ground truth (Baker et al. 2011),
/// the `aepe` that `tune flow --gt` prints. Throws std::invalid_argument when the fields
/// differ in size or no ground-truth pixel is known.
double average_endpoint_error(const FlowField& flow, const FlowField& ground_truth);

}  // namespace flowtune
