// The row kernels of kernels/simd/tvl1_simd_rows.hpp, compiled once per SIMD target by
// Highway's foreach_target.h (x86: SSE4, AVX2, AVX-512; aarch64: Neon, SVE; plus the
// baseline) and picked at run time by HWY_DYNAMIC_DISPATCH. Same formulas as
// tvl1_iterate_reference (numerics contract, ARCHITECTURE.md), in float.
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/simd/tvl1_simd_rows.cpp"
#include "kernels/simd/tvl1_simd_rows.hpp"

#include <hwy/foreach_target.h>  // IWYU pragma: keep
#include <hwy/highway.h>

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

/// update u at pixel x of the row, scalar (row ends); returns |u_new - u_old|^2.
template <typename S>
float update_u_pixel(const URow<S>& r, int x) {
  const float gx = load1(r.grad_x + x), gy = load1(r.grad_y + x);
  const float u1 = load1(r.u1 + x), u2 = load1(r.u2 + x);
  const float grad_sq = gx * gx + gy * gy;
  const float rho = load1(r.rho_c + x) + gx * u1 + gy * u2;
  const float ltg = r.lambda_theta * grad_sq;
  float d1 = 0.f, d2 = 0.f;
  if (rho < -ltg) {
    d1 = r.lambda_theta * gx;
    d2 = r.lambda_theta * gy;
  } else if (rho > ltg) {
    d1 = -r.lambda_theta * gx;
    d2 = -r.lambda_theta * gy;
  } else if (grad_sq >= 1e-10f) {
    const float fi = -rho / grad_sq;
    d1 = fi * gx;
    d2 = fi * gy;
  }
  const float div1 = load1(r.p11 + x) - (x > 0 ? load1(r.p11 + x - 1) : 0.f) + load1(r.p12 + x) -
                     (r.p12_above ? load1(r.p12_above + x) : 0.f);
  const float div2 = load1(r.p21 + x) - (x > 0 ? load1(r.p21 + x - 1) : 0.f) + load1(r.p22 + x) -
                     (r.p22_above ? load1(r.p22_above + x) : 0.f);
  const float n1 = u1 + d1 + r.theta * div1, n2 = u2 + d2 + r.theta * div2;
  store1(r.u1 + x, n1);
  store1(r.u2 + x, n2);
  // The change as stored (after rounding to the storage type).
  const float c1 = load1(r.u1 + x) - u1, c2 = load1(r.u2 + x) - u2;
  return c1 * c1 + c2 * c2;
}

template <typename S>
double update_u_row_t(const URow<S>& r) {
  const DF d;
  const int n = static_cast<int>(hn::Lanes(d));
  const VF lt = hn::Set(d, r.lambda_theta), neg_lt = hn::Set(d, -r.lambda_theta);
  const VF theta = hn::Set(d, r.theta), grad_zero = hn::Set(d, 1e-10f), zero = hn::Zero(d);
  VF change = zero;
  double edge_change = update_u_pixel(r, 0);  // x = 0 has no left neighbour
  int x = 1;
  for (; x + n <= r.width; x += n) {
    const VF gx = load(d, r.grad_x + x), gy = load(d, r.grad_y + x);
    const VF u1 = load(d, r.u1 + x), u2 = load(d, r.u2 + x);
    const VF grad_sq = hn::MulAdd(gx, gx, hn::Mul(gy, gy));
    const VF rho = hn::MulAdd(gy, u2, hn::MulAdd(gx, u1, load(d, r.rho_c + x)));
    const VF ltg = hn::Mul(lt, grad_sq);
    // TH: lt*grad where rho < -lt|grad|^2, -lt*grad where rho > lt|grad|^2, else
    // -rho/|grad|^2 * grad (0 where |grad|^2 < 1e-10).
    const auto below = hn::Lt(rho, hn::Neg(ltg));
    const auto above = hn::Gt(rho, ltg);
    const VF fi = hn::IfThenElseZero(hn::Ge(grad_sq, grad_zero), hn::Div(hn::Neg(rho), grad_sq));
    const VF scale = hn::IfThenElse(below, lt, hn::IfThenElse(above, neg_lt, fi));
    const VF p12_up = r.p12_above ? load(d, r.p12_above + x) : zero;
    const VF p22_up = r.p22_above ? load(d, r.p22_above + x) : zero;
    const VF div1 = hn::Add(hn::Sub(load(d, r.p11 + x), load(d, r.p11 + x - 1)),
                            hn::Sub(load(d, r.p12 + x), p12_up));
    const VF div2 = hn::Add(hn::Sub(load(d, r.p21 + x), load(d, r.p21 + x - 1)),
                            hn::Sub(load(d, r.p22 + x), p22_up));
    const VF n1 = hn::MulAdd(theta, div1, hn::MulAdd(scale, gx, u1));
    const VF n2 = hn::MulAdd(theta, div2, hn::MulAdd(scale, gy, u2));
    store(d, n1, r.u1 + x);
    store(d, n2, r.u2 + x);
    if (!r.track_change) continue;
    if constexpr (sizeof(S) == sizeof(float)) {
      const VF c1 = hn::Sub(n1, u1), c2 = hn::Sub(n2, u2);
      change = hn::MulAdd(c1, c1, hn::MulAdd(c2, c2, change));
    } else {  // the change as stored
      const VF c1 = hn::Sub(load(d, r.u1 + x), u1), c2 = hn::Sub(load(d, r.u2 + x), u2);
      change = hn::MulAdd(c1, c1, hn::MulAdd(c2, c2, change));
    }
  }
  for (; x < r.width; ++x) edge_change += update_u_pixel(r, x);
  return edge_change + static_cast<double>(hn::GetLane(hn::SumOfLanes(d, change)));
}

