// A smooth, textured test frame for the filter tests of the TV-L1 driver (median, weighted
// median, occlusion): sums of sines, shifted horizontally to make a second frame.
#pragma once

#include <cmath>
#include <cstddef>
#include <random>

#include "kernels/image.hpp"

namespace flowtune::test {

/// w x h frame, intensities 128 + 50 sin(0.4 x' + a) cos(0.3 y + b) + 30 sin(0.9 x') in
/// [48, 208], x' = x - shift (pixels), with phases a, b drawn from `seed`: the same seed and a
/// shift s give the first frame moved right by s pixels.
inline Image textured(int w, int h, double shift, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> ph(0, 6.28);
  const double a = ph(rng), b = ph(rng);
  Image im(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double xs = x - shift;
      im.data[std::size_t(y) * w + x] = float(
          128 + 50 * std::sin(0.4 * xs + a) * std::cos(0.3 * y + b) + 30 * std::sin(0.9 * xs));
    }
  return im;
}

}  // namespace flowtune::test
