// The row kernels of kernels/simd/tvl1_simd_rows.hpp, compiled once per SIMD target by
// Highway's foreach_target.h (x86: SSE4, AVX2, AVX-512; aarch64: Neon, SVE; plus the
// baseline) and picked at run time by HWY_DYNAMIC_DISPATCH. Same formulas as
// tvl1_iterate_reference (numerics contract, ARCHITECTURE.md), in float.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd/tvl1_simd_rows.cpp"
#include "kernels/simd/tvl1_simd_rows.hpp"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>

#include "kernels/simd/binary16.hpp"
#include "kernels/simd/simd_dispatch.hpp"

#if FLOWTUNE_NEON_FP16
#include <sys/auxv.h>  // getauxval, HWCAP_ASIMDHP
#endif

HWY_BEFORE_NAMESPACE();
namespace flowtune {
namespace simd_tvl1 {
namespace HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using DF = hn::ScalableTag<float>;
using VF = hn::Vec<DF>;

/// Targets whose Highway 1.0.3 f32 -> f16 DemoteTo truncates instead of rounding to nearest
/// even (x86 without F16C, the emulated ones): binary16 goes through binary16_bits_rne there.
constexpr bool kSoftBinary16 = HWY_TARGET == HWY_SCALAR || HWY_TARGET == HWY_EMU128 ||
                               (HWY_ARCH_X86 && HWY_TARGET >= HWY_SSE4);

HWY_INLINE VF load(DF d, const float* p) {
  return hn::LoadU(d, p);
}
HWY_INLINE VF load(DF d, const hwy::float16_t* p) {
  if constexpr (kSoftBinary16) {
    HWY_ALIGN float lanes[HWY_MAX_BYTES / sizeof(float)];
    for (std::size_t i = 0; i < hn::Lanes(d); ++i) lanes[i] = binary16_to_float(bits_of(p[i]));
    return hn::Load(d, lanes);
  } else {
    const hn::Rebind<hwy::float16_t, DF> dh;
    return hn::PromoteTo(d, hn::LoadU(dh, p));
  }
}
HWY_INLINE void store(DF d, VF v, float* p) {
  hn::StoreU(v, d, p);
}
HWY_INLINE void store(DF d, VF v, hwy::float16_t* p) {
  if constexpr (kSoftBinary16) {
    HWY_ALIGN float lanes[HWY_MAX_BYTES / sizeof(float)];
    hn::Store(v, d, lanes);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i)
      p[i] = binary16_of_bits(binary16_bits_rne(lanes[i]));
  } else {
    const hn::Rebind<hwy::float16_t, DF> dh;
    hn::StoreU(hn::DemoteTo(dh, v), dh, p);
  }
}

/// Lanes of the widest vector of this target.
constexpr int kMaxLanes = HWY_MAX_BYTES / sizeof(float);

HWY_INLINE float load1(const float* p) {
  return *p;
}
HWY_INLINE float load1(const hwy::float16_t* p) {
  return binary16_to_float(bits_of(*p));
}
HWY_INLINE void store1(float* p, float v) {
  *p = v;
}
HWY_INLINE void store1(hwy::float16_t* p, float v) {
  *p = binary16_of_bits(binary16_bits_rne(v));
}

/// Loads the lanes of d at p as float; one lane through the scalar conversion (exact, as the
/// vector one).
template <class D, typename S>
HWY_INLINE hn::Vec<D> load_lanes(D d, const S* p) {
  if constexpr (hn::MaxLanes(D()) == 1) {
    return hn::Set(d, load1(p));
  } else {
    return load(d, p);
  }
}
/// Stores the lanes of v at p, rounded to S (binary16: ties to even, as the vector store).
template <class D, typename S>
HWY_INLINE void store_lanes(D d, hn::Vec<D> v, S* p) {
  if constexpr (hn::MaxLanes(D()) == 1) {
    (void)d;
    store1(p, hn::GetLane(v));
  } else {
    store(d, v, p);
  }
}
/// v where lanes >= keep, else old: the last vector of a row overlaps lanes already updated,
/// which keep their values (old = what the vector loaded there).
template <class D>
HWY_INLINE hn::Vec<D> keep_first(D d, int keep, hn::Vec<D> v, hn::Vec<D> old) {
  return keep > 0 ? hn::IfThenElse(hn::FirstN(d, std::size_t(keep)), old, v) : v;
}

/// "update u" on the Lanes(d) pixels of the row from x (x = 0: p = 0 left of the image);
/// lanes [0, keep) are left as they are. Every pixel is computed by this one sequence of
/// Highway operations, in a full vector or a one-lane one (the same operations per lane on
/// every target), so a pixel's result depends only on its inputs, never on its column (what
/// makes tiles of any width exact). Returns the change |u_new - u_old|^2 as stored, per lane.
template <class D, typename S>
HWY_INLINE hn::Vec<D> update_u_lanes(D d, const URow<S>& r, int x, int keep = 0) {
  using V = hn::Vec<D>;
  const V lt = hn::Set(d, r.lambda_theta), neg_lt = hn::Set(d, -r.lambda_theta);
  const V theta = hn::Set(d, r.theta), grad_zero = hn::Set(d, 1e-10f), zero = hn::Zero(d);
  const V gx = load_lanes(d, r.grad_x + x), gy = load_lanes(d, r.grad_y + x);
  const V u1 = load_lanes(d, r.u1 + x), u2 = load_lanes(d, r.u2 + x);
  const V grad_sq = hn::MulAdd(gx, gx, hn::Mul(gy, gy));
  const V rho = hn::MulAdd(gy, u2, hn::MulAdd(gx, u1, load_lanes(d, r.rho_c + x)));
  const V ltg = hn::Mul(lt, grad_sq);
  // TH: lt*grad where rho < -lt|grad|^2, -lt*grad where rho > lt|grad|^2, else
  // -rho/|grad|^2 * grad (0 where |grad|^2 < 1e-10).
  const auto below = hn::Lt(rho, hn::Neg(ltg));
  const auto above = hn::Gt(rho, ltg);
  const V fi = hn::IfThenElseZero(hn::Ge(grad_sq, grad_zero), hn::Div(hn::Neg(rho), grad_sq));
  const V scale = hn::IfThenElse(below, lt, hn::IfThenElse(above, neg_lt, fi));
  const V p11_left = x > 0 ? load_lanes(d, r.p11 + x - 1) : zero;
  const V p21_left = x > 0 ? load_lanes(d, r.p21 + x - 1) : zero;
  const V p12_up = r.p12_above ? load_lanes(d, r.p12_above + x) : zero;
  const V p22_up = r.p22_above ? load_lanes(d, r.p22_above + x) : zero;
  const V div1 = hn::Add(hn::Sub(load_lanes(d, r.p11 + x), p11_left),
                         hn::Sub(load_lanes(d, r.p12 + x), p12_up));
  const V div2 = hn::Add(hn::Sub(load_lanes(d, r.p21 + x), p21_left),
                         hn::Sub(load_lanes(d, r.p22 + x), p22_up));
  const V n1 = keep_first(d, keep, hn::MulAdd(theta, div1, hn::MulAdd(scale, gx, u1)), u1);
  const V n2 = keep_first(d, keep, hn::MulAdd(theta, div2, hn::MulAdd(scale, gy, u2)), u2);
  store_lanes(d, n1, r.u1 + x);
  store_lanes(d, n2, r.u2 + x);
  if (!r.track_change) return zero;
  if constexpr (sizeof(S) == sizeof(float)) {
    const V c1 = hn::Sub(n1, u1), c2 = hn::Sub(n2, u2);
    return hn::MulAdd(c1, c1, hn::Mul(c2, c2));
  } else {  // the change as stored
    const V c1 = hn::Sub(load_lanes(d, r.u1 + x), u1), c2 = hn::Sub(load_lanes(d, r.u2 + x), u2);
    return hn::MulAdd(c1, c1, hn::Mul(c2, c2));
  }
}

template <typename S>
double update_u_row_t(const URow<S>& r) {
  const DF d;
  const hn::CappedTag<float, 1> d1;
  const int n = static_cast<int>(hn::Lanes(d));
  const int begin = r.change_begin, end = r.change_end;
  VF change = hn::Zero(d);
  double edge_change = 0.0;  // one-lane pixels and vectors straddling [begin, end)
  auto add_lanes = [&](VF c, int x) {
    if (!r.track_change) return;
    HWY_ALIGN float lanes[kMaxLanes] = {};
    hn::Store(c, d, lanes);
    for (int i = 0; i < n; ++i)
      if (x + i >= begin && x + i < end) edge_change += static_cast<double>(lanes[i]);
  };
  auto one = [&](int x) {
    const float c = hn::GetLane(update_u_lanes(d1, r, x));
    if (x >= begin && x < end) edge_change += static_cast<double>(c);
  };
  one(0);                 // x = 0 has no left neighbour
  if (r.width < n + 1) {  // too short for a vector after x = 0
    for (int x = 1; x < r.width; ++x) one(x);
  } else {
    int x = 1;
    for (; x + n <= r.width; x += n) {
      const VF c = update_u_lanes(d, r, x);
      if (x >= begin && x + n <= end)
        change = hn::Add(change, c);
      else if (x + n > begin && x < end)
        add_lanes(c, x);
    }
    if (x < r.width) {  // the row's last vector, its first lanes already done
      const int last = r.width - n;
      add_lanes(update_u_lanes(d, r, last, x - last), last);
    }
  }
  return edge_change + static_cast<double>(hn::GetLane(hn::SumOfLanes(d, change)));
}

/// "update p" on the Lanes(d) pixels of the row from x; lanes [0, keep) are left as they are;
/// `right` is false on the last column (forward gradient 0 there). One sequence of
/// operations for every pixel (update_u_lanes).
template <class D, typename S>
HWY_INLINE void update_p_lanes(D d, const PRow<S>& r, int x, bool right, int keep = 0) {
  using V = hn::Vec<D>;
  const V taut = hn::Set(d, r.tau_theta), one = hn::Set(d, 1.f), zero = hn::Zero(d);
  const V u1 = load_lanes(d, r.u1 + x), u2 = load_lanes(d, r.u2 + x);
  const V u1x = right ? hn::Sub(load_lanes(d, r.u1 + x + 1), u1) : zero;
  const V u2x = right ? hn::Sub(load_lanes(d, r.u2 + x + 1), u2) : zero;
  const V u1y = r.u1_below ? hn::Sub(load_lanes(d, r.u1_below + x), u1) : zero;
  const V u2y = r.u2_below ? hn::Sub(load_lanes(d, r.u2_below + x), u2) : zero;
  const V ng1 = hn::MulAdd(taut, hn::Sqrt(hn::MulAdd(u1x, u1x, hn::Mul(u1y, u1y))), one);
  const V ng2 = hn::MulAdd(taut, hn::Sqrt(hn::MulAdd(u2x, u2x, hn::Mul(u2y, u2y))), one);
  const V p11 = load_lanes(d, r.p11 + x), p12 = load_lanes(d, r.p12 + x);
  const V p21 = load_lanes(d, r.p21 + x), p22 = load_lanes(d, r.p22 + x);
  store_lanes(d, keep_first(d, keep, hn::Div(hn::MulAdd(taut, u1x, p11), ng1), p11), r.p11 + x);
  store_lanes(d, keep_first(d, keep, hn::Div(hn::MulAdd(taut, u1y, p12), ng1), p12), r.p12 + x);
  store_lanes(d, keep_first(d, keep, hn::Div(hn::MulAdd(taut, u2x, p21), ng2), p21), r.p21 + x);
  store_lanes(d, keep_first(d, keep, hn::Div(hn::MulAdd(taut, u2y, p22), ng2), p22), r.p22 + x);
}

template <typename S>
void update_p_row_t(const PRow<S>& r) {
  const DF d;
  const hn::CappedTag<float, 1> d1;
  const int n = static_cast<int>(hn::Lanes(d));
  int x = 0;
  if (r.width >= n + 1) {
    // Vectors need the right neighbour x + n <= width - 1; then one vector ending at
    // width - 2, its first lanes already done; the last column is one lane.
    for (; x + n < r.width; x += n) update_p_lanes(d, r, x, true);
    if (x < r.width - 1) {
      const int last = r.width - 1 - n;
      update_p_lanes(d, r, last, true, x - last);
    }
    x = r.width - 1;
  }
  for (; x < r.width; ++x) update_p_lanes(d1, r, x, x + 1 < r.width);
}

// ---- precision f16: binary16 arithmetic, exact emulation on float lanes ----
// The operation sequence of the GPU's f16 path (kernels/cuda/tvl1_math.cuh, update_u /
// update_p with MathF16), every operation rounded to binary16 with ties to even (fma with
// one rounding): float lanes hold binary16 values and each operation's float result is
// rounded to binary16 (r16). For +, -, *, /, sqrt of binary16 operands the float result
// rounded again to binary16 is the correctly rounded binary16 result (binary32 has
// 24 >= 2 x 11 + 2 bits: double rounding is innocuous, Figueroa 1995); fma16 rounds to odd
// in float first, which makes the second rounding exact (Boldo & Melquiond 2008).

/// v rounded to the nearest binary16 (ties to even), as float.
HWY_INLINE VF r16(DF d, VF v) {
  if constexpr (kSoftBinary16) {
    HWY_ALIGN float lanes[kMaxLanes];
    hn::Store(v, d, lanes);
    for (std::size_t i = 0; i < hn::Lanes(d); ++i)
      lanes[i] = binary16_to_float(binary16_bits_rne(lanes[i]));
    return hn::Load(d, lanes);
  } else {
    const hn::Rebind<hwy::float16_t, DF> dh;
    return hn::PromoteTo(d, hn::DemoteTo(dh, v));
  }
}
HWY_INLINE VF add16(DF d, VF a, VF b) {
  return r16(d, hn::Add(a, b));
}
HWY_INLINE VF sub16(DF d, VF a, VF b) {
  return r16(d, hn::Sub(a, b));
}
HWY_INLINE VF mul16(DF d, VF a, VF b) {
  return r16(d, hn::Mul(a, b));
}
/// a * b + c rounded once to binary16 (__hfma). a * b is exact in float (22 bits, no
/// underflow for binary16 operands); s = RN(a b + c) and its exact error e (TwoSum, Knuth);
/// where e != 0 and s's last bit is even, s moves one float ulp towards the exact sum: s is
/// then a b + c rounded to odd, and rounding it to binary16 gives the exact sum's rounding.
/// (A compiler contracting a * b + c into an fma changes no value: the product is exact.)
HWY_INLINE VF fma16(DF d, VF a, VF b, VF c) {
  const hn::RebindToSigned<DF> di;
  const VF prod = hn::Mul(a, b);
  const VF s = hn::Add(prod, c);
  const VF bv = hn::Sub(s, prod);
  const VF e = hn::Add(hn::Sub(prod, hn::Sub(s, bv)), hn::Sub(c, bv));
  const auto sb = hn::BitCast(di, s);
  const auto one = hn::Set(di, 1);
  const auto step =
      hn::IfThenElse(hn::Lt(hn::Xor(sb, hn::BitCast(di, e)), hn::Zero(di)), hn::Neg(one), one);
  const auto fix =
      hn::And(hn::RebindMask(di, hn::Ne(e, hn::Zero(d))), hn::Eq(hn::And(sb, one), hn::Zero(di)));
  return r16(d, hn::BitCast(d, hn::IfThenElse(fix, hn::Add(sb, step), sb)));
}
HWY_INLINE VF sqrt16(DF d, VF a) {
  return r16(d, hn::Sqrt(a));
}
/// 1 / a rounded to binary16 (the GPU's hrcp / h2rcp: float reciprocal rounded to binary16;
/// theirs is rcp.approx.f32, this the correctly rounded one; they can differ by one binary16
/// ulp where 1 / a lies within ~2^-23 relative of a rounding boundary).
HWY_INLINE VF rcp16(DF d, VF a) {
  return r16(d, hn::Div(hn::Set(d, 1.f), a));
}

/// The binary16 value of a float constant (the GPU's M::s(x) = __float2half_rn(x)).
inline float h16(float x) {
  return binary16_to_float(binary16_bits_rne(x));
}

/// The lanes of "update u" in binary16 arithmetic (tvl1_math.cuh update_u<MathF16>): sets
/// (n1, n2) = u new from the pixels' inputs (p11l, p21l: p left of the pixel; p12u, p22u:
/// above). Vectors pass one by one: SVE vectors cannot be members of a struct.
HWY_INLINE void update_u16(DF d, VF gx, VF gy, VF rc, VF u1, VF u2, VF p11, VF p12, VF p21, VF p22,
                           VF p11l, VF p21l, VF p12u, VF p22u, float lt_f, float theta_f, VF& n1,
                           VF& n2) {
  const VF lt = hn::Set(d, lt_f), gz = hn::Set(d, h16(6.1035156e-05f));
  const VF rho = add16(d, add16(d, rc, mul16(d, gx, u1)), mul16(d, gy, u2));
  const VF grad2 = add16(d, mul16(d, gx, gx), mul16(d, gy, gy));
  const VF ltg = mul16(d, lt, grad2);
  VF fi = hn::Min(hn::Max(mul16(d, hn::Neg(rho), rcp16(d, hn::Max(grad2, gz))), hn::Neg(lt)), lt);
  // 0 where |grad|^2 < grad_zero and !(ltg < |rho|) (MathF16::zero_where_flat).
  fi = hn::IfThenZeroElse(hn::AndNot(hn::Lt(ltg, hn::Abs(rho)), hn::Lt(grad2, gz)), fi);
  const VF v1 = fma16(d, fi, gx, u1), v2 = fma16(d, fi, gy, u2);
  const VF div1 = add16(d, sub16(d, p11, p11l), sub16(d, p12, p12u));
  const VF div2 = add16(d, sub16(d, p21, p21l), sub16(d, p22, p22u));
  const VF theta = hn::Set(d, theta_f);
  n1 = fma16(d, theta, div1, v1);
  n2 = fma16(d, theta, div2, v2);
}

/// "update u" on one row in binary16 arithmetic. Full vectors read the fields in place;
/// x = 0's vector (no left neighbour) and the row's last, partial one are gathered into
/// zero-padded lanes. Every lane runs the same correctly rounded operations, so a pixel's
/// bits do not depend on its column (nor on the target). Returns the change over
/// [change_begin, change_end) (u as stored), 0 unless track_change.
double UpdateURowH16(const URow<hwy::float16_t>& r) {
  const DF d;
  const int n = static_cast<int>(hn::Lanes(d));
  const float lt = h16(r.lambda_theta), theta = h16(r.theta);
  const VF zero = hn::Zero(d);
  double change = 0.0;
  HWY_ALIGN float old1[kMaxLanes], old2[kMaxLanes], new1[kMaxLanes], new2[kMaxLanes];
  for (int x = 0; x < r.width; x += n) {
    const int m = std::min(n, r.width - x);
    VF gx, gy, rc, u1, u2, p11, p12, p21, p22, p11l, p21l, p12u, p22u;
    if (x > 0 && m == n) {
      gx = load(d, r.grad_x + x);
      gy = load(d, r.grad_y + x);
      rc = load(d, r.rho_c + x);
      u1 = load(d, r.u1 + x);
      u2 = load(d, r.u2 + x);
      p11 = load(d, r.p11 + x);
      p12 = load(d, r.p12 + x);
      p21 = load(d, r.p21 + x);
      p22 = load(d, r.p22 + x);
      p11l = load(d, r.p11 + x - 1);
      p21l = load(d, r.p21 + x - 1);
      p12u = r.p12_above ? load(d, r.p12_above + x) : zero;
      p22u = r.p22_above ? load(d, r.p22_above + x) : zero;
    } else {
      HWY_ALIGN float g[13][kMaxLanes] = {};
      for (int i = 0; i < m; ++i) {
        const int c = x + i;
        g[0][i] = load1(r.grad_x + c);
        g[1][i] = load1(r.grad_y + c);
        g[2][i] = load1(r.rho_c + c);
        g[3][i] = load1(r.u1 + c);
        g[4][i] = load1(r.u2 + c);
        g[5][i] = load1(r.p11 + c);
        g[6][i] = load1(r.p12 + c);
        g[7][i] = load1(r.p21 + c);
        g[8][i] = load1(r.p22 + c);
        g[9][i] = c > 0 ? load1(r.p11 + c - 1) : 0.f;
        g[10][i] = c > 0 ? load1(r.p21 + c - 1) : 0.f;
        g[11][i] = r.p12_above ? load1(r.p12_above + c) : 0.f;
        g[12][i] = r.p22_above ? load1(r.p22_above + c) : 0.f;
      }
      gx = hn::Load(d, g[0]);
      gy = hn::Load(d, g[1]);
      rc = hn::Load(d, g[2]);
      u1 = hn::Load(d, g[3]);
      u2 = hn::Load(d, g[4]);
      p11 = hn::Load(d, g[5]);
      p12 = hn::Load(d, g[6]);
      p21 = hn::Load(d, g[7]);
      p22 = hn::Load(d, g[8]);
      p11l = hn::Load(d, g[9]);
      p21l = hn::Load(d, g[10]);
      p12u = hn::Load(d, g[11]);
      p22u = hn::Load(d, g[12]);
    }
    VF n1, n2;
    update_u16(d, gx, gy, rc, u1, u2, p11, p12, p21, p22, p11l, p21l, p12u, p22u, lt, theta, n1,
               n2);
    if (m == n) {
      store(d, n1, r.u1 + x);
      store(d, n2, r.u2 + x);
    } else {
      hn::Store(n1, d, new1);
      hn::Store(n2, d, new2);
      for (int i = 0; i < m; ++i) {
        store1(r.u1 + x + i, new1[i]);
        store1(r.u2 + x + i, new2[i]);
      }
    }
    if (r.track_change) {
      hn::Store(u1, d, old1);
      hn::Store(u2, d, old2);
      hn::Store(n1, d, new1);
      hn::Store(n2, d, new2);
      for (int i = std::max(0, r.change_begin - x); i < std::min(m, r.change_end - x); ++i) {
        const double c1 = double(new1[i]) - old1[i], c2 = double(new2[i]) - old2[i];
        change += c1 * c1 + c2 * c2;
      }
    }
  }
  return change;
}

/// "update p" on one row in binary16 arithmetic (tvl1_math.cuh update_p<MathF16>): vectors
/// whose lanes all have a right neighbour read in place, the row's end is gathered (the
/// last column's right neighbour is the pixel itself: forward gradient 0).
void UpdatePRowH16(const PRow<hwy::float16_t>& r) {
  const DF d;
  const int n = static_cast<int>(hn::Lanes(d));
  const VF taut = hn::Set(d, h16(r.tau_theta)), one = hn::Set(d, 1.f);
  HWY_ALIGN float out[4][kMaxLanes];
  for (int x = 0; x < r.width; x += n) {
    const int m = std::min(n, r.width - x);
    VF u1, u2, u1r, u2r, u1d, u2d, p11, p12, p21, p22;
    if (x + n < r.width) {
      u1 = load(d, r.u1 + x);
      u2 = load(d, r.u2 + x);
      u1r = load(d, r.u1 + x + 1);
      u2r = load(d, r.u2 + x + 1);
      u1d = r.u1_below ? load(d, r.u1_below + x) : u1;
      u2d = r.u2_below ? load(d, r.u2_below + x) : u2;
      p11 = load(d, r.p11 + x);
      p12 = load(d, r.p12 + x);
      p21 = load(d, r.p21 + x);
      p22 = load(d, r.p22 + x);
    } else {
      HWY_ALIGN float g[10][kMaxLanes] = {};
      for (int i = 0; i < m; ++i) {
        const int c = x + i, right = c + 1 < r.width ? c + 1 : c;
        g[0][i] = load1(r.u1 + c);
        g[1][i] = load1(r.u2 + c);
        g[2][i] = load1(r.u1 + right);
        g[3][i] = load1(r.u2 + right);
        g[4][i] = r.u1_below ? load1(r.u1_below + c) : g[0][i];
        g[5][i] = r.u2_below ? load1(r.u2_below + c) : g[1][i];
        g[6][i] = load1(r.p11 + c);
        g[7][i] = load1(r.p12 + c);
        g[8][i] = load1(r.p21 + c);
        g[9][i] = load1(r.p22 + c);
      }
      u1 = hn::Load(d, g[0]);
      u2 = hn::Load(d, g[1]);
      u1r = hn::Load(d, g[2]);
      u2r = hn::Load(d, g[3]);
      u1d = hn::Load(d, g[4]);
      u2d = hn::Load(d, g[5]);
      p11 = hn::Load(d, g[6]);
      p12 = hn::Load(d, g[7]);
      p21 = hn::Load(d, g[8]);
      p22 = hn::Load(d, g[9]);
    }
    const VF u1x = sub16(d, u1r, u1), u2x = sub16(d, u2r, u2);
    const VF u1y = sub16(d, u1d, u1), u2y = sub16(d, u2d, u2);
    const VF norm1 = sqrt16(d, fma16(d, u1x, u1x, mul16(d, u1y, u1y)));
    const VF norm2 = sqrt16(d, fma16(d, u2x, u2x, mul16(d, u2y, u2y)));
    const VF inv1 = rcp16(d, fma16(d, taut, norm1, one));
    const VF inv2 = rcp16(d, fma16(d, taut, norm2, one));
    const VF q11 = mul16(d, fma16(d, taut, u1x, p11), inv1);
    const VF q12 = mul16(d, fma16(d, taut, u1y, p12), inv1);
    const VF q21 = mul16(d, fma16(d, taut, u2x, p21), inv2);
    const VF q22 = mul16(d, fma16(d, taut, u2y, p22), inv2);
    if (m == n) {
      store(d, q11, r.p11 + x);
      store(d, q12, r.p12 + x);
      store(d, q21, r.p21 + x);
      store(d, q22, r.p22 + x);
    } else {
      hn::Store(q11, d, out[0]);
      hn::Store(q12, d, out[1]);
      hn::Store(q21, d, out[2]);
      hn::Store(q22, d, out[3]);
      for (int i = 0; i < m; ++i) {
        store1(r.p11 + x + i, out[0][i]);
        store1(r.p12 + x + i, out[1][i]);
        store1(r.p21 + x + i, out[2][i]);
        store1(r.p22 + x + i, out[3][i]);
      }
    }
  }
}

/// binary16_arithmetic_lanes on this target (count a multiple of nothing: the tail runs in a
/// zero-padded vector, as the rows' ends do).
void Binary16Lanes(Binary16Op op, const float* a, const float* b, const float* c, float* out,
                   std::size_t count) {
  const DF d;
  const std::size_t n = hn::Lanes(d);
  for (std::size_t i = 0; i < count; i += n) {
    const std::size_t m = std::min(n, count - i);
    HWY_ALIGN float la[kMaxLanes] = {}, lb[kMaxLanes] = {}, lc[kMaxLanes] = {}, lr[kMaxLanes];
    for (std::size_t k = 0; k < m; ++k) {
      la[k] = a[i + k];
      lb[k] = b[i + k];
      lc[k] = c[i + k];
    }
    const VF va = hn::Load(d, la), vb = hn::Load(d, lb), vc = hn::Load(d, lc);
    VF r = va;
    switch (op) {
      case Binary16Op::add:
        r = add16(d, va, vb);
        break;
      case Binary16Op::sub:
        r = sub16(d, va, vb);
        break;
      case Binary16Op::mul:
        r = mul16(d, va, vb);
        break;
      case Binary16Op::fma:
        r = fma16(d, va, vb, vc);
        break;
      case Binary16Op::sqrt:
        r = sqrt16(d, va);
        break;
      case Binary16Op::rcp:
        r = rcp16(d, va);
        break;
    }
    hn::Store(r, d, lr);
    for (std::size_t k = 0; k < m; ++k) out[i + k] = lr[k];
  }
}

double UpdateURowF32(const URow<float>& r) {
  return update_u_row_t(r);
}
double UpdateURowF16(const URow<hwy::float16_t>& r) {
  return update_u_row_t(r);
}
void UpdatePRowF32(const PRow<float>& r) {
  update_p_row_t(r);
}
void UpdatePRowF16(const PRow<hwy::float16_t>& r) {
  update_p_row_t(r);
}

void ToBinary16(const float* in, hwy::float16_t* out, std::size_t count) {
  const DF d;
  const std::size_t n = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + n <= count; i += n) store(d, hn::LoadU(d, in + i), out + i);
  for (; i < count; ++i) out[i] = binary16_of_bits(binary16_bits_rne(in[i]));
}