/// update p at pixel x of the row, scalar (row ends).
template <typename S>
void update_p_pixel(const PRow<S>& r, int x) {
  const bool has_right = x + 1 < r.width;
  const float u1 = load1(r.u1 + x), u2 = load1(r.u2 + x);
  const float u1x = has_right ? load1(r.u1 + x + 1) - u1 : 0.f;
  const float u2x = has_right ? load1(r.u2 + x + 1) - u2 : 0.f;
  const float u1y = r.u1_below ? load1(r.u1_below + x) - u1 : 0.f;
  const float u2y = r.u2_below ? load1(r.u2_below + x) - u2 : 0.f;
  const float ng1 = 1.f + r.tau_theta * std::sqrt(u1x * u1x + u1y * u1y);
  const float ng2 = 1.f + r.tau_theta * std::sqrt(u2x * u2x + u2y * u2y);
  store1(r.p11 + x, (load1(r.p11 + x) + r.tau_theta * u1x) / ng1);
  store1(r.p12 + x, (load1(r.p12 + x) + r.tau_theta * u1y) / ng1);
  store1(r.p21 + x, (load1(r.p21 + x) + r.tau_theta * u2x) / ng2);
  store1(r.p22 + x, (load1(r.p22 + x) + r.tau_theta * u2y) / ng2);
}

template <typename S>
void update_p_row_t(const PRow<S>& r) {
  const DF d;
  const int n = static_cast<int>(hn::Lanes(d));
  const VF taut = hn::Set(d, r.tau_theta), one = hn::Set(d, 1.f), zero = hn::Zero(d);
  int x = 0;
  // Vectors need the right neighbour x + n <= width - 1; the last column is scalar.
  for (; x + n < r.width; x += n) {
    const VF u1 = load(d, r.u1 + x), u2 = load(d, r.u2 + x);
    const VF u1x = hn::Sub(load(d, r.u1 + x + 1), u1), u2x = hn::Sub(load(d, r.u2 + x + 1), u2);
    const VF u1y = r.u1_below ? hn::Sub(load(d, r.u1_below + x), u1) : zero;
    const VF u2y = r.u2_below ? hn::Sub(load(d, r.u2_below + x), u2) : zero;
    const VF ng1 = hn::MulAdd(taut, hn::Sqrt(hn::MulAdd(u1x, u1x, hn::Mul(u1y, u1y))), one);
    const VF ng2 = hn::MulAdd(taut, hn::Sqrt(hn::MulAdd(u2x, u2x, hn::Mul(u2y, u2y))), one);
    store(d, hn::Div(hn::MulAdd(taut, u1x, load(d, r.p11 + x)), ng1), r.p11 + x);
    store(d, hn::Div(hn::MulAdd(taut, u1y, load(d, r.p12 + x)), ng1), r.p12 + x);
    store(d, hn::Div(hn::MulAdd(taut, u2x, load(d, r.p21 + x)), ng2), r.p21 + x);
    store(d, hn::Div(hn::MulAdd(taut, u2y, load(d, r.p22 + x)), ng2), r.p22 + x);
  }
  for (; x < r.width; ++x) update_p_pixel(r, x);
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
