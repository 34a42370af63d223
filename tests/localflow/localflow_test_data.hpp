// Inputs of the local flow tests: crops of the Middlebury sequences and synthetic frames.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "kernels/flo_io.hpp"
#include "kernels/image.hpp"
#include "kernels/png_io.hpp"

namespace flowtune::test {

/// A data root: $env_name when set (the GPU machine holds the checkout elsewhere), else
/// the compiled-in root when it exists, else ./data (benchmark runs start in the repo root).
inline std::string data_root(const char* env_name, const char* compiled) {
  const char* env = std::getenv(env_name);
  if (env && *env) return env;
  if (std::filesystem::exists(compiled)) return compiled;
  return "data";
}
/// The repo's Middlebury folder (RubberWhale, Grove2): $FLOWTUNE_REPO_DATA/middlebury.
inline std::string repo_middlebury_dir() {
  return data_root("FLOWTUNE_REPO_DATA", FLOWTUNE_TEST_REPO_DATA) + "/middlebury";
}
/// The shared folder with the 8 sequences: $FLOWTUNE_SHARED_DATA/middlebury.
inline std::string shared_middlebury_dir() {
  return data_root("FLOWTUNE_SHARED_DATA", FLOWTUNE_TEST_SHARED_DATA) + "/middlebury";
}

/// One frame pair with ground truth.
struct FramePair {
  Image i0, i1;
  FlowField gt;
};

/// The w x h crop of plane p at (x0, y0).
inline Image crop(const Image& p, int x0, int y0, int w, int h) {
  Image out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) out.at(x, y) = p.at(x0 + x, y0 + y);
  return out;
}
inline FlowField crop(const FlowField& f, int x0, int y0, int w, int h) {
  FlowField out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      out.u[std::size_t(y) * w + x] = f.u[std::size_t(y0 + y) * f.width + x0 + x];
      out.v[std::size_t(y) * w + x] = f.v[std::size_t(y0 + y) * f.width + x0 + x];
    }
  return out;
}

/// <dir>/<name>/{frame10,frame11}.png and flow10.flo, cropped to w x h at (x0, y0) when w > 0.
inline FramePair load_pair(const std::string& dir, const std::string& name, int x0 = 0, int y0 = 0,
                           int w = 0, int h = 0) {
  const std::string d = dir + "/" + name + "/";
  FramePair p{read_png_gray(d + "frame10.png"), read_png_gray(d + "frame11.png"),
              read_flo(d + "flow10.flo")};
  if (w > 0) {
    p.i0 = crop(p.i0, x0, y0, w, h);
    p.i1 = crop(p.i1, x0, y0, w, h);
    p.gt = crop(p.gt, x0, y0, w, h);
  }
  return p;
}

/// A smooth textured frame f(x - dx, y - dy), f = 128 + 50 sin(0.31 x + 0.1 y) + 40 cos(0.23 y
/// - 0.05 x) + 20 sin(0.71 x) cos(0.53 y), so f shifted by (dx, dy) moves content by (dx, dy).
inline Image smooth_frame(int w, int h, double dx, double dy) {
  Image out(w, h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const double X = x - dx, Y = y - dy;
      out.at(x, y) =
          float(128 + 50 * std::sin(0.31 * X + 0.1 * Y) + 40 * std::cos(0.23 * Y - 0.05 * X) +
                20 * std::sin(0.71 * X) * std::cos(0.53 * Y));
    }
  return out;
}

/// Mean endpoint distance between two flows of equal shape, in double.
inline double mean_endpoint_difference(const FlowField& a, const FlowField& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i)
    s += std::hypot(double(a.u[i]) - b.u[i], double(a.v[i]) - b.v[i]);
  return a.size() ? s / double(a.size()) : 0;
}

}  // namespace flowtune::test
