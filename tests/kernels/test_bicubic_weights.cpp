// The warping's bicubic interpolation (kernels/image_ops.hpp bicubic_at; IPOL 2013, sec. 4:
// Keys' cubic convolution with a = -1/2) against hand-computed Keys weights.
#include <gtest/gtest.h>

#include "kernels/image_ops.hpp"

namespace flowtune {
namespace {

// Keys (1981) with a = -1/2 at offset t from node 1 of nodes 0..3:
//   w0 = -t (1 - t)^2 / 2,  w1 = 1 - 5 t^2 / 2 + 3 t^3 / 2,  w2 = t (1 + 4 t - 3 t^2) / 2,
//   w3 = -t^2 (1 - t) / 2.
// t = 1/4: (-9/128, 111/128, 29/128, -3/128); t = 1/2: (-1/16, 9/16, 9/16, -1/16).
TEST(Bicubic, KeysWeightsByHand) {
  const double w25[4] = {-9.0 / 128, 111.0 / 128, 29.0 / 128, -3.0 / 128};
  const double w50[4] = {-1.0 / 16, 9.0 / 16, 9.0 / 16, -1.0 / 16};
  for (int k = 0; k < 4; ++k) {
    Plane<double> impulse(8, 8, 0.0);
    impulse.at(k + 1, 3) = 1.0;  // nodes 1..4 around x = 2.25 / 2.5
    EXPECT_DOUBLE_EQ(bicubic_at(impulse, 2.25, 3.0), w25[k]) << "node " << k;
    EXPECT_DOUBLE_EQ(bicubic_at(impulse, 2.5, 3.0), w50[k]) << "node " << k;
    // The separable product: weight w25[k] * w50[j] at (2.25, 2.5) for the impulse at row j+1.
    for (int j = 0; j < 4; ++j) {
      Plane<double> q(8, 8, 0.0);
      q.at(k + 1, j + 1) = 1.0;
      EXPECT_NEAR(bicubic_at(q, 2.25, 2.5), w25[k] * w50[j], 1e-15);
    }
  }
}

}  // namespace
}  // namespace flowtune
