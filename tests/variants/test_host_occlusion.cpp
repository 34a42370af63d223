// The host variants (kokkos_global, simd_fused) run the weighted median's occlusion factor
// (nl_occlusion; Sun, Roth, Black 2010, sec. 4, eq. 10) through tvl1_multiscale, as the CPU
// reference: on a textured pair moved by (1.3, -0.6) px, each variant's float flow with the
// factor stays within float rounding of the double reference with the factor, and the factor
// changes the variant's flow.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>

#include "kernels/reference_tvl1.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

Image textured(int w, int h, double sx, double sy) {
  Image im(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double xs = x - sx, ys = y - sy;
      im.data[std::size_t(y) * w + x] =
          float(128 + 50 * std::sin(0.4 * xs + 1.1) * std::cos(0.3 * ys + 0.4) +
                30 * std::sin(0.9 * xs) * std::cos(0.2 * ys));
    }
  return im;
}

Config host_config(const std::string& variant, const Tvl1Params& p) {
  const Variant* v = find_variant(variant);
  Config c;
  c.workload = "tvl1";
  c.variant = variant;
  c.precision = "f32";
  c.params = param_values_of(p);
  for (const TunableDomain& d : v->tunables())
    c.tunables[d.name] = d.default_values.empty() ? d.values.front() : d.default_values.front();
  return c;
}

double mean_distance(const FlowField& a, const FlowField& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += std::hypot(a.u[i] - b.u[i], a.v[i] - b.v[i]);
  return s / double(a.size());
}

TEST(HostOcclusion, VariantsMatchTheReference) {
  const Image i0 = textured(48, 40, 0, 0), i1 = textured(48, 40, 1.3, -0.6);
  Tvl1Params p;
  p.n_scales = 2;
  p.n_warpings = 2;
  p.iterations = 20;
  p.median_window = 5;
  p.nl_median_window = 5;
  p.nl_occlusion = true;
  const FlowField ref = tvl1_reference(i0, i1, p);
  Tvl1Params off = p;
  off.nl_occlusion = false;
  for (const std::string name : {"kokkos_global", "simd_fused"}) {
    const FlowVariant* v = find_flow_variant(name);
    ASSERT_NE(v, nullptr) << name;
    const FlowField got = v->make_solver(host_config(name, p))->compute(i0, i1);
    const FlowField without = v->make_solver(host_config(name, off))->compute(i0, i1);
    const double d = mean_distance(got, ref), moved = mean_distance(got, without);
    std::printf(
        "%s with nl_occlusion vs double reference: mean |diff| %.2e px; the factor moved "
        "the flow by %.2e px on average\n",
        name.c_str(), d, moved);
    EXPECT_LT(d, 1e-3) << name;
    EXPECT_GT(moved, 1e-4) << name;
  }
}

}  // namespace
}  // namespace flowtune
