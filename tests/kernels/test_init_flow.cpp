// The initial flow of the multiscale driver (tvl1_multiscale's init_flow): it reaches the
// coarsest level through the flow pyramid scaled by zoom and comes back unchanged when no
// iteration moves it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>

#include "kernels/reference_tvl1.hpp"

namespace flowtune {
namespace {

Image ramp(int w, int h, double shift) {
  Image im(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x)
      im.at(x, y) = float(128 + 60 * std::sin(0.45 * (x - shift)) * std::cos(0.35 * y));
  return im;
}

// No iteration: one scale returns the initial flow itself (unknown values as 0); three scales
// return a constant initial flow after zoom_out x zoom twice and zoom_in x 1/zoom twice.
TEST(InitFlow, ComesBackUnchangedWithoutIterations) {
  const Image i0 = ramp(40, 30, 0), i1 = ramp(40, 30, 1);
  FlowField init(40, 30);
  for (std::size_t i = 0; i < init.size(); ++i) {
    init.u[i] = float(0.01 * double(i % 40));
    init.v[i] = -0.5f;
  }
  init.u[7] = std::numeric_limits<float>::quiet_NaN();
  init.v[8] = 1e10f;  // .flo "unknown"
  Tvl1Params p;
  p.n_scales = 1;
  p.iterations = 0;
  p.n_warpings = 2;
  FlowField out = tvl1_reference(i0, i1, p, &init);
  for (std::size_t i = 0; i < init.size(); ++i) {
    if (i == 7 || i == 8) {
      EXPECT_EQ(out.u[i], 0.f);
      EXPECT_EQ(out.v[i], 0.f);
      continue;
    }
    EXPECT_EQ(out.u[i], init.u[i]);
    EXPECT_EQ(out.v[i], init.v[i]);
  }
  FlowField constant(40, 30);
  for (std::size_t i = 0; i < constant.size(); ++i) {
    constant.u[i] = 1.25f;
    constant.v[i] = -0.75f;
  }
  p.n_scales = 3;
  out = tvl1_reference(i0, i1, p, &constant);
  for (std::size_t i = 0; i < out.size(); ++i) {
    EXPECT_NEAR(out.u[i], 1.25, 1e-5);
    EXPECT_NEAR(out.v[i], -0.75, 1e-5);
  }
}

// Starting from the flow of a first run moves the second run's result towards it: on a
// 1-px shift with few iterations, the error of the restarted run is smaller.
TEST(InitFlow, RestartingFromAFlowContinuesFromIt) {
  const Image i0 = ramp(48, 40, 0), i1 = ramp(48, 40, 1.0);
  Tvl1Params p;
  p.n_scales = 2;
  p.iterations = 5;
  const FlowField first = tvl1_reference(i0, i1, p);
  const FlowField second = tvl1_reference(i0, i1, p, &first);
  auto err = [](const FlowField& f) {
    double s = 0;
    for (std::size_t i = 0; i < f.size(); ++i) s += std::hypot(f.u[i] - 1.0, double(f.v[i]));
    return s / double(f.size());
  };
  EXPECT_LT(err(second), err(first));
}

TEST(InitFlow, WrongSizeIsRejected) {
  const Image i0 = ramp(20, 10, 0), i1 = ramp(20, 10, 1);
  FlowField init(10, 10);
  EXPECT_THROW(tvl1_reference(i0, i1, Tvl1Params{}, &init), std::invalid_argument);
}

}  // namespace
}  // namespace flowtune
