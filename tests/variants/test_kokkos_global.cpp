// kokkos_global / tvl1_iterate_kokkos against the double reference (ARCHITECTURE.md numerics
// contract: F32 variants match the reference to relative L2 < 1e-4 after 10 iterations on
// random texture), and the adaptor's registration and validity rules.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <iostream>
#include <random>
#include <stdexcept>
#include <vector>

#include "kernels/image_ops.hpp"
#include "kernels/kokkos/kokkos_runtime.hpp"
#include "kernels/kokkos/tvl1_kokkos.hpp"
#include "kernels/reference_tvl1.hpp"
#include "variants/tvl1_params_of.hpp"
#include "variants/variant.hpp"

namespace flowtune {
namespace {

constexpr int kWidth = 200;  // not a multiple of any tested tile_x > 8
constexpr int kHeight = 150;

/// Smooth random texture in [0, 255]: uniform noise, Gaussian sigma 1.5, rescaled.
Plane<double> random_texture(int width, int height, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> noise(0.0, 255.0);
  Plane<double> raw(width, height);
  for (double& v : raw.data) v = noise(rng);
  Plane<double> smooth = gaussian_smooth(raw, 1.5);
  const auto [lo, hi] = std::minmax_element(smooth.data.begin(), smooth.data.end());
  const double min_v = *lo, scale = 255.0 / (*hi - *lo);
  for (double& v : smooth.data) v = (v - min_v) * scale;
  return smooth;
}

/// An image pair I1(x) = I0(x - d(x)) for a smooth flow d, a start flow u0 != 0 and its
/// warping data from the reference's prepare_warping (a consistent, realistic input).
struct Problem {
  WarpingData<double> warping;
  Tvl1State<double> start;
};

Problem make_problem() {
  const Plane<double> i0 = random_texture(kWidth, kHeight, 20240601u);
  Plane<double> i1(kWidth, kHeight);
  Tvl1State<double> start(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y) {
    for (int x = 0; x < kWidth; ++x) {
      const double dx = 0.8 + 0.5 * std::sin(0.05 * x), dy = -0.4 + 0.3 * std::cos(0.07 * y);
      i1.at(x, y) = bicubic_at(i0, x - dx, y - dy);
      const std::size_t i = std::size_t(y) * kWidth + x;
      start.u1[i] = 0.5 * dx;  // a partial estimate, as after a coarser scale
      start.u2[i] = 0.5 * dy;
    }
  }
  Plane<double> i1x, i1y;
  centered_gradient(i1, i1x, i1y);
  return {prepare_warping(i0, i1, i1x, i1y, start), start};
}

template <typename To, typename From>
std::vector<To> cast_vector(const std::vector<From>& in) {
  return std::vector<To>(in.begin(), in.end());
}

WarpingData<float> to_float(const WarpingData<double>& w) {
  WarpingData<float> f(w.width, w.height);
  f.grad_x = cast_vector<float>(w.grad_x);
  f.grad_y = cast_vector<float>(w.grad_y);
  f.rho_c = cast_vector<float>(w.rho_c);
  return f;
}

Tvl1State<float> to_float(const Tvl1State<double>& s) {
  Tvl1State<float> f(s.width, s.height);
  f.u1 = cast_vector<float>(s.u1);
  f.u2 = cast_vector<float>(s.u2);
  f.p11 = cast_vector<float>(s.p11);
  f.p12 = cast_vector<float>(s.p12);
  f.p21 = cast_vector<float>(s.p21);
  f.p22 = cast_vector<float>(s.p22);
  return f;
}

/// ||u - u_ref|| / ||u_ref|| over both flow components.
double relative_l2(const Tvl1State<float>& u, const Tvl1State<double>& ref) {
  double diff2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < ref.u1.size(); ++i) {
    const double d1 = u.u1[i] - ref.u1[i], d2 = u.u2[i] - ref.u2[i];
    diff2 += d1 * d1 + d2 * d2;
    ref2 += ref.u1[i] * ref.u1[i] + ref.u2[i] * ref.u2[i];
  }
  return std::sqrt(diff2 / ref2);
}

double flow_change_l2(const Tvl1State<double>& a, const Tvl1State<double>& b) {
  double d2 = 0;
  for (std::size_t i = 0; i < a.u1.size(); ++i)
    d2 += (a.u1[i] - b.u1[i]) * (a.u1[i] - b.u1[i]) + (a.u2[i] - b.u2[i]) * (a.u2[i] - b.u2[i]);
  return std::sqrt(d2);
}

class KokkosTvl1 : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { ensure_kokkos_initialized(); }
};

