// warping_shape_problem (kernels/tvl1_warping.hpp): the shape check of one warping's data and
// state that the CPU iteration kernels share, against hand-built cases, and the message
// tvl1_iterate_simd throws with it.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "kernels/simd/tvl1_simd.hpp"
#include "kernels/tvl1_params.hpp"
#include "kernels/tvl1_warping.hpp"

namespace flowtune {
namespace {

TEST(WarpingShapes, MatchingShapesHaveNoProblem) {
  EXPECT_FALSE(warping_shape_problem(WarpingData<float>(5, 3), Tvl1State<float>(5, 3)));
  EXPECT_FALSE(warping_shape_problem(WarpingData<double>(1, 1), Tvl1State<double>(1, 1)));
}

TEST(WarpingShapes, EachProblemIsNamed) {
  EXPECT_EQ(warping_shape_problem(WarpingData<float>(), Tvl1State<float>()).value_or(""),
            "empty warping data");
  EXPECT_EQ(warping_shape_problem(WarpingData<float>(5, 3), Tvl1State<float>(3, 5)).value_or(""),
            "state is 3x5 but warping data is 5x3");
  WarpingData<float> w(5, 3);
  w.rho_c.resize(14);
  EXPECT_EQ(warping_shape_problem(w, Tvl1State<float>(5, 3)).value_or(""),
            "rho_c has 14 elements, expected 15");
  Tvl1State<float> s(5, 3);
  s.p22.clear();  // the last plane checked
  EXPECT_EQ(warping_shape_problem(WarpingData<float>(5, 3), s).value_or(""),
            "p22 has 0 elements, expected 15");
}

TEST(WarpingShapes, SimdIterationsRejectAMismatchedPlaneByName) {
  WarpingData<float> w(8, 4);
  Tvl1State<float> s(8, 4);
  s.u2.resize(31);
  try {
    tvl1_iterate_simd(w, s, Tvl1Params{}, 1, SimdSchedule{}, SimdStorage::f32);
    FAIL() << "no exception";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("tvl1_iterate_simd"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("u2 has 31 elements, expected 32"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace flowtune
