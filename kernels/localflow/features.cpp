#include "kernels/localflow/features.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "kernels/cuda/lk_core.cuh"
#include "kernels/localflow/pyramid.hpp"

namespace flowtune::localflow {

std::optional<std::string> feat_params_invalid_reason(const FeatParams& p) {
  const auto out = [](const char* name, double v, const char* range) {
    return std::string(name) + "=" + std::to_string(v) + " outside " + range;
  };
  if (p.method != 1 && p.method != 2)
    return "method=" + std::to_string(p.method) +
           " is neither 1 (interpolation) nor 2 (hypotheses)";
  if (p.features < 1 || p.features > 4096) return out("features", p.features, "[1, 4096]");
  if (!(p.sigma_space > 0) || p.sigma_space > 1000)
    return out("sigma_space", p.sigma_space, "(0, 1000]");
  if (!(p.sigma_color > 0) || p.sigma_color > 1000)
    return out("sigma_color", p.sigma_color, "(0, 1000]");
  if (!(p.sigma_flow > 0) || p.sigma_flow > 100) return out("sigma_flow", p.sigma_flow, "(0, 100]");
  if (!(p.grid_step > 0) || p.grid_step > 16) return out("grid_step", p.grid_step, "(0, 16]");
  if (p.hypotheses < 1 || p.hypotheses > 256) return out("hypotheses", p.hypotheses, "[1, 256]");
  if (!(p.change_threshold >= 0) || p.change_threshold > 255)
    return out("change_threshold", p.change_threshold, "[0, 255]");
  return std::nullopt;
}

namespace {

void gradients(const Image& a, std::vector<float>& ix, std::vector<float>& iy) {
  const ftflow::LkPlane r{a.data.data(), a.width};
  ix.resize(a.size());
  iy.resize(a.size());
  for (int y = 0; y < a.height; ++y)
    for (int x = 0; x < a.width; ++x) {
      ix[std::size_t(y) * a.width + x] = ftflow::lk_grad_x(r, a.width, x, y);
      iy[std::size_t(y) * a.width + x] = ftflow::lk_grad_y(r, a.height, x, y);
    }
}

}  // namespace

std::vector<Corner> shi_tomasi_corners(const Image& frame, int max_corners) {
  std::vector<float> ix, iy;
  gradients(frame, ix, iy);
  const int w = frame.width, h = frame.height;
  const ftflow::LkPlane gx{ix.data(), w}, gy{iy.data(), w};
  std::vector<Corner> all;
  all.reserve(frame.size());
  float best = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const float s = ftflow::shi_tomasi_score(gx, gy, w, h, x, y, kCornerRadius);
      all.push_back({x, y, s});
      best = std::max(best, s);
    }
  std::stable_sort(all.begin(), all.end(),
                   [](const Corner& a, const Corner& b) { return a.score > b.score; });
  std::vector<Corner> kept;
  const int cell = kCornerMinDistance;  // grid of kept corners for the distance test
  const int gw = (w + cell - 1) / cell, gh = (h + cell - 1) / cell;
  std::vector<std::vector<int>> grid(std::size_t(gw) * std::size_t(gh));
  for (const Corner& c : all) {
    if (int(kept.size()) >= max_corners || !(c.score > 0) || c.score < 0.01f * best) break;
    const int cx = c.x / cell, cy = c.y / cell;
    bool near = false;
    for (int j = std::max(0, cy - 1); j <= std::min(gh - 1, cy + 1) && !near; ++j)
      for (int i = std::max(0, cx - 1); i <= std::min(gw - 1, cx + 1) && !near; ++i)
        for (int k : grid[std::size_t(j) * gw + i]) {
          const int dx = kept[std::size_t(k)].x - c.x, dy = kept[std::size_t(k)].y - c.y;
          if (dx * dx + dy * dy < cell * cell) {
            near = true;
            break;
          }
        }
    if (near) continue;
    grid[std::size_t(cy) * gw + cx].push_back(int(kept.size()));
    kept.push_back(c);
  }
  return kept;
}

std::vector<ftflow::Feature> track_corners(const Image& i0, const Image& i1,
                                           const std::vector<Corner>& corners) {
  check_frame_pair(i0, i1, "track_corners");
  const std::vector<Image> p0 = build_pyramid(i0, kKltLevels), p1 = build_pyramid(i1, kKltLevels);
  std::vector<std::vector<float>> ix(p0.size()), iy(p0.size());
  for (std::size_t l = 0; l < p0.size(); ++l) gradients(p0[l], ix[l], iy[l]);
  const std::vector<float> taps(std::size_t(kKltWindow), 1.f);
  std::vector<ftflow::Feature> out;
  for (const Corner& c : corners) {
    float u = 0, v = 0;
    for (int l = kKltLevels - 1; l >= 0; --l) {
      const Image& a = p0[std::size_t(l)];
      const int w = a.width, h = a.height;
      const ftflow::LkPlane r0{a.data.data(), w};
      const ftflow::LkPlane gx{ix[std::size_t(l)].data(), w}, gy{iy[std::size_t(l)].data(), w};
      const int x = std::min(c.x >> l, w - 1), y = std::min(c.y >> l, h - 1);
      ftflow::lk_refine(r0, gx, gy, p1[std::size_t(l)].data.data(), w, h, x, y, kKltWindow / 2,
                        taps.data(), kKltIterations, &u, &v);
      if (l > 0) {
        u *= 2;
        v *= 2;
      }
    }
    const float tx = float(c.x) + u, ty = float(c.y) + v;
    if (!std::isfinite(u) || !std::isfinite(v) || tx < 0 || ty < 0 || tx > float(i0.width - 1) ||
        ty > float(i0.height - 1))
      continue;
    out.push_back({float(c.x), float(c.y), i0.at(c.x, c.y), u, v});
  }
  return out;
}