TEST_F(KokkosTvl1, MatchesReferenceAfter10IterationsForEveryTile) {
  const Problem problem = make_problem();
  Tvl1Params params;  // tau 0.25, lambda 0.15, theta 0.3, epsilon 0
  Tvl1State<double> ref = problem.start;
  ASSERT_EQ(tvl1_iterate_reference(problem.warping, ref, params, 10), 10);
  // The iterations must move the flow, or the comparison would prove nothing.
  ASSERT_GT(flow_change_l2(ref, problem.start), 1.0);

  const WarpingData<float> warping_f = to_float(problem.warping);
  for (const KokkosTiles tiles :
       {KokkosTiles{8, 1}, KokkosTiles{16, 4}, KokkosTiles{32, 8}, KokkosTiles{64, 16},
        KokkosTiles{128, 2}, KokkosTiles{7, 3}, KokkosTiles{256, 256}}) {
    Tvl1State<float> state = to_float(problem.start);
    EXPECT_EQ(tvl1_iterate_kokkos(warping_f, state, params, 10, tiles), 10);
    const double err = relative_l2(state, ref);
    std::cout << "tile " << tiles.tile_x << "x" << tiles.tile_y << ": relative L2 " << err << "\n";
    EXPECT_LT(err, 1e-4) << "tile " << tiles.tile_x << "x" << tiles.tile_y;
  }
}

TEST_F(KokkosTvl1, DualVariablesMatchReference) {
  const Problem problem = make_problem();
  Tvl1Params params;
  Tvl1State<double> ref = problem.start;
  tvl1_iterate_reference(problem.warping, ref, params, 10);
  Tvl1State<float> state = to_float(problem.start);
  tvl1_iterate_kokkos(to_float(problem.warping), state, params, 10, KokkosTiles{32, 4});
  double diff2 = 0, ref2 = 0;
  const std::vector<float>* got[] = {&state.p11, &state.p12, &state.p21, &state.p22};
  const std::vector<double>* want[] = {&ref.p11, &ref.p12, &ref.p21, &ref.p22};
  for (int c = 0; c < 4; ++c) {
    for (std::size_t i = 0; i < want[c]->size(); ++i) {
      const double d = (*got[c])[i] - (*want[c])[i];
      diff2 += d * d;
      ref2 += (*want[c])[i] * (*want[c])[i];
    }
  }
  ASSERT_GT(ref2, 0.0);
  EXPECT_LT(std::sqrt(diff2 / ref2), 1e-4);
}

TEST_F(KokkosTvl1, EpsilonStopsAtTheSameIterationAsReference) {
  const Problem problem = make_problem();
  Tvl1Params params;
  params.epsilon = 0.01;
  Tvl1State<double> ref = problem.start;
  const int ref_done = tvl1_iterate_reference(problem.warping, ref, params, 300);
  // The criterion must actually trigger inside the budget for this test to mean anything.
  ASSERT_GT(ref_done, 1);
  ASSERT_LT(ref_done, 300);
  Tvl1State<float> state = to_float(problem.start);
  const int done =
      tvl1_iterate_kokkos(to_float(problem.warping), state, params, 300, KokkosTiles{16, 2});
  std::cout << "epsilon 0.01: reference stopped after " << ref_done << ", kokkos after " << done
            << " iterations\n";
  EXPECT_EQ(done, ref_done);
  EXPECT_LT(relative_l2(state, ref), 1e-3);
}

TEST_F(KokkosTvl1, RejectsBadArguments) {
  WarpingData<float> w(10, 8);
  Tvl1State<float> s(10, 8);
  Tvl1Params params;
  EXPECT_THROW(tvl1_iterate_kokkos(w, s, params, 1, KokkosTiles{0, 4}), std::invalid_argument);
  EXPECT_THROW(tvl1_iterate_kokkos(w, s, params, 1, KokkosTiles{8, -1}), std::invalid_argument);
  EXPECT_THROW(tvl1_iterate_kokkos(w, s, params, -1, KokkosTiles{8, 4}), std::invalid_argument);
  Tvl1State<float> wrong(10, 9);
  EXPECT_THROW(tvl1_iterate_kokkos(w, wrong, params, 1, KokkosTiles{8, 4}), std::invalid_argument);
  w.rho_c.pop_back();
  EXPECT_THROW(tvl1_iterate_kokkos(w, s, params, 1, KokkosTiles{8, 4}), std::invalid_argument);
}

Config kokkos_config(int tile_x, int tile_y) {
  Config c;
  c.variant = "kokkos_global";
  c.precision = "f32";
  c.tunables = {{"tile_x", tile_x}, {"tile_y", tile_y}};
  c.params = param_values_of(Tvl1Params{});
  return c;
}

