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

double update_u_row(const URow<float>& row) {
  return HWY_DYNAMIC_DISPATCH(UpdateURowF32)(row);
}
double update_u_row(const URow<hwy::float16_t>& row) {
  return HWY_DYNAMIC_DISPATCH(UpdateURowF16)(row);
}
void update_p_row(const PRow<float>& row) {
  HWY_DYNAMIC_DISPATCH(UpdatePRowF32)(row);
}
void update_p_row(const PRow<hwy::float16_t>& row) {
  HWY_DYNAMIC_DISPATCH(UpdatePRowF16)(row);
}
void to_binary16(const float* in, hwy::float16_t* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(ToBinary16)(in, out, n);
}
void from_binary16(const hwy::float16_t* in, float* out, std::size_t n) {
  HWY_DYNAMIC_DISPATCH(FromBinary16)(in, out, n);
}

std::string dispatched_target() {
  // The dispatch table's choice: the best target both compiled in and supported.
  const std::vector<std::int64_t> targets = hwy::SupportedAndGeneratedTargets();
  return targets.empty() ? std::string("none") : std::string(hwy::TargetName(targets.front()));
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
