#include "kernels/flow_pictures.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/flow_viz.hpp"
#include "kernels/metrics.hpp"

namespace flowtune {

int picture_step(int width, int height, int max_side) {
  if (max_side <= 0) return 1;
  const int side = std::max(width, height);
  return std::max(1, (side + max_side - 1) / max_side);
}

std::vector<FlowPicture> flow_pictures(const FlowField& flow, const FlowField& truth,
                                       int max_side) {
  if (flow.width != truth.width || flow.height != truth.height || flow.size() != truth.size())
    throw std::invalid_argument("flow_pictures: flow " + std::to_string(flow.width) + "x" +
                                std::to_string(flow.height) + " vs ground truth " +
                                std::to_string(truth.width) + "x" + std::to_string(truth.height));
  if (flow.width < 1 || flow.height < 1) return {};
  const int s = picture_step(flow.width, flow.height, max_side);
  const int w = (flow.width + s - 1) / s, h = (flow.height + s - 1) / s;
  const double radius = flow_viz_radius(truth);
  std::vector<FlowPicture> out = {{"flow", {w, h, {}}, radius},
                                  {"ground_truth", {w, h, {}}, radius},
                                  {"endpoint_error", {w, h, {}}, kEndpointErrorWhitePx}};
  for (FlowPicture& p : out) p.image.rgb.assign(std::size_t(w) * std::size_t(h) * 3, 0);
  for (int y = 0; y < h; ++y) {
    const int sy = std::min(y * s + s / 2, flow.height - 1);
    for (int x = 0; x < w; ++x) {
      const int sx = std::min(x * s + s / 2, flow.width - 1);
      const std::size_t i = std::size_t(sy) * std::size_t(flow.width) + std::size_t(sx);
      const std::size_t o = 3 * (std::size_t(y) * std::size_t(w) + std::size_t(x));
      auto put = [&](FlowPicture& p, std::array<std::uint8_t, 3> c) {
        std::copy(c.begin(), c.end(), p.image.rgb.begin() + std::ptrdiff_t(o));
      };
      const bool flow_known = is_known_flow(flow.u[i], flow.v[i]);
      const bool truth_known = is_known_flow(truth.u[i], truth.v[i]);
      if (flow_known) put(out[0], flow_color(flow.u[i] / radius, flow.v[i] / radius));
      if (truth_known) put(out[1], flow_color(truth.u[i] / radius, truth.v[i] / radius));
      if (!truth_known) {
        put(out[2], {0, 0, 160});
      } else if (flow_known) {
        const double epe =
            std::hypot(double(flow.u[i]) - truth.u[i], double(flow.v[i]) - truth.v[i]);
        const auto g = std::uint8_t(std::lround(255 * std::min(1.0, epe / kEndpointErrorWhitePx)));
        put(out[2], {g, g, g});
      } else {
        put(out[2], {255, 255, 255});  // no computed vector: the worst error
      }
    }
  }
  return out;
}

}  // namespace flowtune