HypothesisSpace hypothesis_space(const std::vector<ftflow::Feature>& fs, const FeatParams& p) {
  HypothesisSpace hs;
  hs.step = float(p.grid_step);
  if (fs.empty()) return hs;
  float u1 = fs[0].u, v1 = fs[0].v, u0 = fs[0].u, v0 = fs[0].v;
  for (const auto& f : fs) {
    u0 = std::min(u0, f.u);
    u1 = std::max(u1, f.u);
    v0 = std::min(v0, f.v);
    v1 = std::max(v1, f.v);
  }
  float step = hs.step;
  u0 = step * std::floor(u0 / step);
  v0 = step * std::floor(v0 / step);
  step = std::max(step, std::max(u1 - u0, v1 - v0) / float(kMaxHypothesesPerAxis - 1));
  hs.u0 = u0;
  hs.v0 = v0;
  hs.step = step;
  hs.nu = std::min(int(std::floor((u1 - u0) / step)) + 2, kMaxHypothesesPerAxis);
  hs.nv = std::min(int(std::floor((v1 - v0) / step)) + 2, kMaxHypothesesPerAxis);
  const float inv2sf = float(1 / (2 * p.sigma_flow * p.sigma_flow));
  const int n = int(fs.size()), nu = hs.nu, nv = hs.nv;
  hs.fu.resize(std::size_t(n) * std::size_t(nu));
  hs.fv.resize(std::size_t(n) * std::size_t(nv));
  using ftflow::add;
  using ftflow::mul;
  using ftflow::sub;
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < nu; ++k) {
      const float d = sub(add(u0, mul(float(k), step)), fs[std::size_t(i)].u);
      hs.fu[std::size_t(i) * nu + k] = ftflow::exp_neg(-mul(mul(d, d), inv2sf));
    }
    for (int j = 0; j < nv; ++j) {
      const float d = sub(add(v0, mul(float(j), step)), fs[std::size_t(i)].v);
      hs.fv[std::size_t(i) * nv + j] = ftflow::exp_neg(-mul(mul(d, d), inv2sf));
    }
  }
  return hs;
}

FeatureFlow feature_flow(const Image& i0, const Image& i1, const FeatParams& p) {
  check_frame_pair(i0, i1, "feature_flow");
  if (auto why = feat_params_invalid_reason(p))
    throw std::invalid_argument("feature_flow: " + *why);
  const std::vector<ftflow::Feature> fs = track_corners(i0, i1, shi_tomasi_corners(i0, p.features));
  const int w = i0.width, h = i0.height, n = int(fs.size());
  const float inv2ss = float(1 / (2 * p.sigma_space * p.sigma_space));
  const float inv2sc = float(1 / (2 * p.sigma_color * p.sigma_color));
  const float threshold = float(p.change_threshold);
  FeatureFlow out{FlowField(w, h), 0, fs.size()};
  const HypothesisSpace hs = p.method == 2 ? hypothesis_space(fs, p) : HypothesisSpace{};
  std::vector<float> scores(std::size_t(hs.nu) * std::size_t(hs.nv));
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      const std::size_t at = std::size_t(y) * w + x;
      const float c = i0.data[at];
      float u = 0, v = 0;
      bool ok = false;
      if (p.method == 1) {
        ftflow::feat_interpolate(fs.data(), n, x, y, c, inv2ss, inv2sc, &u, &v);
        ok = ftflow::feat_unchanged(i1.data.data(), w, h, x, y, c, u, v, threshold);
      } else if (n > 0) {
        ok = ftflow::feat_hypotheses(fs.data(), n, hs.fu.data(), hs.fv.data(), hs.nu, hs.nv, hs.u0,
                                     hs.v0, hs.step, x, y, c, inv2ss, inv2sc, kVoteCutoff,
                                     p.hypotheses, i1.data.data(), w, h, threshold, scores.data(),
                                     &u, &v);
      }
      out.flow.u[at] = u;
      out.flow.v[at] = v;
      out.unclassified += ok ? 0 : 1;
    }
  return out;
}

}  // namespace flowtune::localflow
