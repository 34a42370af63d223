// Host entry points of the GPU TV-L1 frame stages (IPOL 2013 multiscale driver, mirrored from
// kernels/tvl1_multiscale.hpp): each enqueues one or two kernels on exec.stream, or, with
// exec.on_host, runs the same per-pixel code (frame_pixels.cuh) in host loops on host
// pointers (the host emulation that tests the stages where there is no GPU).
// All planes are row-major, no pitch; "pair" storage is float2 (f16 = false) or __half2
// (f16 = true), scalar storage float or __half (variants/cuda/device_fields.hpp's Storage).
// Errors: launch failures throw std::runtime_error naming this file and the CUDA error.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

#include "kernels/bilinear.hpp"

namespace flowtune::cuda::frame {

/// Largest Gaussian half-window (taps 0..radius-1) the kernels accept: sigma < 6.2 px.
constexpr int kMaxGaussTaps = 32;

/// Normalised half-window of a Gaussian (IPOL mask.c): w[i] = exp(-i^2 / (2 sigma^2)) / norm
/// for 0 <= i < radius = (int)(5 sigma) + 1, norm = w0 + 2 sum_{i>0} w_i (computed in double).
struct GaussTaps {
  int radius = 1;
  float w[kMaxGaussTaps] = {1.f};
};

/// Where a stage runs: enqueued on `stream`, or synchronously on the host when on_host.
/// With programmatic, each kernel is launched as a programmatic dependent launch
/// (cudaLaunchAttributeProgrammaticStreamSerialization, CUDA 11.8 and newer; the kernels wait
/// for the grid before them first and never let the next one start early,
/// kernels/cuda/grid_dependency.cuh), so its launch overlaps the previous kernel's tail and it
/// reads what stream order gives it; else in stream order.
struct Exec {
  cudaStream_t stream = nullptr;
  bool on_host = false;
  bool programmatic = false;
};

/// Taps of the IPOL Gaussian of `sigma` px (radius (int)(5 sigma) + 1, normalised in double).
/// Throws std::invalid_argument (naming frame_kernels) if sigma <= 0 or the radius exceeds
/// kMaxGaussTaps (sigma >= 6.2 px, i.e. zoom < 0.095 or a presmoothing sigma that large).
GaussTaps gaussian_taps(double sigma);

/// Floats of scratch that minmax_pair needs.
std::size_t minmax_scratch_floats();

/// Joint minimum and maximum of a[0..n) and b[0..n) into minmax[0], minmax[1] (device
/// pointers; two kernels: per-block partials in scratch, then one block).
void minmax_pair(const float* a, const float* b, std::size_t n, float* scratch, float* minmax,
                 Exec exec);

/// Separable Gaussian (IPOL mask.c, reflecting boundaries, rows then columns) of two w x h
/// planes in0, in1 into out0, out1 through tmp0, tmp1 (w x h each). If minmax is not null the
/// row pass first maps every read x -> 255 (x - min) / (max - min) (joint normalisation).
void gaussian_pair(const float* in0, const float* in1, float* tmp0, float* tmp1, float* out0,
                   float* out1, int w, int h, const GaussTaps& taps, const float* minmax,
                   Exec exec);

/// gaussian_pair in one launch and without the tmp planes: each 32 x 16 block computes the
/// row pass of its rows and radius - 1 rows above and below into shared memory, then the
/// column pass from there (frame_pixels.cuh's gaussian_tile_rows / gaussian_tile_cols). Bit for
/// bit gaussian_pair's output (the same per-pixel functions on the same floats; tested in
/// tests/cuda/test_frame_fusion.cpp). The host emulation runs the same two phases block by
/// block.
void gaussian_pair_one_launch(const float* in0, const float* in1, float* out0, float* out1, int w,
                              int h, const GaussTaps& taps, const float* minmax, Exec exec);

/// zoom_out's sampling (the Gaussian pre-filter done by gaussian_pair): out_k(x, y) =
/// bicubic(in_k)(x / zoom, y / zoom) for two w x h planes into ow x oh planes.
void zoom_out_sample_pair(const float* in0, const float* in1, int w, int h, float* out0,
                          float* out1, int ow, int oh, double zoom, Exec exec);

/// How zoom_out_pair_one_launch divides a pyramid level among blocks: each block produces a
/// tile_x x tile_y tile of the output level with `threads` threads (the row pass, the column
/// pass and the sampling each loop over their elements with that stride). A schedule, not
/// math: every output float is the same for every schedule (tests/cuda/test_zoom_schedule.cpp).
/// The Gaussian's vertical reach (2 (radius - 1) rows, 10 at zoom 0.5) is paid once per tile
/// row, the bicubic's 3 texels once per tile side.
struct ZoomSchedule {
  int tile_x = 16, tile_y = 16;  ///< output pixels per block, >= 1 each
  int threads = 512;             ///< threads per block, a multiple of 32 in [32, 1024]
};

/// The default schedule, chosen from a measurement on the H200 (132 SMs; the kernel takes 32
/// registers, so threads and shared memory bound the resident blocks): 16 x 16 output tiles
/// with 256 threads. The 32 x 8 tiles with 256 threads (kZoomSchedule32x8) ran RubberWhale's
/// first level (zoom 0.5) as 500 blocks, 0.47 waves, each thread doing ~7.6 row-pass outputs,
/// ~5 column-pass outputs and one sample in a chain of dependent loads; taller tiles also pay
/// the Gaussian's vertical reach (10 rows at zoom 0.5, 4 at 0.8) once per 32 fine rows instead
/// of 16. Of 11 schedules timed on every level of the zoom-0.5 and zoom-0.8 pyramids of
/// RubberWhale and Grove2 (bench_zoom_schedule; docs/decisions.md, "Pyramid level schedule"),
/// 16 x 16 with 256 threads is the only one faster than 32 x 8 on all four (1.06-1.11x on the
/// pyramid stage); 16 x 16 with 512 threads is 1.14-1.22x on zoom 0.5 but 0.94-0.96x on 0.8.
constexpr ZoomSchedule kZoomScheduleDefault{16, 16, 256};

/// The 32 x 8 schedule of zoom_out_pair_one_launch (32 x 8 outputs, one thread each): the
/// reference of the schedule tests and the baseline bench_zoom_schedule compares against.
constexpr ZoomSchedule kZoomSchedule32x8{32, 8, 256};

/// Throws std::invalid_argument (naming frame_kernels and the field) unless tile_x, tile_y >=
/// 1, tile_x * tile_y <= 65536 and threads is a multiple of 32 in [32, 1024].
void check_zoom_schedule(const ZoomSchedule& s);

/// The launch zoom_out_pair_one_launch makes for a level: grid_x x grid_y x 2 blocks (the two
/// planes), smem_bytes of dynamic shared memory per block (the largest footprint's row-pass
/// tile and smoothed tile; above 48 KiB the level is declined), and with query_occupancy the
/// blocks the driver keeps resident per SM (cudaOccupancyMaxActiveBlocksPerMultiprocessor;
/// 0 otherwise), so that waves = 2 grid_x grid_y / (blocks_per_sm x SMs). Throws as
/// check_zoom_schedule, or std::runtime_error if the occupancy query fails.
struct ZoomLaunch {
  int grid_x = 0, grid_y = 0;
  std::size_t smem_bytes = 0;
  int blocks_per_sm = 0;
};
ZoomLaunch zoom_out_launch(int w, int h, int ow, int oh, const GaussTaps& taps, double zoom,
                           const ZoomSchedule& schedule, bool query_occupancy);

/// A pyramid level in one launch: gaussian_pair (no normalisation) then zoom_out_sample_pair,
/// without the intermediate planes. Each block (`schedule`: a tile_x x tile_y output tile,
/// `threads` threads) computes, in shared memory, the row pass and then the column pass over
/// the fine-plane footprint its bicubic samples read, then samples (frame_pixels.cuh's
/// zoom_tile_rows / zoom_tile_cols / zoom_tile_sample): bit for bit the two stages' output
/// whatever the schedule (tests/cuda/test_frame_fusion.cpp, test_zoom_schedule.cpp). Returns
/// false, doing nothing, when a block's tiles would exceed 48 KiB of shared memory (a zoom far
/// below 0.5 with a wide Gaussian, or a very large tile): the caller then runs the two stages.
/// Throws std::invalid_argument for a schedule check_zoom_schedule rejects.
bool zoom_out_pair_one_launch(const float* in0, const float* in1, int w, int h, float* out0,
                              float* out1, int ow, int oh, const GaussTaps& taps, double zoom,
                              Exec exec, const ZoomSchedule& schedule = kZoomScheduleDefault);

/// Centred gradient of the w x h plane i1, packed per pixel as (I1, I1x, I1y, 0).
void packed_gradient(const float* i1, int w, int h, float4* i1g, Exec exec);

/// One warping's data (numerics contract): grad = (I1x, I1y)(x + u0), rho_c = I1(x + u0) -
/// grad . u0 - I0, bicubic (or bilinear, as interp says) with clamp-to-edge; u0 = u (pairs),
/// all w x h.
void warp(bool f16, const float* i0, const float4* i1g, int w, int h, const void* u, void* grad,
          void* rho_c, Exec exec, WarpingInterp interp = WarpingInterp::bicubic);

/// How warp_level starts a level's flow and dual variable (the stages it replaces).
struct LevelStart {
  enum class Flow {
    keep,     ///< u holds the flow already (a later warping, or an initial flow)
    zero,     ///< u = 0 (the coarsest level; a memset before)
    zoom_in,  ///< u = zoom_in_flow of coarse_u (coarse_w x coarse_h pairs) times factor
  };
  Flow flow = Flow::keep;
  const void* coarse_u = nullptr;
  int coarse_w = 0, coarse_h = 0;
  float factor = 1.f;
  bool zero_p = false;  ///< p1 = p2 = 0 (the level's first warping; two memsets before)
};

/// One launch for what packed_gradient, the memsets of u / p1 / p2, zoom_in_flow and warp do
/// at the start of a level (or warp alone for a later warping): per pixel of the w x h level,
/// u as `start` says (written to u), p1 = p2 = 0 if start.zero_p, then the warping's grad and
/// rho_c with (I1, I1x, I1y) computed from the plane i1 at each read instead of a packed
/// plane. Bit for bit the separate stages' results (frame_pixels.cuh's warp_level_px; tested
/// in tests/cuda/test_frame_fusion.cpp). u, grad, rho_c, p1, p2 in the storage of f16; u must
/// not alias start.coarse_u.
void warp_level(bool f16, const float* i0, const float* i1, int w, int h, void* u, void* grad,
                void* rho_c, void* p1, void* p2, const LevelStart& start, Exec exec,
                WarpingInterp interp = WarpingInterp::bicubic);

/// minmax_pair in one launch: the same per-block partials, and the last block to finish
/// reduces them in minmax_final's order (a counter after the partials, so the results are
/// bit for bit minmax_pair's). `scratch` holds minmax_scratch_floats() floats whose last one
/// (the counter) must be zero before the first call; each call leaves it zero. With copy_a and
/// copy_b (n floats each, not overlapping a, b) the launch also copies a and b there (the
/// device-pointer path's frames into the solver's buffer, without a separate copy).
void minmax_pair_one_launch(const float* a, const float* b, std::size_t n, float* scratch,
                            float* minmax, Exec exec, float* copy_a = nullptr,
                            float* copy_b = nullptr);

/// 8-bit frames to float: out[i] = float(in[i]) for i < 2 w h (two w x h planes, row-major,
/// no pitch, the second right after the first, in and out alike): exact, so the float frames
/// are those of a float upload holding the same integer values (the 8-bit host API,
/// cuda::compute_flow_u8). One launch (blockIdx.z picks the plane).
void bytes_to_float_pair(const std::uint8_t* in, int w, int h, float* out, Exec exec);

/// Planar flow -> interleaved pairs in pitched rows (OpenCV's CV_32FC2 layout): for each pixel
/// (x, y) of w x h, out row y (at out + y * out_pitch bytes) holds (u, v) at floats 2x, 2x + 1,
/// from planar[i] and planar[w h + i], i = y w + x. out_pitch in bytes, >= 8 w and a multiple
/// of 4. Exact (copies). The device-pointer API's pitched flow (Tvl1Solver::compute_device
/// with pitches).
void planar_to_interleaved_rows(const float* planar, int w, int h, float* out,
                                std::size_t out_pitch, Exec exec);

/// Flow up-sampling between scales (IPOL zoom_in of both components, times factor): u_in
/// w x h pairs -> u_out ow x oh pairs.
void zoom_in_flow(bool f16, const void* u_in, int w, int h, void* u_out, int ow, int oh,
                  float factor, Exec exec);

/// w x h pairs u -> planar floats, n = w h: out[0..n) = u.x, out[n..2n) = u.y.
void flow_to_planar(bool f16, const void* u, int w, int h, float* out, Exec exec);

/// The inverse of flow_to_planar with a scale: w x h pairs u = factor * (in[i], in[stride + i])
/// for i < w h (planar floats whose second component starts `stride` floats after the first,
/// stride >= w h); converted to the pairs' storage (f16: rounded to nearest).
void planar_to_flow(bool f16, const float* in, std::size_t stride, int w, int h, float factor,
                    void* u, Exec exec);

/// `iterations` plain TV-L1 iterations in place (two kernels per iteration: update u, update
/// p; global memory only; frame_pixels.cuh's plain_update_*). For tests and as the simplest
/// schedule; tau, lambda, theta as in Tvl1Params.
void plain_iterations(bool f16, const void* grad, const void* rho_c, void* u, void* p1, void* p2,
                      int w, int h, int iterations, float tau, float lambda, float theta,
                      Exec exec);

}  // namespace flowtune::cuda::frame
