// Precision f16's rows on Armv8.2-A FP16 vectors (8 binary16 lanes, one instruction per
// operation: FADD, FSUB, FMUL, FMLA, FDIV, FSQRT, FMIN, FMAX; IEEE, ties to even, subnormals
// kept: Linux leaves FPCR.FZ16 clear). The same operation sequence as UpdateURowH16 /
// UpdatePRowH16 of tvl1_simd_rows.cpp (the GPU's f16 path, kernels/cuda/tvl1_math.cuh with
// MathF16), which give the same bits by exact emulation. Built with -march=armv8.2-a+fp16 on
// aarch64 only (kernels/simd/CMakeLists.txt) and called only where HWCAP_ASIMDHP is set
// (native_binary16_arithmetic()); this file uses no inline library code, so no function
// compiled for FP16 can be picked for a CPU without it.
#include "kernels/simd/tvl1_simd_rows.hpp"

#if FLOWTUNE_NEON_FP16
#include <arm_neon.h>

namespace flowtune {
namespace simd_tvl1 {
namespace neon_fp16 {
namespace {

using V = float16x8_t;
constexpr int kLanes = 8;

inline V ld(const hwy::float16_t* p) {
  return vld1q_f16(reinterpret_cast<const float16_t*>(p));
}
inline void st(hwy::float16_t* p, V v) {
  vst1q_f16(reinterpret_cast<float16_t*>(p), v);
}
/// a * b + c, one rounding (FMLA).
inline V fma(V a, V b, V c) {
  return vfmaq_f16(c, a, b);
}

/// tvl1_math.cuh update_u<MathF16> on 8 pixels; in[] as U16In of tvl1_simd_rows.cpp.
inline void update_u8(const V* in, V lt, V theta, V& n1, V& n2) {
  const V gx = in[0], gy = in[1], rc = in[2], u1 = in[3], u2 = in[4];
  const V gz = vdupq_n_f16(static_cast<float16_t>(6.1035156e-05f));
  const V rho = vaddq_f16(vaddq_f16(rc, vmulq_f16(gx, u1)), vmulq_f16(gy, u2));
  const V grad2 = vaddq_f16(vmulq_f16(gx, gx), vmulq_f16(gy, gy));
  const V ltg = vmulq_f16(lt, grad2);
  const V rcp = vdivq_f16(vdupq_n_f16(static_cast<float16_t>(1.f)), vmaxq_f16(grad2, gz));
  V fi = vminq_f16(vmaxq_f16(vmulq_f16(vnegq_f16(rho), rcp), vnegq_f16(lt)), lt);
  // 0 where |grad|^2 < grad_zero and !(ltg < |rho|).
  const uint16x8_t flat = vbicq_u16(vcltq_f16(grad2, gz), vcltq_f16(ltg, vabsq_f16(rho)));
  fi = vbslq_f16(flat, vdupq_n_f16(static_cast<float16_t>(0.f)), fi);
  const V v1 = fma(fi, gx, u1), v2 = fma(fi, gy, u2);
  const V div1 = vaddq_f16(vsubq_f16(in[5], in[9]), vsubq_f16(in[6], in[11]));
  const V div2 = vaddq_f16(vsubq_f16(in[7], in[10]), vsubq_f16(in[8], in[12]));
  n1 = fma(theta, div1, v1);
  n2 = fma(theta, div2, v2);
}

}  // namespace

double update_u_row(const URow<hwy::float16_t>& r) {
  const V lt = vdupq_n_f16(static_cast<float16_t>(r.lambda_theta));
  const V theta = vdupq_n_f16(static_cast<float16_t>(r.theta));
  const V zero = vdupq_n_f16(static_cast<float16_t>(0.f));
  double change = 0.0;
  for (int x = 0; x < r.width; x += kLanes) {
    const int m = r.width - x < kLanes ? r.width - x : kLanes;
    V in[13];
    if (x > 0 && m == kLanes) {
      const hwy::float16_t* planes[9] = {r.grad_x, r.grad_y, r.rho_c, r.u1, r.u2,
                                         r.p11,    r.p12,    r.p21,   r.p22};
      for (int k = 0; k < 9; ++k) in[k] = ld(planes[k] + x);
      in[9] = ld(r.p11 + x - 1);
      in[10] = ld(r.p21 + x - 1);
      in[11] = r.p12_above ? ld(r.p12_above + x) : zero;
      in[12] = r.p22_above ? ld(r.p22_above + x) : zero;
    } else {
      alignas(16) float16_t g[13][kLanes] = {};
      for (int i = 0; i < m; ++i) {
        const int c = x + i;
        const hwy::float16_t* planes[9] = {r.grad_x, r.grad_y, r.rho_c, r.u1, r.u2,
                                           r.p11,    r.p12,    r.p21,   r.p22};
        for (int k = 0; k < 9; ++k) g[k][i] = planes[k][c];
        g[9][i] = c > 0 ? r.p11[c - 1] : static_cast<float16_t>(0.f);
        g[10][i] = c > 0 ? r.p21[c - 1] : static_cast<float16_t>(0.f);
        g[11][i] = r.p12_above ? r.p12_above[c] : static_cast<float16_t>(0.f);
        g[12][i] = r.p22_above ? r.p22_above[c] : static_cast<float16_t>(0.f);
      }
      for (int k = 0; k < 13; ++k) in[k] = vld1q_f16(g[k]);
    }
    V n1, n2;
    update_u8(in, lt, theta, n1, n2);
    alignas(16) float16_t new1[kLanes], new2[kLanes], old1[kLanes], old2[kLanes];
    vst1q_f16(new1, n1);
    vst1q_f16(new2, n2);
    if (m == kLanes) {
      st(r.u1 + x, n1);
      st(r.u2 + x, n2);
    } else {
      for (int i = 0; i < m; ++i) {
        r.u1[x + i] = new1[i];
        r.u2[x + i] = new2[i];
      }
    }
    if (r.track_change) {
      vst1q_f16(old1, in[3]);
      vst1q_f16(old2, in[4]);
      const int b = r.change_begin - x > 0 ? r.change_begin - x : 0;
      const int e = r.change_end - x < m ? r.change_end - x : m;
      for (int i = b; i < e; ++i) {
        const double c1 = double(float(new1[i])) - double(float(old1[i]));
        const double c2 = double(float(new2[i])) - double(float(old2[i]));
        change += c1 * c1 + c2 * c2;
      }
    }
  }
  return change;
}

void update_p_row(const PRow<hwy::float16_t>& r) {
  const V taut = vdupq_n_f16(static_cast<float16_t>(r.tau_theta));
  const V one = vdupq_n_f16(static_cast<float16_t>(1.f));
  for (int x = 0; x < r.width; x += kLanes) {
    const int m = r.width - x < kLanes ? r.width - x : kLanes;
    V u1, u2, u1r, u2r, u1d, u2d, p11, p12, p21, p22;
    if (x + kLanes < r.width) {
      u1 = ld(r.u1 + x);
      u2 = ld(r.u2 + x);
      u1r = ld(r.u1 + x + 1);
      u2r = ld(r.u2 + x + 1);
      u1d = r.u1_below ? ld(r.u1_below + x) : u1;
      u2d = r.u2_below ? ld(r.u2_below + x) : u2;
      p11 = ld(r.p11 + x);
      p12 = ld(r.p12 + x);
      p21 = ld(r.p21 + x);
      p22 = ld(r.p22 + x);
    } else {
      alignas(16) float16_t g[10][kLanes] = {};
      for (int i = 0; i < m; ++i) {
        const int c = x + i, right = c + 1 < r.width ? c + 1 : c;
        g[0][i] = r.u1[c];
        g[1][i] = r.u2[c];
        g[2][i] = r.u1[right];
        g[3][i] = r.u2[right];
        g[4][i] = r.u1_below ? r.u1_below[c] : g[0][i];
        g[5][i] = r.u2_below ? r.u2_below[c] : g[1][i];
        g[6][i] = r.p11[c];
        g[7][i] = r.p12[c];
        g[8][i] = r.p21[c];
        g[9][i] = r.p22[c];
      }
      u1 = vld1q_f16(g[0]);
      u2 = vld1q_f16(g[1]);
      u1r = vld1q_f16(g[2]);
      u2r = vld1q_f16(g[3]);
      u1d = vld1q_f16(g[4]);
      u2d = vld1q_f16(g[5]);
      p11 = vld1q_f16(g[6]);
      p12 = vld1q_f16(g[7]);
      p21 = vld1q_f16(g[8]);
      p22 = vld1q_f16(g[9]);
    }
    const V u1x = vsubq_f16(u1r, u1), u2x = vsubq_f16(u2r, u2);
    const V u1y = vsubq_f16(u1d, u1), u2y = vsubq_f16(u2d, u2);
    const V norm1 = vsqrtq_f16(fma(u1x, u1x, vmulq_f16(u1y, u1y)));
    const V norm2 = vsqrtq_f16(fma(u2x, u2x, vmulq_f16(u2y, u2y)));
    const V inv1 = vdivq_f16(one, fma(taut, norm1, one));
    const V inv2 = vdivq_f16(one, fma(taut, norm2, one));
    const V q[4] = {vmulq_f16(fma(taut, u1x, p11), inv1), vmulq_f16(fma(taut, u1y, p12), inv1),
                    vmulq_f16(fma(taut, u2x, p21), inv2), vmulq_f16(fma(taut, u2y, p22), inv2)};
    hwy::float16_t* const out[4] = {r.p11, r.p12, r.p21, r.p22};
    if (m == kLanes) {
      for (int k = 0; k < 4; ++k) st(out[k] + x, q[k]);
    } else {
      alignas(16) float16_t lanes[kLanes];
      for (int k = 0; k < 4; ++k) {
        vst1q_f16(lanes, q[k]);
        for (int i = 0; i < m; ++i) out[k][x + i] = lanes[i];
      }
    }
  }
}

}  // namespace neon_fp16
}  // namespace simd_tvl1
}  // namespace flowtune
#endif  // FLOWTUNE_NEON_FP16