TEST(KokkosGlobalVariant, IsRegisteredWithItsDomain) {
  const Variant* v = find_variant("kokkos_global");
  ASSERT_NE(v, nullptr);
  EXPECT_NE(std::find(all_variants().begin(), all_variants().end(), v), all_variants().end());
  EXPECT_EQ(v->target(), "cpu");
  EXPECT_EQ(v->precisions(), std::vector<std::string>{"f32"});
  const std::vector<TunableDomain> domains = v->tunables();
  ASSERT_EQ(domains.size(), 2u);
  for (const TunableDomain& d : domains) {
    EXPECT_GE(d.values.size(), 4u) << d.name;
    for (const int tile : d.values) {
      Config c = kokkos_config(32, 4);
      c.tunables[d.name] = tile;
      EXPECT_FALSE(v->invalid_reason(c).has_value()) << d.name << "=" << tile;
    }
  }
}

TEST(KokkosGlobalVariant, InvalidConfigsGetAReason) {
  const Variant* v = find_variant("kokkos_global");
  ASSERT_NE(v, nullptr);
  const auto reason_mentions = [v](const Config& c, const std::string& word) {
    const auto reason = v->invalid_reason(c);
    return reason.has_value() && reason->find(word) != std::string::npos;
  };
  EXPECT_TRUE(reason_mentions(kokkos_config(0, 4), "tile_x"));
  EXPECT_TRUE(reason_mentions(kokkos_config(32, -2), "tile_y"));
  EXPECT_TRUE(reason_mentions(kokkos_config(4096, 1), "tile_x"));
  EXPECT_TRUE(reason_mentions(kokkos_config(1024, 1024), "tile_x*tile_y"));
  Config missing = kokkos_config(32, 4);
  missing.tunables.erase("tile_y");
  EXPECT_TRUE(reason_mentions(missing, "tile_y"));
  Config unknown = kokkos_config(32, 4);
  unknown.tunables["depth"] = 3;
  EXPECT_TRUE(reason_mentions(unknown, "depth"));
  Config f16 = kokkos_config(32, 4);
  f16.precision = "f16";
  EXPECT_TRUE(reason_mentions(f16, "f16"));
  Config bad_params = kokkos_config(32, 4);
  bad_params.params["n_warpings"] = 0;
  EXPECT_TRUE(reason_mentions(bad_params, "n_warpings"));
  Config no_params = kokkos_config(32, 4);
  no_params.params.erase("lambda");
  EXPECT_TRUE(reason_mentions(no_params, "lambda"));
  EXPECT_THROW(find_flow_variant("kokkos_global")->make_solver(kokkos_config(0, 0)),
               std::invalid_argument);
}

TEST(KokkosGlobalVariant, SolverMatchesReferenceOnSyntheticPair) {
  // Whole frame (pyramid + warpings) in float vs the double reference on a textured pair.
  const Plane<double> t0 = random_texture(kWidth, kHeight, 7u);
  Image i0(kWidth, kHeight), i1(kWidth, kHeight);
  for (int y = 0; y < kHeight; ++y)
    for (int x = 0; x < kWidth; ++x) {
      i0.at(x, y) = static_cast<float>(t0.at(x, y));
      i1.at(x, y) = static_cast<float>(bicubic_at(t0, x - 1.3, y + 0.6));
    }
  Config c = kokkos_config(16, 4);
  c.params["n_scales"] = 3;
  c.params["n_warpings"] = 2;
  c.params["iterations"] = 30;
  const FlowField got = find_flow_variant("kokkos_global")->make_solver(c)->compute(i0, i1);
  const FlowField ref = tvl1_reference(i0, i1, tvl1_params_of(c));
  ASSERT_EQ(got.width, kWidth);
  ASSERT_EQ(got.height, kHeight);
  double diff2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff2 += double(got.u[i] - ref.u[i]) * (got.u[i] - ref.u[i]) +
             double(got.v[i] - ref.v[i]) * (got.v[i] - ref.v[i]);
    ref2 += double(ref.u[i]) * ref.u[i] + double(ref.v[i]) * ref.v[i];
  }
  const double err = std::sqrt(diff2 / ref2);
  std::cout << "full solver vs reference (3 scales, 2 warpings, 30 it): relative L2 " << err
            << "\n";
  EXPECT_LT(err, 1e-3);
  EXPECT_THROW(find_flow_variant("kokkos_global")->make_solver(c)->compute(i0, Image(10, 10)),
               std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
