#include "kernels/localflow/lucas_kanade.hpp"

#include <cmath>
#include <stdexcept>

#include "kernels/cuda/lk_core.cuh"
#include "kernels/localflow/pyramid.hpp"

namespace flowtune::localflow {

std::optional<std::string> lk_params_invalid_reason(const LkParams& p) {
  if (p.levels < 1 || p.levels > 8) return "levels=" + std::to_string(p.levels) + " outside [1, 8]";
  if (p.window < 3 || p.window > ftflow::kLkMaxWindow)
    return "window=" + std::to_string(p.window) + " outside [3, " +
           std::to_string(ftflow::kLkMaxWindow) + "]";
  if (p.window % 2 == 0) return "window=" + std::to_string(p.window) + " is even";
  if (p.iterations < 1 || p.iterations > 50)
    return "iterations=" + std::to_string(p.iterations) + " outside [1, 50]";
  if (p.weighting != 0 && p.weighting != 1)
    return "weighting=" + std::to_string(p.weighting) + " is neither 0 (box) nor 1 (gaussian)";
  return std::nullopt;
}

std::vector<float> lk_window_taps(const LkParams& p) {
  if (auto why = lk_params_invalid_reason(p)) throw std::invalid_argument("lucas_kanade: " + *why);
  const int r = p.window / 2;
  std::vector<float> g(std::size_t(p.window), 1.f);
  if (p.weighting == 0) return g;
  const double s = 0.3 * (r - 1) + 0.8;
  for (int i = -r; i <= r; ++i)
    g[std::size_t(i + r)] = float(std::exp(-double(i) * i / (2 * s * s)));
  return g;
}

namespace {

/// The plane as elements of T (binary16 bits for unsigned short).
template <class T>
std::vector<T> as_storage(const std::vector<float>& in) {
  std::vector<T> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) ftflow::store(out[i], in[i]);
  return out;
}

template <class T>
FlowField lucas_kanade_as(const Image& i0, const Image& i1, const LkParams& p) {
  const std::vector<float> g = lk_window_taps(p);
  const int r = p.window / 2;
  const std::vector<Image> p0 = build_pyramid(i0, p.levels), p1 = build_pyramid(i1, p.levels);
  std::vector<float> cu, cv;  // flow of the coarser level
  int cw = 0, ch = 0;
  for (int l = p.levels - 1; l >= 0; --l) {
    const std::vector<T> a = as_storage<T>(p0[std::size_t(l)].data);
    const std::vector<T> b = as_storage<T>(p1[std::size_t(l)].data);
    const int w = p0[std::size_t(l)].width, h = p0[std::size_t(l)].height;
    const ftflow::LkPlaneT<T> r0{a.data(), w};
    std::vector<T> ix(a.size()), iy(a.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        ftflow::store(ix[std::size_t(y) * w + x], ftflow::lk_grad_x(r0, w, x, y));
        ftflow::store(iy[std::size_t(y) * w + x], ftflow::lk_grad_y(r0, h, x, y));
      }
    const ftflow::LkPlaneT<T> gx{ix.data(), w}, gy{iy.data(), w};
    std::vector<float> u(a.size()), v(a.size());
    for (int y = 0; y < h; ++y)
      for (int x = 0; x < w; ++x) {
        const std::size_t at = std::size_t(y) * w + x;
        ftflow::lk_initial(cu.empty() ? nullptr : cu.data(), cv.data(), cw, ch, x, y, &u[at],
                           &v[at]);
        ftflow::lk_refine(r0, gx, gy, b.data(), w, h, x, y, r, g.data(), p.iterations, &u[at],
                          &v[at]);
      }
    cu = std::move(u);
    cv = std::move(v);
    cw = w;
    ch = h;
  }
  FlowField out(i0.width, i0.height);
  out.u = std::move(cu);
  out.v = std::move(cv);
  return out;
}

}  // namespace

FlowField lucas_kanade(const Image& i0, const Image& i1, const LkParams& p, LkStorage storage) {
  check_frame_pair(i0, i1, "lucas_kanade");
  if (auto why = lk_params_invalid_reason(p)) throw std::invalid_argument("lucas_kanade: " + *why);
  return storage == LkStorage::f16 ? lucas_kanade_as<unsigned short>(i0, i1, p)
                                   : lucas_kanade_as<float>(i0, i1, p);
}

}  // namespace flowtune::localflow
