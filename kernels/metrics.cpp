#include "kernels/metrics.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

namespace flowtune {
namespace {

void check_same_shape(const char* who, const FlowField& estimate, const FlowField& ground_truth) {
  const std::size_t n =
      std::size_t(std::max(ground_truth.width, 0)) * std::size_t(std::max(ground_truth.height, 0));
  if (estimate.width != ground_truth.width || estimate.height != ground_truth.height ||
      estimate.u.size() != n || estimate.v.size() != n || ground_truth.u.size() != n ||
      ground_truth.v.size() != n)
    throw std::invalid_argument(
        std::string(who) + ": estimate is " + std::to_string(estimate.width) + "x" +
        std::to_string(estimate.height) + ", ground truth is " +
        std::to_string(ground_truth.width) + "x" + std::to_string(ground_truth.height));
}

}  // namespace

std::size_t known_flow_pixels(const FlowField& flow) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < flow.u.size() && i < flow.v.size(); ++i)
    n += is_known_flow(flow.u[i], flow.v[i]) ? 1 : 0;
  return n;
}

FlowError flow_error(const FlowField& estimate, const FlowField& ground_truth) {
  check_same_shape("flow_error", estimate, ground_truth);
  const std::size_t n = ground_truth.u.size();
  const double pi = std::acos(-1.0);
  // Fixed chunks summed in chunk order: the same sums (to the bit) whatever the number of
  // threads, and the tuner scores every measured point, where one thread took some 7 ms a
  // Middlebury frame (the arccos).
  constexpr std::size_t kChunk = 16384;
  const std::size_t chunks = (n + kChunk - 1) / kChunk;
  std::vector<double> chunk_epe(chunks, 0.0), chunk_ae(chunks, 0.0);
  std::vector<std::size_t> chunk_valid(chunks, 0);
#pragma omp parallel for schedule(static) if (chunks > 1)
  for (std::ptrdiff_t c = 0; c < std::ptrdiff_t(chunks); ++c) {
    double sum_epe = 0, sum_ae = 0;
    std::size_t valid = 0;
    const std::size_t end = std::min(n, std::size_t(c + 1) * kChunk);
    for (std::size_t i = std::size_t(c) * kChunk; i < end; ++i) {
      if (!is_known_flow(ground_truth.u[i], ground_truth.v[i])) continue;
      const double u = estimate.u[i], v = estimate.v[i];
      const double ug = ground_truth.u[i], vg = ground_truth.v[i];
      sum_epe += std::sqrt((u - ug) * (u - ug) + (v - vg) * (v - vg));
      const double cosine =
          (1.0 + u * ug + v * vg) / std::sqrt((1.0 + u * u + v * v) * (1.0 + ug * ug + vg * vg));
      sum_ae += std::acos(std::clamp(cosine, -1.0, 1.0)) * 180.0 / pi;
      ++valid;
    }
    chunk_epe[std::size_t(c)] = sum_epe;
    chunk_ae[std::size_t(c)] = sum_ae;
    chunk_valid[std::size_t(c)] = valid;
  }
  double sum_epe = 0, sum_ae = 0;
  std::size_t valid = 0;
  for (std::size_t c = 0; c < chunks; ++c) {
    sum_epe += chunk_epe[c];
    sum_ae += chunk_ae[c];
    valid += chunk_valid[c];
  }
  if (valid == 0) throw std::invalid_argument("flow_error: no pixel with known ground truth");
  return {sum_epe / double(valid), sum_ae / double(valid), valid};
}

double kitti_outlier_percent(const FlowField& estimate, const FlowField& ground_truth) {
  check_same_shape("kitti_outlier_percent", estimate, ground_truth);
  std::size_t valid = 0, outliers = 0;
  for (std::size_t i = 0; i < ground_truth.u.size(); ++i) {
    if (!is_known_flow(ground_truth.u[i], ground_truth.v[i])) continue;
    const double du = double(estimate.u[i]) - ground_truth.u[i];
    const double dv = double(estimate.v[i]) - ground_truth.v[i];
    const double epe = std::sqrt(du * du + dv * dv);
    const double mag = std::hypot(double(ground_truth.u[i]), double(ground_truth.v[i]));
    // An unknown estimate (NaN) is an outlier: !(epe <= ...) holds for NaN.
    if (!(epe <= 3.0) && !(epe <= 0.05 * mag)) ++outliers;
    ++valid;
  }
  if (valid == 0)
    throw std::invalid_argument("kitti_outlier_percent: no pixel with known ground truth");
  return 100.0 * double(outliers) / double(valid);
}

FlowError masked_endpoint_error(const FlowField& estimate, const FlowField& ground_truth,
                                const Plane<std::uint8_t>& include) {
  check_same_shape("masked_endpoint_error", estimate, ground_truth);
  if (include.width != ground_truth.width || include.height != ground_truth.height ||
      include.size() != ground_truth.u.size())
    throw std::invalid_argument("masked_endpoint_error: mask is " + std::to_string(include.width) +
                                "x" + std::to_string(include.height) + ", ground truth is " +
                                std::to_string(ground_truth.width) + "x" +
                                std::to_string(ground_truth.height));
  double sum = 0;
  std::size_t valid = 0;
  for (std::size_t i = 0; i < ground_truth.u.size(); ++i) {
    if (!include.data[i] || !is_known_flow(ground_truth.u[i], ground_truth.v[i])) continue;
    const double du = double(estimate.u[i]) - ground_truth.u[i];
    const double dv = double(estimate.v[i]) - ground_truth.v[i];
    sum += std::sqrt(du * du + dv * dv);
    ++valid;
  }
  if (valid == 0) throw std::invalid_argument("masked_endpoint_error: no pixel counted");
  return {sum / double(valid), 0.0, valid};
}

}  // namespace flowtune
