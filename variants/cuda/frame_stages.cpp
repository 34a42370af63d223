// The stage sequence of one GPU TV-L1 frame (see frame_stages.hpp).
#include "variants/cuda/frame_stages.hpp"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <utility>

#include "kernels/cuda/frame/flow_filters.hpp"
#include "kernels/cuda/frame/occlusion_filters.hpp"
#include "variants/cuda/cuda_driver.hpp"
#include "variants/cuda/cuda_variant.hpp"

namespace flowtune::cuda {

FrameStages::FrameStages(const Tvl1Params& p, Storage storage, const FrameOptions& options,
                         std::unique_ptr<IterationSchedule> schedule, StageMarks& marks)
    : params_(p),
      storage_(storage),
      options_(options),
      schedule_(std::move(schedule)),
      marks_(marks) {
  const double ps = params_.presmoothing_sigma;
  presmooth_taps_ = ps > 0 ? frame::gaussian_taps(ps) : frame::GaussTaps{};
  const double z = params_.zoom;
  zoom_taps_ = frame::gaussian_taps(0.6 * std::sqrt(1.0 / (z * z) - 1.0));
}

void FrameStages::prepare(const Config& config) {
  if (!options_.host_emulation) {
    const LaunchOrder order = options_.programmatic_launch && programmatic_launch_supported()
                                  ? LaunchOrder::programmatic
                                  : LaunchOrder::stream;
    schedule_->set_launch_order(order);
    programmatic_ = order == LaunchOrder::programmatic && options_.programmatic_frame_kernels;
    const int resident_px =
        options_.resident_max_pixels >= 0 ? options_.resident_max_pixels : resident_px_of(config);
    if (resident_px > 0) resident_ = std::make_unique<ResidentLevels>(config, resident_px, order);
    const int tiled_px =
        options_.tiled_max_pixels >= 0 ? options_.tiled_max_pixels : tiled_px_of(config);
    if (tiled_px > 0)
      tiled_ = std::make_unique<TiledLevels>(config, tiled_px, order,
                                             options_.tiled_median ? params_.median_window : 0);
    const int persistent_px = options_.persistent_max_pixels >= 0 ? options_.persistent_max_pixels
                                                                  : persistent_px_of(config);
    if (persistent_px > 0)
      persistent_ = std::make_unique<PersistentLevels>(
          config, persistent_px, options_.persistent_syncs, options_.persistent_blocks_per_sm,
          options_.persistent_threads);
  }
  if (params_.epsilon > 0) stop_ = std::make_unique<EpsilonStop>(options_.host_emulation);
  if (params_.texture_alpha > 0)
    texture_ = std::make_unique<TextureStage>(params_, options_.host_emulation,
                                              options_.rof_iterations_per_launch);
}

frame::Exec FrameStages::exec_on(cudaStream_t s) const {
  return frame::Exec{s, options_.host_emulation, programmatic_ && !options_.host_emulation};
}

void FrameStages::upload(cudaStream_t s, FrameBuffers& b, const void* in0, const void* in1,
                         FrameInput input) {
  const std::size_t n = std::size_t(b.width) * b.height;
  float* raw = b.raw.as<float>();
  if (input == FrameInput::host_u8) {
    copy(s, b.raw_u8.as(), in0, 2 * n);
    marks_.mark(s, "upload", -1);
    widen_u8(s, b);
    normalise(s, b);
    return;
  }
  if (options_.fused_stages && input == FrameInput::device_float && !options_.host_emulation) {
    frame::minmax_pair_one_launch(static_cast<const float*>(in0), static_cast<const float*>(in1), n,
                                  b.minmax_scratch.as<float>(), b.minmax.as<float>(),
                                  frame::Exec{s, false, programmatic_}, raw, raw + n);
    marks_.mark(s, "upload", -1);
    marks_.mark(s, "normalise", -1);
    return;
  }
  if (static_cast<const float*>(in1) == static_cast<const float*>(in0) + n) {
    copy(s, raw, in0, 2 * n * sizeof(float));
  } else {
    copy(s, raw, in0, n * sizeof(float));
    copy(s, raw + n, in1, n * sizeof(float));
  }
  marks_.mark(s, "upload", -1);
  normalise(s, b);
}

void FrameStages::upload_pitched(cudaStream_t s, FrameBuffers& b, const float* in0,
                                 std::size_t pitch0, const float* in1, std::size_t pitch1) {
  const std::size_t row = std::size_t(b.width) * sizeof(float);
  if (pitch0 == row && pitch1 == row) {
    upload(s, b, in0, in1, FrameInput::device_float);
    return;
  }
  float* raw = b.raw.as<float>();
  const std::size_t n = std::size_t(b.width) * b.height;
  check_frame(cudaMemcpy2DAsync(raw, row, in0, pitch0, row, std::size_t(b.height),
                                cudaMemcpyDeviceToDevice, s),
              "cudaMemcpy2DAsync");
  check_frame(cudaMemcpy2DAsync(raw + n, row, in1, pitch1, row, std::size_t(b.height),
                                cudaMemcpyDeviceToDevice, s),
              "cudaMemcpy2DAsync");
  marks_.mark(s, "upload", -1);
  normalise(s, b);
}

void FrameStages::widen_u8(cudaStream_t s, FrameBuffers& b) {
  frame::bytes_to_float_pair(b.raw_u8.as<std::uint8_t>(), b.width, b.height, b.raw.as<float>(),
                             exec_on(s));
}

void FrameStages::normalise(cudaStream_t s, FrameBuffers& b) {
  if (!options_.fused_stages) return;
  const std::size_t n = std::size_t(b.width) * b.height;
  float* raw = b.raw.as<float>();
  frame::minmax_pair_one_launch(raw, raw + n, n, b.minmax_scratch.as<float>(), b.minmax.as<float>(),
                                exec_on(s));
  marks_.mark(s, "normalise", -1);
}

void FrameStages::download(cudaStream_t s, FrameBuffers& b, void* out) {
  const std::size_t n = std::size_t(b.width) * b.height;
  copy(s, out, b.flow.as(), 2 * n * sizeof(float));
  marks_.mark(s, "download", -1);
}

void FrameStages::download_interleaved(cudaStream_t s, FrameBuffers& b, float* out,
                                       std::size_t pitch) {
  frame::planar_to_interleaved_rows(b.flow.as<float>(), b.width, b.height, out, pitch, exec_on(s));
  marks_.mark(s, "download", -1);
}

void FrameStages::core(cudaStream_t stream, FrameBuffers& b) {
  const frame::Exec exec = exec_on(stream);
  const Tvl1Params& p = params_;
  const bool f16 = storage_ == Storage::f16;
  const int w = b.width, h = b.height;
  const std::size_t n = std::size_t(w) * h;
  float* raw = b.raw.as<float>();
  float* tmp = b.tmp.as<float>();
  float* smooth = b.smooth.as<float>();

  // 1. Joint normalisation to [0, 255] (inside the row pass) and presmoothing.
  if (!options_.fused_stages) {  // fused: done by upload(), outside the graph
    frame::minmax_pair(raw, raw + n, n, b.minmax_scratch.as<float>(), b.minmax.as<float>(), exec);
    marks_.mark(stream, "normalise", -1);
  }
  if (texture_) {  // Wedel et al. 2009, sec. 2.3: the texture frames, normalised again
    texture_->run(raw, raw + n, w, h, b.minmax.as<float>(), exec);
    frame::minmax_pair(raw, raw + n, n, b.minmax_scratch.as<float>(), b.minmax.as<float>(), exec);
    marks_.mark(stream, "structure_texture", -1);
  }
  if (options_.fused_stages)
    frame::gaussian_pair_one_launch(raw, raw + n, b.levels[0].i0.as<float>(),
                                    b.levels[0].i1.as<float>(), w, h, presmooth_taps_,
                                    b.minmax.as<float>(), exec);
  else
    frame::gaussian_pair(raw, raw + n, tmp, tmp + n, b.levels[0].i0.as<float>(),
                         b.levels[0].i1.as<float>(), w, h, presmooth_taps_, b.minmax.as<float>(),
                         exec);
  marks_.mark(stream, "presmooth", 0);
  // 2. The pyramid by zoom_out.
  for (std::size_t s = 1; s < b.levels.size(); ++s) {
    const PyramidLevel& a = b.levels[s - 1];
    const PyramidLevel& z = b.levels[s];
    if (options_.fused_stages &&
        frame::zoom_out_pair_one_launch(a.i0.as<float>(), a.i1.as<float>(), a.width, a.height,
                                        z.i0.as<float>(), z.i1.as<float>(), z.width, z.height,
                                        zoom_taps_, p.zoom, exec, options_.pyramid_schedule)) {
      marks_.mark(stream, "pyramid", int(s));
      continue;
    }
    if (options_.fused_stages)
      frame::gaussian_pair_one_launch(a.i0.as<float>(), a.i1.as<float>(), smooth, smooth + n,
                                      a.width, a.height, zoom_taps_, nullptr, exec);
    else
      frame::gaussian_pair(a.i0.as<float>(), a.i1.as<float>(), tmp, tmp + n, smooth, smooth + n,
                           a.width, a.height, zoom_taps_, nullptr, exec);
    frame::zoom_out_sample_pair(smooth, smooth + n, a.width, a.height, z.i0.as<float>(),
                                z.i1.as<float>(), z.width, z.height, p.zoom, exec);
    marks_.mark(stream, "pyramid", int(s));
  }
  // 3. Coarse to fine. Fused: each level's start (u = 0 or the coarser flow zoom_in-ed, p =
  // 0) and the gradient of I1 happen inside the warping's launch (frame::warp_level).
  const bool fused = options_.fused_stages;
  int cur = 0;
  if (init_flow_) {
    init_flow(stream, b, b.u[cur].as());
  } else if (!fused) {
    const PyramidLevel& c = b.levels.back();
    zero(stream, b.u[cur].as(), std::size_t(c.width) * c.height * pair_bytes());
  }
  const float factor = static_cast<float>(1.0 / p.zoom);
  for (int s = int(b.levels.size()) - 1; s >= 0; --s) {
    const PyramidLevel& l = b.levels[std::size_t(s)];
    const std::size_t ln = std::size_t(l.width) * l.height;
    frame::LevelStart start;
    start.zero_p = true;
    if (s == int(b.levels.size()) - 1) {
      start.flow = init_flow_ ? frame::LevelStart::Flow::keep : frame::LevelStart::Flow::zero;
    } else {
      const PyramidLevel& coarser = b.levels[std::size_t(s + 1)];
      start.flow = frame::LevelStart::Flow::zoom_in;
      start.coarse_u = b.u[cur].as();
      start.coarse_w = coarser.width;
      start.coarse_h = coarser.height;
      start.factor = factor;
      cur = 1 - cur;  // the zoom_in-ed flow goes to the other buffer
    }
    if (!fused) {
      frame::packed_gradient(l.i1.as<float>(), l.width, l.height, b.i1g.as<float4>(), exec);
      zero(stream, b.p1.as(), ln * pair_bytes());
      zero(stream, b.p2.as(), ln * pair_bytes());
      marks_.mark(stream, "gradient", s);
    }
    DeviceFields f;
    f.width = l.width;
    f.height = l.height;
    f.storage = storage_;
    f.grad = b.grad.as();
    f.rho_c = b.rho_c.as();
    f.u = b.u[cur].as();
    f.p1 = b.p1.as();
    f.p2 = b.p2.as();
    for (int k = 0; k < p.n_warpings; ++k) {
      if (fused)
        frame::warp_level(f16, l.i0.as<float>(), l.i1.as<float>(), l.width, l.height, f.u, f.grad,
                          f.rho_c, f.p1, f.p2, k == 0 ? start : frame::LevelStart{}, exec,
                          p.warping_interp);
      else
        frame::warp(f16, l.i0.as<float>(), b.i1g.as<float4>(), l.width, l.height, f.u, f.grad,
                    f.rho_c, exec, p.warping_interp);
      marks_.mark(stream, "warping", s);
      const bool resident = resident_ && resident_->fits(l.width, l.height);
      const bool persistent = !resident && persistent_ && persistent_->takes(l.width, l.height);
      const bool tiled = !resident && !persistent && tiled_ && tiled_->takes(l.width, l.height);
      // The median in the tiled level's last launch (FrameOptions::tiled_median).
      const bool median_in_tiled =
          tiled && !stop_ && options_.tiled_median && tiled_->fuses_median(p.median_window);
      const auto run_iterations = [&](int n_it) {
        if (resident)
          resident_->run(f, n_it, stream);
        else if (tiled)
          tiled_->run(f, n_it, stream);
        else
          schedule_->run(f, n_it, stream);
      };
      if (persistent)  // the stopping test, if any, runs inside the launch (no read-back)
        persistent_->run(f, p.iterations, stream, stop_ ? p.epsilon : 0.0,
                         stop_ ? p.epsilon_check_every : 0);
      else if (stop_)
        stop_->run(f, p.iterations, p.epsilon, p.epsilon_check_every, run_iterations, stream);
      else if (median_in_tiled)
        tiled_->run(f, p.iterations, stream, p.median_window);
      else
        run_iterations(p.iterations);
      marks_.mark(stream,
                  resident     ? "iterations_resident"
                  : persistent ? "iterations_persistent"
                  : tiled      ? "iterations_tiled"
                               : "iterations",
                  s);
      if (p.median_window > 0 &&
          !median_in_tiled) {  // Wedel et al. 2009, sec. 3: into the other flow buffer
        frame::median_flow(f16, b.u[cur].as(), b.u[1 - cur].as(), l.width, l.height,
                           p.median_window, exec);
        cur = 1 - cur;
        f.u = b.u[cur].as();
        marks_.mark(stream, "median", s);
      }
      if (p.nl_median_window > 0) {  // Sun, Roth, Black 2010, sec. 4: guided by this level's I0
        if (p.nl_occlusion)          // eq. 10's o(x_j) / o(x_i); grad (dead until the next warping)
          frame::weighted_median_flow_occlusion(  // holds the occlusion cost (n pairs >= n floats)
              f16, b.u[cur].as(), b.u[1 - cur].as(), l.i0.as<float>(), l.i1.as<float>(),
              b.grad.as<float>(), l.width, l.height, p.nl_median_window, float(p.nl_sigma_spatial),
              float(p.nl_sigma_color), float(p.nl_sigma_divergence), float(p.nl_sigma_residual),
              exec);
        else
          frame::weighted_median_flow(f16, b.u[cur].as(), b.u[1 - cur].as(), l.i0.as<float>(),
                                      l.width, l.height, p.nl_median_window,
                                      float(p.nl_sigma_spatial), float(p.nl_sigma_color), exec);
        cur = 1 - cur;
        f.u = b.u[cur].as();
        marks_.mark(stream, "nl_median", s);
      }
    }
    if (s == 0 || fused) continue;
    const PyramidLevel& finer = b.levels[std::size_t(s - 1)];
    frame::zoom_in_flow(f16, b.u[cur].as(), l.width, l.height, b.u[1 - cur].as(), finer.width,
                        finer.height, factor, exec);
    marks_.mark(stream, "zoom_in", s - 1);
  }
  frame::flow_to_planar(f16, b.u[cur].as(), w, h, b.flow.as<float>(), exec);
  marks_.mark(stream, "to_planar", 0);
}

void FrameStages::init_flow(cudaStream_t stream, FrameBuffers& b, void* u) {
  const frame::Exec exec = exec_on(stream);
  const std::size_t n = std::size_t(b.width) * b.height;
  float* a = b.flow.as<float>();
  float* tmp = b.tmp.as<float>();
  float* smooth = b.smooth.as<float>();
  copy(stream, a, init_flow_, 2 * n * sizeof(float));
  for (std::size_t s = 1; s < b.levels.size(); ++s) {
    const PyramidLevel& f = b.levels[s - 1];
    const PyramidLevel& z = b.levels[s];
    frame::gaussian_pair(a, a + n, tmp, tmp + n, smooth, smooth + n, f.width, f.height, zoom_taps_,
                         nullptr, exec);
    frame::zoom_out_sample_pair(smooth, smooth + n, f.width, f.height, a, a + n, z.width, z.height,
                                params_.zoom, exec);
  }
  const PyramidLevel& c = b.levels.back();
  const double factor = std::pow(params_.zoom, double(b.levels.size() - 1));
  frame::planar_to_flow(storage_ == Storage::f16, a, n, c.width, c.height,
                        static_cast<float>(factor), u, exec);
  marks_.mark(stream, "init_flow", int(b.levels.size()) - 1);
}

void FrameStages::copy(cudaStream_t s, void* dst, const void* src, std::size_t bytes) {
  if (options_.host_emulation)
    std::memcpy(dst, src, bytes);
  else
    check_frame(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDefault, s), "cudaMemcpyAsync");
}
void FrameStages::zero(cudaStream_t s, void* dst, std::size_t bytes) {
  if (options_.host_emulation)
    std::memset(dst, 0, bytes);
  else
    check_frame(cudaMemsetAsync(dst, 0, bytes, s), "cudaMemsetAsync");
}

}  // namespace flowtune::cuda
