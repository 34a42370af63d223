#include "kernels/localflow/block_matching.hpp"

#include <stdexcept>
#include <vector>

#include "kernels/cuda/bm_core.cuh"
#include "kernels/localflow/pyramid.hpp"

namespace flowtune::localflow {

std::optional<std::string> bm_params_invalid_reason(const BmParams& p) {
  if (p.levels < 1 || p.levels > 8) return "levels=" + std::to_string(p.levels) + " outside [1, 8]";
  if (p.block < 2 || p.block > 64) return "block=" + std::to_string(p.block) + " outside [2, 64]";
  if (p.radius < 1 || p.radius > 16)
    return "radius=" + std::to_string(p.radius) + " outside [1, 16]";
  if (p.similarity < 0 || p.similarity > 2)
    return "similarity=" + std::to_string(p.similarity) + " outside {0 ncc, 1 sad, 2 ssd}";
  if (p.subpixel != 0 && p.subpixel != 1)
    return "subpixel=" + std::to_string(p.subpixel) + " is neither 0 nor 1";
  return std::nullopt;
}

FlowField block_matching(const Image& i0, const Image& i1, const BmParams& p) {
  check_frame_pair(i0, i1, "block_matching");
  if (auto why = bm_params_invalid_reason(p))
    throw std::invalid_argument("block_matching: " + *why);
  const std::vector<Image> p0 = build_pyramid(i0, p.levels), p1 = build_pyramid(i1, p.levels);
  const int side = 2 * p.radius + 1;
  std::vector<float> costs(std::size_t(side) * side);
  std::vector<float> cu, cv;  // block flows of the coarser level
  int cnbx = 0, cnby = 0, cw = 0, ch = 0;
  for (int l = p.levels - 1; l >= 0; --l) {
    const Image& a = p0[std::size_t(l)];
    const Image& b = p1[std::size_t(l)];
    const int w = a.width, h = a.height;
    const int nbx = ftflow::bm_blocks(w, p.block), nby = ftflow::bm_blocks(h, p.block);
    std::vector<float> bu(std::size_t(nbx) * nby), bv(bu.size());
    for (int by = 0; by < nby; ++by)
      for (int bx = 0; bx < nbx; ++bx) {
        int pu = 0, pv = 0;
        ftflow::bm_prediction(cu.empty() ? nullptr : cu.data(), cv.data(), cnbx, cnby, cw, ch,
                              p.block, w, h, bx, by, &pu, &pv);
        const int x0 = bx * p.block, y0 = by * p.block;
        const int bw = std::min(p.block, w - x0), bh = std::min(p.block, h - y0);
        const ftflow::BmClampedReader r0{a.data.data(), w, h, x0, y0};
        for (int k = 0; k < side * side; ++k) {
          const ftflow::BmClampedReader r1{b.data.data(), w, h, x0 + pu + k % side - p.radius,
                                           y0 + pv + k / side - p.radius};
          costs[std::size_t(k)] = ftflow::bm_cost(r0, r1, bw, bh, p.similarity);
        }
        const std::size_t at = std::size_t(by) * nbx + bx;
        ftflow::bm_block_flow(costs.data(), p.radius, pu, pv, p.subpixel, &bu[at], &bv[at]);
      }
    cu = std::move(bu);
    cv = std::move(bv);
    cnbx = nbx;
    cnby = nby;
    cw = w;
    ch = h;
  }
  FlowField out(i0.width, i0.height);
  for (int y = 0; y < out.height; ++y)
    for (int x = 0; x < out.width; ++x) {
      const std::size_t at = std::size_t(y) * out.width + x;
      ftflow::bm_dense_at(cu.data(), cv.data(), cnbx, cnby, p.block, x, y, &out.u[at], &out.v[at]);
    }
  return out;
}

}  // namespace flowtune::localflow
