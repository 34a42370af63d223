#include "kernels/simd/localflow_simd.hpp"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "kernels/cuda/bm_core.cuh"
#include "kernels/cuda/lk_core.cuh"
#include "kernels/localflow/pyramid.hpp"
#include "kernels/simd/localflow_simd_rows.hpp"
#include "kernels/simd/tvl1_simd_rows.hpp"

namespace flowtune {
namespace {

void check_run(int threads, std::int64_t simd_target, const char* who) {
  if (threads < 1)
    throw std::invalid_argument(std::string(who) + ": threads=" + std::to_string(threads) + " < 1");
  if (!simd_tvl1::target_supported(simd_target))
    throw std::invalid_argument(std::string(who) + ": SIMD target " + std::to_string(simd_target) +
                                " (Highway bit) is not compiled in or not supported by this CPU");
}

/// build_pyramid (kernels/localflow/pyramid.hpp) of both frames, the rows of each level of
/// both over threads (one parallel loop per level): ftflow::downsample_at per pixel, the same
/// values.
void pyramids(const Image& i0, const Image& i1, int levels, int threads, std::vector<Image>& p0,
              std::vector<Image>& p1) {
  p0 = {i0};
  p1 = {i1};
  for (int l = 1; l < levels; ++l) {
    const Image& f0 = p0.back();
    const int cw = ftflow::half_size(f0.width), ch = ftflow::half_size(f0.height);
    Image c0(cw, ch), c1(cw, ch);
    const Image& f1 = p1.back();
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int row = 0; row < 2 * ch; ++row) {
      const Image& fine = row < ch ? f0 : f1;
      Image& coarse = row < ch ? c0 : c1;
      const int y = row % ch;
      for (int x = 0; x < cw; ++x)
        coarse.at(x, y) = ftflow::downsample_at(fine.data.data(), fine.width, fine.height, x, y);
    }
    p0.push_back(std::move(c0));
    p1.push_back(std::move(c1));
  }
}

/// Fills the r clamped columns on each side of a padded row (LkRow's layout) from its interior.
void pad_row(float* row, int w, int r) {
  for (int c = 0; c < r; ++c) {
    row[c] = row[r];
    row[r + w + c] = row[r + w - 1];
  }
}

/// Reads a padded plane at in-frame coordinates (for ftflow::lk_refine on a row's tail).
struct PaddedReader {
  const float* p;
  int pw, r;
  float operator()(int cx, int cy) const { return p[std::size_t(cy) * pw + std::size_t(cx + r)]; }
};

}  // namespace

FlowField block_matching_simd(const Image& i0, const Image& i1, const localflow::BmParams& p,
                              int threads, std::int64_t simd_target) {
  localflow::check_frame_pair(i0, i1, "block_matching_simd");
  if (auto why = localflow::bm_params_invalid_reason(p))
    throw std::invalid_argument("block_matching_simd: " + *why);
  check_run(threads, simd_target, "block_matching_simd");
  std::vector<Image> p0, p1;
  pyramids(i0, i1, p.levels, threads, p0, p1);
  const int side = 2 * p.radius + 1;
  // Window columns: the block, the 2R displacements, and the last vector's overhang.
  const int stride = p.block + 2 * p.radius + simd_localflow::max_lanes(simd_target);
  const int rows = p.block + 2 * p.radius;
  std::vector<float> cu, cv;  // block flows of the coarser level
  int cnbx = 0, cnby = 0, cw = 0, ch = 0;
  for (int l = p.levels - 1; l >= 0; --l) {
    const Image& a = p0[std::size_t(l)];
    const Image& b = p1[std::size_t(l)];
    const int w = a.width, h = a.height;
    const int nbx = ftflow::bm_blocks(w, p.block), nby = ftflow::bm_blocks(h, p.block);
    std::vector<float> bu(std::size_t(nbx) * nby), bv(bu.size());
#pragma omp parallel num_threads(threads)
    {
      std::vector<float> costs(std::size_t(side) * side), block(std::size_t(p.block) * p.block);
      std::vector<float> window(std::size_t(stride) * rows);
#pragma omp for schedule(dynamic, 1)
      for (int by = 0; by < nby; ++by)
        for (int bx = 0; bx < nbx; ++bx) {
          int pu = 0, pv = 0;
          ftflow::bm_prediction(cu.empty() ? nullptr : cu.data(), cv.data(), cnbx, cnby, cw, ch,
                                p.block, w, h, bx, by, &pu, &pv);
          const int x0 = bx * p.block, y0 = by * p.block;
          const int bw = std::min(p.block, w - x0), bh = std::min(p.block, h - y0);
          for (int ly = 0; ly < bh; ++ly)
            std::copy_n(&a.data[std::size_t(y0 + ly) * w + x0], bw, &block[std::size_t(ly) * bw]);
          const int wx = x0 + pu - p.radius, wy = y0 + pv - p.radius;
          for (int row = 0; row < bh + 2 * p.radius; ++row) {
            const float* src = &b.data[std::size_t(std::clamp(wy + row, 0, h - 1)) * w];
            float* dst = &window[std::size_t(row) * stride];
            if (wx >= 0 && wx + stride <= w)
              std::copy_n(src + wx, stride, dst);  // inside the frame: no clamping
            else
              for (int c = 0; c < stride; ++c) dst[c] = src[std::clamp(wx + c, 0, w - 1)];
          }
          simd_localflow::bm_block_costs(
              {block.data(), bw, bh, window.data(), stride, p.radius, p.similarity, costs.data()},
              simd_target);
          const std::size_t at = std::size_t(by) * nbx + bx;
          ftflow::bm_block_flow(costs.data(), p.radius, pu, pv, p.subpixel, &bu[at], &bv[at]);
        }
    }
    cu = std::move(bu);
    cv = std::move(bv);
    cnbx = nbx;
    cnby = nby;
    cw = w;
    ch = h;
  }
  FlowField out(i0.width, i0.height);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const std::size_t at = std::size_t(y) * out.width + x;
      ftflow::bm_dense_at(cu.data(), cv.data(), cnbx, cnby, p.block, x, y, &out.u[at], &out.v[at]);
    }
  return out;
}

