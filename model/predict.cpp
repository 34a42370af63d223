#include "model/predict.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/image_ops.hpp"
#include "kernels/tvl1_params.hpp"
#include "tuner/occupancy.hpp"

namespace flowtune::model {
namespace {

struct Occ {
  double occupancy = 1;
  int blocks = 0;
  std::string limited_by;
  bool estimated = false;
};

// The least occupied kernel of a build on a board (the one that hides latency worst).
Occ least_occupied(const Board& board, const Config& config,
                   const std::vector<KernelResources>& kernels) {
  const auto optin = config.tunables.find("optin");
  const bool opt = optin != config.tunables.end() && optin->second != 0;
  Occ out;
  bool any = false;
  for (const KernelResources& k : kernels) {
    if (k.threads_per_block <= 0) continue;
    const OccupancyResult o = occupancy(board.limits, k, -1, opt);
    if (!o.error.empty())
      throw std::invalid_argument(config.label() + ": " + k.kernel + " cannot launch on " +
                                  board.name + ": " + o.error);
    if (!any || o.occupancy < out.occupancy)
      out = {o.occupancy, o.active_blocks_per_sm, o.limited_by, k.estimated};
    any = true;
  }
  return out;
}

double param_or(const Config& c, const char* name, double fallback) {
  const auto it = c.params.find(name);
  return it == c.params.end() ? fallback : it->second;
}

void require_facts(const Board& b) {
  if (!b.model.present || b.memory_bandwidth_gbs <= 0 || b.sm_count <= 0 ||
      b.gpu_clocks_mhz.empty())
    throw std::invalid_argument("board " + b.name + " (" + b.source_file +
                                "): no [model] facts, bandwidth, SM count or clocks; "
                                "tune predict needs them");
}

}  // namespace

double launches_per_iteration(const Config& config) {
  if (config.variant == "global") return 2;
  if (config.variant == "shared_fusion") return 1;
  const auto depth = config.tunables.find("depth");
  if (depth != config.tunables.end() && depth->second > 0) return 1.0 / depth->second;
  return 1;
}

IterationPrediction predict_iterations(const Board& board, const Board& calibration_board,
                                       const std::vector<CalibrationEntry>& calibration,
                                       const Config& config,
                                       const std::vector<KernelResources>& kernels_board,
                                       const std::vector<KernelResources>& kernels_cal,
                                       double occupancy_to_hide) {
  require_facts(board);
  require_facts(calibration_board);
  const CalibrationEntry* cal = find_calibration(calibration, config.variant, config.precision);
  if (!cal)
    throw std::invalid_argument("no calibration for " + config.variant + " " + config.precision +
                                " (model/calibration holds TV-L1 CUDA schemes only)");
  IterationPrediction p;
  p.calibration = cal->board + " " + cal->variant + " " + cal->precision;
  for (const auto& [k, v] : cal->tunables) p.calibration += " " + k + "=" + std::to_string(v);
  p.launches_per_iteration = launches_per_iteration(config);
  const Occ ob = least_occupied(board, config, kernels_board);
  const Occ oc = least_occupied(calibration_board, config, kernels_cal);
  p.occupancy = ob.occupancy;
  p.occupancy_calibration = oc.occupancy;
  p.blocks_per_sm = ob.blocks;
  p.limited_by = ob.limited_by;
  p.estimated_resources = ob.estimated;
  const auto hide = [&](double occ) { return std::min(1.0, occ / occupancy_to_hide); };
  // The calibration's 10 iterations at 2048^2 less their launches (launch_latency_us each).
  const double px = 2048.0 * 2048.0;
  const double cal_launch_ns =
      10 * launches_per_iteration(config) * calibration_board.model.launch_latency_us.value * 1e3;
  const double work = std::max(cal->ns_per_px * 0.05, cal->ns_per_px - cal_launch_ns / px);
  const double memory = work *
                        (calibration_board.memory_bandwidth_gbs / board.memory_bandwidth_gbs) *
                        hide(oc.occupancy) / std::max(1e-6, hide(ob.occupancy));
  const double rate = config.precision == "f16" ? board.model.fp16_rate.value : 1.0;
  const double peak_gflops =
      board.model.peak_fp32_gflops(board.sm_count, board.gpu_clocks_mhz.front()) * rate;
  const double compute = cal->flop_per_px / peak_gflops;  // ns
  p.ns_per_px_10it = std::max(memory, compute);
  p.bound = memory >= compute ? "memory" : "compute";
  return p;
}

const std::vector<std::string>& costed_params() {
  static const std::vector<std::string> names = {"iterations", "n_scales", "n_warpings", "zoom"};
  return names;
}

FrameWork frame_work(const Config& config, int width, int height) {
  Tvl1Params levels;
  levels.zoom = param_or(config, "zoom", 0.5);
  levels.n_scales = std::max(0, int(std::lround(param_or(config, "n_scales", 1))));
  const int scales = effective_n_scales(levels, width, height);
  const int warpings = std::max(1, int(std::lround(param_or(config, "n_warpings", 1))));
  const int iterations = std::max(0, int(std::lround(param_or(config, "iterations", 10))));
  FrameWork fw;
  int w = width, h = height;
  for (int level = 0; level < scales; ++level) {
    const double px = double(w) * double(h);
    fw.iteration_px_10 += warpings * (iterations / 10.0 * px);
    fw.aux_px += warpings * px;
    fw.iterations += double(warpings) * iterations;
    fw.aux_launches += double(warpings) * kAuxLaunchesPerLevel;
    w = zoom_size(w, levels.zoom);
    h = zoom_size(h, levels.zoom);
  }
  return fw;
}

FramePrediction predict_frame(const Board& board, const IterationPrediction& it,
                              const FrameWork& fw) {
  const double launch_us = board.model.launch_latency_us.value;
  const double aux_ns_per_px =
      kAuxBytesPerPixel / (board.memory_bandwidth_gbs * kAuxBandwidthFraction);  // B/(GB/s)=ns
  FramePrediction f;
  const double kernel_ns = fw.iteration_px_10 * it.ns_per_px_10it + fw.aux_px * aux_ns_per_px;
  const double launches = fw.iterations * it.launches_per_iteration + fw.aux_launches;
  f.kernel_ms = kernel_ns * it.board_factor * 1e-6;
  f.launch_ms = launches * launch_us * it.board_factor * 1e-3;
  f.time_ms = f.kernel_ms + f.launch_ms;
  // W x ms = mJ.
  f.energy_mj =
      board.model.load_power_w.value * f.kernel_ms + board.model.idle_power_w.value * f.launch_ms;
  return f;
}

FramePrediction predict_frame(const Board& board, const IterationPrediction& it,
                              const Config& config, int width, int height) {
  return predict_frame(board, it, frame_work(config, width, height));
}

int largest_square_side(const Board& board, const IterationPrediction& it, const Config& config,
                        double budget_ms) {
  int lo = 0, hi = 1 << 15;  // sides in units of 2 px
  while (lo < hi) {
    const int mid = (lo + hi + 1) / 2;
    const int side = 2 * mid;
    if (side >= 16 && predict_frame(board, it, config, side, side).time_ms <= budget_ms)
      lo = mid;
    else
      hi = mid - 1;
  }
  return 2 * lo >= 16 ? 2 * lo : 0;
}

}  // namespace flowtune::model
