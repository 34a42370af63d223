// The kernels of kernels/simd/localflow_simd_rows.hpp, compiled once per SIMD target by
// Highway's foreach_target.h and picked at run time by HWY_DYNAMIC_DISPATCH. Each lane
// replays the scalar reference's float operations (kernels/cuda/bm_core.cuh,
// lk_core.cuh) in its order: Add, Sub, Mul, Div, Sqrt and Floor are IEEE operations on every
// target, and this file is compiled with -ffp-contract=off (no fused multiply-add).
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd/localflow_simd_rows.cpp"
#include "kernels/simd/localflow_simd_rows.hpp"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>

#include "kernels/simd/simd_dispatch.hpp"

HWY_BEFORE_NAMESPACE();
namespace flowtune {
namespace simd_localflow {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;
using DI = hn::RebindToSigned<DF>;
using VI = hn::Vec<DI>;

/// Stores the first n lanes of v at out (n <= Lanes).
HWY_INLINE void store_first(DF d, VF v, int n, float* out) {
  HWY_ALIGN float lanes[HWY_MAX_BYTES / sizeof(float)];
  hn::Store(v, d, lanes);
  std::copy(lanes, lanes + n, out);
}

/// SAD (sum |a - b|) or SSD (sum (a - b)^2) of the candidates dx0 .. dx0 + Lanes - 1 of row
/// dy: bm_cost's loop, s = s + |I0 - I1| (or (I0 - I1)^2) pixel by pixel.
HWY_INLINE VF sad_ssd(DF d, const BmBlockCosts& q, int dy, int dx0, bool sad) {
  VF s = hn::Zero(d);
  for (int ly = 0; ly < q.bh; ++ly) {
    const float* a = q.block + std::size_t(ly) * q.bw;
    const float* b = q.window + std::size_t(ly + dy) * q.stride + dx0;
    for (int lx = 0; lx < q.bw; ++lx) {
      const VF diff = hn::Sub(hn::Set(d, a[lx]), hn::LoadU(d, b + lx));
      s = hn::Add(s, sad ? hn::Abs(diff) : hn::Mul(diff, diff));
    }
  }
  return s;
}

/// -NCC of the candidates dx0 .. of row dy: bm_cost's means, then its centred sums, then
/// -s01 / sqrt(s00 s11), 0 where either block is flat.
HWY_INLINE VF neg_ncc(DF d, const BmBlockCosts& q, int dy, int dx0) {
  VF s0 = hn::Zero(d), s1 = hn::Zero(d);
  for (int ly = 0; ly < q.bh; ++ly) {
    const float* a = q.block + std::size_t(ly) * q.bw;
    const float* b = q.window + std::size_t(ly + dy) * q.stride + dx0;
    for (int lx = 0; lx < q.bw; ++lx) {
      s0 = hn::Add(s0, hn::Set(d, a[lx]));
      s1 = hn::Add(s1, hn::LoadU(d, b + lx));
    }
  }
  const VF n = hn::Set(d, float(q.bw * q.bh));
  const VF m0 = hn::Div(s0, n), m1 = hn::Div(s1, n);
  VF s01 = hn::Zero(d), s00 = hn::Zero(d), s11 = hn::Zero(d);
  for (int ly = 0; ly < q.bh; ++ly) {
    const float* a = q.block + std::size_t(ly) * q.bw;
    const float* b = q.window + std::size_t(ly + dy) * q.stride + dx0;
    for (int lx = 0; lx < q.bw; ++lx) {
      const VF va = hn::Sub(hn::Set(d, a[lx]), m0), vb = hn::Sub(hn::LoadU(d, b + lx), m1);
      s01 = hn::Add(s01, hn::Mul(va, vb));
      s00 = hn::Add(s00, hn::Mul(va, va));
      s11 = hn::Add(s11, hn::Mul(vb, vb));
    }
  }
  const auto textured = hn::And(hn::Gt(s00, hn::Zero(d)), hn::Gt(s11, hn::Zero(d)));
  return hn::IfThenElseZero(textured, hn::Neg(hn::Div(s01, hn::Sqrt(hn::Mul(s00, s11)))));
}

void BmBlockCostsImpl(const BmBlockCosts& q) {
  const DF d;
  const int n = int(hn::Lanes(d)), side = 2 * q.radius + 1;
  for (int dy = 0; dy < side; ++dy)
    for (int dx0 = 0; dx0 < side; dx0 += n) {
      const VF c =
          q.similarity == 0 ? neg_ncc(d, q, dy, dx0) : sad_ssd(d, q, dy, dx0, q.similarity == 1);
      store_first(d, c, std::min(n, side - dx0), q.costs + std::size_t(dy) * side + dx0);
    }
}

/// bilinear(i1, w, h, x, y) of flow_core.cuh per lane: the position clamped to the plane,
/// the four neighbours gathered, interpolated along x then y.
HWY_INLINE VF bilinear(DF d, const float* i1, int w, int h, VF x, VF y) {
  const DI di;
  const VF zero = hn::Zero(d);
  const VF xmax = hn::Set(d, float(w - 1)), ymax = hn::Set(d, float(h - 1));
  // clampf: v < lo ? lo : (v > hi ? hi : v); a NaN (never from a solvable window) reads 0.
  x = hn::IfThenElse(hn::Lt(x, zero), zero, hn::IfThenElse(hn::Gt(x, xmax), xmax, x));
  y = hn::IfThenElse(hn::Lt(y, zero), zero, hn::IfThenElse(hn::Gt(y, ymax), ymax, y));
  x = hn::IfThenElseZero(hn::Eq(x, x), x);
  y = hn::IfThenElseZero(hn::Eq(y, y), y);
  const VF fx0 = hn::Floor(x), fy0 = hn::Floor(y);
  const VI x0 = hn::ConvertTo(di, fx0), y0 = hn::ConvertTo(di, fy0);
  const VI one = hn::Set(di, 1), wi = hn::Set(di, w);
  const VI x1 = hn::Min(hn::Add(x0, one), hn::Set(di, w - 1));
  const VI y1 = hn::Min(hn::Add(y0, one), hn::Set(di, h - 1));
  const VI row0 = hn::Mul(y0, wi), row1 = hn::Mul(y1, wi);
  const VF ax = hn::Sub(x, fx0), ay = hn::Sub(y, fy0);
  const VF a00 = hn::GatherIndex(d, i1, hn::Add(row0, x0));
  const VF a10 = hn::GatherIndex(d, i1, hn::Add(row0, x1));
  const VF a01 = hn::GatherIndex(d, i1, hn::Add(row1, x0));
  const VF a11 = hn::GatherIndex(d, i1, hn::Add(row1, x1));
  const VF top = hn::Add(a00, hn::Mul(ax, hn::Sub(a10, a00)));
  const VF bottom = hn::Add(a01, hn::Mul(ax, hn::Sub(a11, a01)));
  return hn::Add(top, hn::Mul(ay, hn::Sub(bottom, top)));
}

int LkRefineRowImpl(const LkRow& q) {
  const DF d;
  const int n = int(hn::Lanes(d));
  const int end = q.w - q.w % n;
  const int r = q.r;
  const VF zero = hn::Zero(d), one = hn::Set(d, 1.f);
  for (int x = 0; x < end; x += n) {
    // Structure tensor G over the window (lk_refine's first loop).
    VF gxx = zero, gxy = zero, gyy = zero;
    for (int j = -r; j <= r; ++j) {
      const std::size_t row = std::size_t(std::clamp(q.y + j, 0, q.h - 1)) * q.padded_width;
      for (int i = -r; i <= r; ++i) {
        const VF wt = hn::Set(d, q.g[j + r] * q.g[i + r]);
        const std::size_t at = row + std::size_t(x + i + r);
        const VF a = hn::LoadU(d, q.gx + at), b = hn::LoadU(d, q.gy + at);
        gxx = hn::Add(gxx, hn::Mul(wt, hn::Mul(a, a)));
        gxy = hn::Add(gxy, hn::Mul(wt, hn::Mul(a, b)));
        gyy = hn::Add(gyy, hn::Mul(wt, hn::Mul(b, b)));
      }
    }
    const VF dd = hn::Sub(gxx, gyy);
    const VF disc = hn::Sqrt(hn::Add(hn::Mul(dd, dd), hn::Mul(hn::Set(d, 4.f), hn::Mul(gxy, gxy))));
    const VF min_eigen = hn::Mul(hn::Set(d, 0.5f), hn::Sub(hn::Add(gxx, gyy), disc));
    const VF det = hn::Sub(hn::Mul(gxx, gyy), hn::Mul(gxy, gxy));
    const auto solved = hn::And(hn::Gt(min_eigen, hn::Set(d, q.min_eigen)), hn::Gt(det, zero));
    const VF u0 = hn::LoadU(d, q.u0 + x), v0 = hn::LoadU(d, q.v0 + x);
    if (hn::AllFalse(d, solved)) {
      hn::StoreU(u0, d, q.u + x);
      hn::StoreU(v0, d, q.v + x);
      continue;
    }
    // Unsolved lanes iterate from 0 with det 1 (finite, discarded) so that their reads stay
    // in the plane.
    const VF det_s = hn::IfThenElse(solved, det, one);
    VF du = hn::IfThenElseZero(solved, u0), dv = hn::IfThenElseZero(solved, v0);
    for (int k = 0; k < q.iterations; ++k) {
      VF bx = zero, by = zero;
      for (int j = -r; j <= r; ++j) {
        const int cy = std::clamp(q.y + j, 0, q.h - 1);
        const std::size_t row = std::size_t(cy) * q.padded_width;
        const VF fy = hn::Add(hn::Set(d, float(cy)), dv);
        for (int i = -r; i <= r; ++i) {
          const VF wt = hn::Set(d, q.g[j + r] * q.g[i + r]);
          const std::size_t at = row + std::size_t(x + i + r);
          const VF fx = hn::Add(hn::LoadU(d, q.col + x + i + r), du);
          const VF e = hn::Sub(hn::LoadU(d, q.i0 + at), bilinear(d, q.i1, q.w, q.h, fx, fy));
          const VF we = hn::Mul(wt, e);
          bx = hn::Add(bx, hn::Mul(we, hn::LoadU(d, q.gx + at)));
          by = hn::Add(by, hn::Mul(we, hn::LoadU(d, q.gy + at)));
        }
      }
      du = hn::Add(du, hn::Div(hn::Sub(hn::Mul(gyy, bx), hn::Mul(gxy, by)), det_s));
      dv = hn::Add(dv, hn::Div(hn::Sub(hn::Mul(gxx, by), hn::Mul(gxy, bx)), det_s));
    }
    hn::StoreU(hn::IfThenElse(solved, du, u0), d, q.u + x);
    hn::StoreU(hn::IfThenElse(solved, dv, v0), d, q.v + x);
  }
  return end;
}

int MaxLanesImpl() {
  return int(hn::Lanes(DF()));
}

const char* TargetNameImpl() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace HWY_NAMESPACE
}  // namespace simd_localflow
}  // namespace flowtune
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace flowtune {
namespace simd_localflow {

HWY_EXPORT(BmBlockCostsImpl);
HWY_EXPORT(LkRefineRowImpl);
HWY_EXPORT(MaxLanesImpl);
HWY_EXPORT(TargetNameImpl);

void bm_block_costs(const BmBlockCosts& q, std::int64_t target) {
  FLOWTUNE_DISPATCH(BmBlockCostsImpl, target)(q);
}
int lk_refine_row(const LkRow& row, std::int64_t target) {
  return FLOWTUNE_DISPATCH(LkRefineRowImpl, target)(row);
}
int max_lanes(std::int64_t target) {
  return FLOWTUNE_DISPATCH(MaxLanesImpl, target)();
}
std::string running_target(std::int64_t target) {
  return FLOWTUNE_DISPATCH(TargetNameImpl, target)();
}

}  // namespace simd_localflow
}  // namespace flowtune
#endif  // HWY_ONCE