void FromBinary16(const hwy::float16_t* in, float* out, std::size_t count) {
  const DF d;
  const std::size_t n = hn::Lanes(d);
  std::size_t i = 0;
  for (; i + n <= count; i += n) hn::StoreU(load(d, in + i), d, out + i);
  for (; i < count; ++i) out[i] = binary16_to_float(bits_of(in[i]));
}

/// The name of the target this instantiation was compiled for (what a dispatch ran).
const char* TargetNameImpl() {
  return hwy::TargetName(HWY_TARGET);
}

}  // namespace HWY_NAMESPACE
}  // namespace simd_tvl1
}  // namespace flowtune
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace flowtune {
namespace simd_tvl1 {

HWY_EXPORT(UpdateURowF32);
HWY_EXPORT(UpdateURowF16);
HWY_EXPORT(UpdatePRowF32);
HWY_EXPORT(UpdatePRowF16);
HWY_EXPORT(ToBinary16);
HWY_EXPORT(FromBinary16);
HWY_EXPORT(UpdateURowH16);
HWY_EXPORT(UpdatePRowH16);
HWY_EXPORT(Binary16Lanes);
HWY_EXPORT(TargetNameImpl);

double update_u_row(const URow<float>& row, std::int64_t target) {
  return FLOWTUNE_DISPATCH(UpdateURowF32, target)(row);
}
double update_u_row(const URow<hwy::float16_t>& row, std::int64_t target) {
  return FLOWTUNE_DISPATCH(UpdateURowF16, target)(row);
}
void update_p_row(const PRow<float>& row, std::int64_t target) {
  FLOWTUNE_DISPATCH(UpdatePRowF32, target)(row);
}
void update_p_row(const PRow<hwy::float16_t>& row, std::int64_t target) {
  FLOWTUNE_DISPATCH(UpdatePRowF16, target)(row);
}
void to_binary16(const float* in, hwy::float16_t* out, std::size_t n, std::int64_t target) {
  FLOWTUNE_DISPATCH(ToBinary16, target)(in, out, n);
}
void from_binary16(const hwy::float16_t* in, float* out, std::size_t n, std::int64_t target) {
  FLOWTUNE_DISPATCH(FromBinary16, target)(in, out, n);
}

double update_u_row_f16(const URow<hwy::float16_t>& row, std::int64_t target) {
#if FLOWTUNE_NEON_FP16
  if (target == 0 && native_binary16_arithmetic()) return neon_fp16::update_u_row(row);
#endif
  return FLOWTUNE_DISPATCH(UpdateURowH16, target)(row);
}
void update_p_row_f16(const PRow<hwy::float16_t>& row, std::int64_t target) {
#if FLOWTUNE_NEON_FP16
  if (target == 0 && native_binary16_arithmetic()) return neon_fp16::update_p_row(row);
#endif
  FLOWTUNE_DISPATCH(UpdatePRowH16, target)(row);
}

void binary16_arithmetic_lanes(Binary16Op op, const float* a, const float* b, const float* c,
                               float* out, std::size_t n, std::int64_t target) {
  FLOWTUNE_DISPATCH(Binary16Lanes, target)(op, a, b, c, out, n);
}

std::string running_target(std::int64_t target) {
  return FLOWTUNE_DISPATCH(TargetNameImpl, target)();
}

bool native_binary16_arithmetic() {
#if FLOWTUNE_NEON_FP16
  static const bool has = (getauxval(AT_HWCAP) & HWCAP_ASIMDHP) != 0;
  return has;
#else
  return false;
#endif
}

std::string binary16_arithmetic() {
#if FLOWTUNE_NEON_FP16
  if (native_binary16_arithmetic()) return "native (Armv8.2-A FP16: ASIMDHP)";
  return "emulated (no Armv8.2-A FP16 here: float operations rounded to binary16)";
#else
  return "emulated (float operations rounded to binary16)";
#endif
}

std::string dispatched_target() {
  // The dispatch table's choice: the best target both compiled in and supported.
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  return targets.empty() ? std::string("none") : std::string(hwy::TargetName(targets.front()));
}

std::vector<std::int64_t> compiled_targets() {
  std::vector<std::int64_t> bits;
  for (std::int64_t targets = HWY_TARGETS; targets != 0; targets &= targets - 1)
    bits.push_back(targets & ~(targets - 1));
  return bits;
}

bool target_supported(std::int64_t target) {
  if (target == 0) return true;
  return (target & (target - 1)) == 0 && (target & HWY_TARGETS & hwy::SupportedTargets()) != 0;
}

std::vector<std::string> supported_targets() {
  std::vector<std::string> names;
  for (const std::int64_t t : hwy::SupportedAndGeneratedTargets())
    names.emplace_back(hwy::TargetName(t));
  return names;
}

}  // namespace simd_tvl1
}  // namespace flowtune
#endif  // HWY_ONCE