FlowField lucas_kanade_simd(const Image& i0, const Image& i1, const localflow::LkParams& p,
                            int threads, std::int64_t simd_target) {
  localflow::check_frame_pair(i0, i1, "lucas_kanade_simd");
  if (auto why = localflow::lk_params_invalid_reason(p))
    throw std::invalid_argument("lucas_kanade_simd: " + *why);
  check_run(threads, simd_target, "lucas_kanade_simd");
  const std::vector<float> g = localflow::lk_window_taps(p);
  const int r = p.window / 2;
  // The weight sum and the solvability threshold, as lk_refine accumulates them.
  float sw = 0.f;
  for (int j = -r; j <= r; ++j)
    for (int i = -r; i <= r; ++i) sw = ftflow::add(sw, ftflow::mul(g[j + r], g[i + r]));
  const float min_eigen = ftflow::mul(ftflow::kLkMinEigen, sw);
  std::vector<Image> p0, p1;
  pyramids(i0, i1, p.levels, threads, p0, p1);
  std::vector<float> cu, cv;  // flow of the coarser level
  int cw = 0, ch = 0;
  for (int l = p.levels - 1; l >= 0; --l) {
    const Image& a = p0[std::size_t(l)];
    const int w = a.width, h = a.height, pw = w + 2 * r;
    const ftflow::LkPlane r0{a.data.data(), w};
    // I0, Ix, Iy padded (LkRow's layout) and the initial flow, one parallel loop.
    std::vector<float> i0p(std::size_t(pw) * h), gxp(i0p.size()), gyp(i0p.size());
    std::vector<float> u0(a.size()), v0(a.size());
#pragma omp parallel for num_threads(threads) schedule(static)
    for (int y = 0; y < h; ++y) {
      float* pi = &i0p[std::size_t(y) * pw];
      float* px = &gxp[std::size_t(y) * pw];
      float* py = &gyp[std::size_t(y) * pw];
      for (int x = 0; x < w; ++x) {
        const std::size_t at = std::size_t(y) * w + x;
        pi[x + r] = a.data[at];
        px[x + r] = ftflow::lk_grad_x(r0, w, x, y);
        py[x + r] = ftflow::lk_grad_y(r0, h, x, y);
        ftflow::lk_initial(cu.empty() ? nullptr : cu.data(), cv.data(), cw, ch, x, y, &u0[at],
                           &v0[at]);
      }
      pad_row(pi, w, r);
      pad_row(px, w, r);
      pad_row(py, w, r);
    }
    std::vector<float> col(std::size_t(pw), 0.f);
    for (int c = -r; c < w + r; ++c) col[std::size_t(c + r)] = float(std::clamp(c, 0, w - 1));
    const PaddedReader pi0{i0p.data(), pw, r}, pgx{gxp.data(), pw, r}, pgy{gyp.data(), pw, r};
    const float* b = p1[std::size_t(l)].data.data();
    std::vector<float> u(a.size()), v(a.size());
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1)
    for (int y = 0; y < h; ++y) {
      const std::size_t row = std::size_t(y) * w;
      const int done = simd_localflow::lk_refine_row(
          {i0p.data(), gxp.data(), gyp.data(), col.data(), pw, b, w, h, y, r, g.data(), min_eigen,
           p.iterations, &u0[row], &v0[row], &u[row], &v[row]},
          simd_target);
      for (int x = done; x < w; ++x) {
        u[row + x] = u0[row + x];
        v[row + x] = v0[row + x];
        ftflow::lk_refine(pi0, pgx, pgy, b, w, h, x, y, r, g.data(), p.iterations, &u[row + x],
                          &v[row + x]);
      }
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

}  // namespace flowtune
