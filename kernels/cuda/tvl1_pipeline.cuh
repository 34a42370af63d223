// The iteration pipeline over lines (Romera et al. 2023, sec. 3.3, fig. 6 and 7), written
// once for both pipelined schemes; the schemes differ only in where the lines live
// (tvl1_shared_pipeline.cuh: shared memory, tvl1_global_pipeline.cuh: a per-block global
// scratch) - the schedule and the math (tvl1_math.cuh) are the same.
//
// Schedule. A block of FT_W / FT_PARTS threads owns a strip of FT_W columns (each thread
// FT_PARTS of them: a line wider than the block is processed in parts) and FT_STRIP_H output
// rows. It streams the rows of its strip top to bottom through a ring of lines (modular
// indexing) and runs `depth` <= FT_DEPTH iterations on them, iteration k lagging iteration
// k-1 by FT_SKEW rows. Every field is updated in place in the ring. Two skews:
//  - FT_SKEW = 1 (the paper's fig. 6/7): at step t (row t enters the ring) iteration
//    k = 1..depth updates u on row t-k+1 (Threshold, Divergence, Estimate U: needs p of
//    iteration k-1 on rows t-k+1 and t-k) and then p on row t-k (Forward Gradient, Estimate
//    P: needs u of iteration k on rows t-k and t-k+1): a chain of 2 depth half-steps, each
//    ended by a __syncthreads. Lines alive: rows t-depth .. t, FT_DEPTH + 1 ring lines (eq. 4).
//  - FT_SKEW = 2: iteration k updates u on row t-2k+2 and p on row t-2k+1. Then no update of
//    a step reads what another iteration writes in the same half-step, so all u updates of a
//    step are one phase and all p updates the next: 2 __syncthreads per step instead of
//    2 depth + 1, and depth independent updates per thread and phase (ILP), for a ring of
//    2 FT_DEPTH + 1 lines (rows t-2 depth+1 .. t, plus the line that row t+1 is written to).
// The last row an iteration touches is final after the last one; it is written out then.
// Register blocking (FT_ROWS_PER_THREAD = R > 1, skew 1 only): a step lets R rows enter and
// iteration k updates u on R rows, then p on R rows, still one row behind iteration k-1.
// The R updates of a half-step are independent (R-fold ILP per thread, computed all before
// any is stored), a row costs (2 depth + 1) / R barriers, and the ring holds FT_DEPTH + R
// lines. R = 1 compiles to exactly the schedule above (the same code, kept separate).
//
// Exactness (overlapped recomputation, ARCHITECTURE.md). Each iteration propagates information by
// one pixel in x and y. A strip therefore loads FT_DEPTH extra columns on each side and
// FT_DEPTH extra rows above and below its output rows, treats the strip border like an image
// border (p = 0 left / above, zero forward gradient right / below), and stores only the
// pixels that this fake border cannot have reached after `depth` iterations: columns
// FT_DEPTH .. FT_W - FT_DEPTH - 1 of the strip and its strip_h output rows. At the image
// border the fake border is the real one (numerics contract), so the results are exact
// everywhere. Output strips are FT_W - 2 FT_DEPTH columns wide.
//
// Staging (FT_STAGING, shared ring only). 0: the row that enters the ring next is loaded into
// registers a step ahead and written into its line when it enters (LDG, then STS). 1: it is
// copied from global memory straight into its ring line with cp.async (sm_80 and newer, f32 and
// mixed: the ring keeps the fields' own layout there), issued a step ahead and waited for
// (cp.async.wait_all, then the step's barrier) when it enters: no registers hold the row in
// flight and no instruction moves it through them. mixed's 2-byte rho_c is below cp.async's
// smallest copy (4 bytes) and keeps the register path. The copy lands in a line that must be
// free a step ahead: with skew 1 that is one more ring line (FT_DEPTH + 2); with skew 2 the
// line of row t+1 is already free during step t. Same data in the same lines: the same flow.
//
// Ring memory: 4 pair planes (u, p1, p2, grad) and one scalar plane (rho_c) of kRingLines
// (= FT_SKEW * FT_DEPTH + FT_ROWS_PER_THREAD, + 1 with FT_STAGING and skew 1) lines x FT_W
// elements: ring_bytes = 4.5 * Qfloat *
// FT_W * kRingLines, Qfloat = sizeof(Store2) (8 for float2, 4 for half2). Eq. 4 of the paper counts
// 6 pairs per pixel line; this schedule needs 4.5 (the data term of a line is loaded once with it).
//
// Reads (u, p1, p2) and writes (u_out, p1_out, p2_out): blocks read each other's halo, so
// the output must be a different buffer set (ping-pong between launches).
// Defines: FT_W (strip width = ring line width, > 2 FT_DEPTH), FT_PARTS (columns per thread;
// FT_W / FT_PARTS threads, a multiple of 32), FT_DEPTH (maximum iterations per launch, >= 1),
// FT_STRIP_H (output rows per block), FT_SKEW (1 or 2, see above), one FT_PRECISION_*;
// optional FT_ROWS_PER_THREAD (rows per thread and step, default 1; > 1 needs FT_SKEW = 1) and
// FT_STAGING (0 default, 1: cp.async; needs rows per thread 1, f32 or mixed, a shared ring).
#pragma once

#include "tvl1_math.cuh"

#if !defined(FT_W) || !defined(FT_DEPTH) || !defined(FT_STRIP_H) || !defined(FT_PARTS)
#error "FT_W, FT_DEPTH, FT_STRIP_H and FT_PARTS required"
#endif
#if !defined(FT_SKEW) || (FT_SKEW != 1 && FT_SKEW != 2)
#error "FT_SKEW must be 1 or 2"
#endif
#if FT_PARTS < 1 || FT_W % FT_PARTS != 0
#error "FT_PARTS must divide FT_W"
#endif
#if !defined(FT_ROWS_PER_THREAD)
#define FT_ROWS_PER_THREAD 1
#endif
#if FT_ROWS_PER_THREAD < 1 || (FT_SKEW == 2 && FT_ROWS_PER_THREAD != 1)
#error "FT_ROWS_PER_THREAD must be >= 1, and 1 with FT_SKEW = 2"
#endif
#if !defined(FT_STAGING)
#define FT_STAGING 0
#endif
#if FT_STAGING != 0 && (FT_ROWS_PER_THREAD != 1 || defined(FT_PRECISION_F16))
#error "FT_STAGING = 1 needs FT_ROWS_PER_THREAD = 1 and f32 or mixed"
#endif
#if FT_STAGING != 0 && defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800
#error "FT_STAGING = 1 needs cp.async (sm_80 and newer)"
#endif
#if FT_DEPTH < 1 || FT_W <= 2 * FT_DEPTH || FT_STRIP_H < 1
#error "pipeline needs FT_DEPTH >= 1, FT_W > 2 * FT_DEPTH and FT_STRIP_H >= 1"
#endif

namespace ft {

/// Rows each thread updates per pipeline step and half-step (register blocking, skew 1).
constexpr int kRows = FT_ROWS_PER_THREAD;
/// Ring lines: FT_DEPTH + kRows (skew 1; + 1 with FT_STAGING) or 2 FT_DEPTH + 1 (skew 2), see
/// the file comment.
constexpr int kRingLines = FT_SKEW * FT_DEPTH + kRows + (FT_STAGING != 0 && FT_SKEW == 1 ? 1 : 0);
/// Output columns of one strip.
constexpr int kStripOutW = FT_W - 2 * FT_DEPTH;

/// Bytes of one block's ring (shared or global): 4 pair planes + 1 scalar plane.
constexpr int kRingBytes = (4 * int(sizeof(Store2)) + int(sizeof(Store1))) * FT_W * kRingLines;

#if defined(FT_PRECISION_F16)
/// f16: a thread column is two adjacent pixels (MathF16Pair: half2 across pixels).
constexpr int kPixelsPerColumn = 2;
#else
constexpr int kPixelsPerColumn = 1;
#endif
/// Thread columns of the strip.
constexpr int kColumns = FT_W / kPixelsPerColumn;
/// Threads per block: each thread handles FT_PARTS thread columns, tx + c * kThreads (a line
/// wider than the block is processed in parts, paper sec. 3.3).
constexpr int kThreads = kColumns / FT_PARTS;
static_assert(kColumns % FT_PARTS == 0, "FT_PARTS must divide the strip's thread columns");

#if FT_STAGING
/// cp.async of one T (4, 8 or 16 bytes, aligned) from global src to shared dst; zero-filled
/// when !valid (no byte of src is read then, src only has to be a global address).
template <typename T>
__device__ __forceinline__ void copy_async(T* dst, const T* src, bool valid) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "cp.async copies 4, 8 or 16 B");
  const unsigned shared = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(shared), "l"(src),
               "n"(int(sizeof(T))), "r"(valid ? int(sizeof(T)) : 0)
               : "memory");
}
/// Ends the copies started so far as one group.
__device__ __forceinline__ void copy_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::: "memory");
}
/// Waits for every copy this thread started (then a barrier makes them visible to the block).
__device__ __forceinline__ void copy_async_wait_all() {
  asm volatile("cp.async.wait_all;\n" ::: "memory");
}
#endif

/// The fields a pipeline reads and writes, and where this block works.
struct PipelineArgs {
  const Store2* __restrict__ grad;
  const Store1* __restrict__ rho_c;
  const Store2* __restrict__ u;
  const Store2* __restrict__ p1;
  const Store2* __restrict__ p2;
  Store2* u_out;
  Store2* p1_out;
  Store2* p2_out;
  int width;
  Params prm;
};

#if !defined(FT_PRECISION_F16)
/// Row operations with one pixel per thread column (f32, mixed): the ring holds the
/// fields as stored (Store2 pairs (u1, u2), (p11, p12), ...), plane[line * kColumns + column].
struct RowOps {
  typedef Math M;
  struct Column {
    int x;            ///< image column
    bool in_image;    ///< 0 <= x < width
    bool left_edge;   ///< strip or image border on the left: p = 0 there
    bool right_edge;  ///< strip or image border on the right: zero forward gradient
    bool stores;      ///< one of the strip's output columns
  };
  struct PixelIn {  ///< a pixel between its global load and its write into the ring
    Store2 u, p1, p2, grad;
    Store1 rho_c;
  };
  PipelineArgs a;
  Store2 *ring_u, *ring_p1, *ring_p2, *ring_grad;
  Store1* ring_rho_c;
  Column col[FT_PARTS];
  PixelIn next[kRows][FT_PARTS];  ///< row slot j: the j-th row of the next step

  __device__ __forceinline__ RowOps(void* ring, const PipelineArgs& args, int strip_x0) : a(args) {
    Store2* planes = static_cast<Store2*>(ring);
    const int plane = kColumns * kRingLines;
    ring_u = planes;
    ring_p1 = planes + plane;
    ring_p2 = planes + 2 * plane;
    ring_grad = planes + 3 * plane;
    ring_rho_c = reinterpret_cast<Store1*>(planes + 4 * plane);
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const int sx = int(threadIdx.x) + c * kThreads;  // column in the strip
      const int x = strip_x0 + sx;
      col[c].x = x;
      col[c].in_image = x >= 0 && x < a.width;
      // Strip border = fake image border (see the file comment); the real one where they meet.
      col[c].left_edge = sx == 0 || x == 0;
      col[c].right_edge = sx == FT_W - 1 || x == a.width - 1;
      col[c].stores = col[c].in_image && sx >= FT_DEPTH && sx < FT_W - FT_DEPTH;
    }
  }
  __device__ __forceinline__ int index(int line, int c) const {
    return line * kColumns + int(threadIdx.x) + c * kThreads;
  }
  /// Global loads of row r into registers, slot j (issued a step before they are needed).
  __device__ __forceinline__ void fetch(int r, int j) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (col[c].in_image) {
        const int i = r * a.width + col[c].x;
        next[j][c] = {a.u[i], a.p1[i], a.p2[i], a.grad[i], a.rho_c[i]};
      } else {
        next[j][c] = {Store2(), Store2(), Store2(), Store2(), Store1()};
      }
    }
  }
  /// The row last fetched into slot j into ring line `line`.
  __device__ __forceinline__ void put(int line, int j) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const int i = index(line, c);
      ring_u[i] = next[j][c].u;
      ring_p1[i] = next[j][c].p1;
      ring_p2[i] = next[j][c].p2;
      ring_grad[i] = next[j][c].grad;
      ring_rho_c[i] = next[j][c].rho_c;
    }
  }
#if FT_STAGING
  /// rho_c through cp.async where it is at least cp.async's smallest copy (f32's float);
  /// mixed's __half goes through a register (slot 0 of next).
  static constexpr bool kRhoAsync = sizeof(Store1) >= 4;
  /// Issues the copies of row r straight into ring line `line` (zeros outside the image).
  __device__ __forceinline__ void stage(int r, int line) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const bool in = col[c].in_image;
      const int g = in ? r * a.width + col[c].x : 0;
      const int i = index(line, c);
      copy_async(ring_u + i, a.u + g, in);
      copy_async(ring_p1 + i, a.p1 + g, in);
      copy_async(ring_p2 + i, a.p2 + g, in);
      copy_async(ring_grad + i, a.grad + g, in);
      if constexpr (kRhoAsync) {
        copy_async(ring_rho_c + i, a.rho_c + g, in);
      } else {
        next[0][c].rho_c = in ? a.rho_c[g] : Store1();
      }
    }
    copy_async_commit();
  }
  /// The row staged last is in ring line `line` (this thread's part of it; the barrier that
  /// follows makes the whole line visible).
  __device__ __forceinline__ void land(int line) {
    copy_async_wait_all();
    if constexpr (!kRhoAsync) {
#pragma unroll
      for (int c = 0; c < FT_PARTS; ++c) ring_rho_c[index(line, c)] = next[0][c].rho_c;
    }
  }
#endif
  /// New u at ring index i of thread column c; p above it at ring index ia (top: first row
  /// of the strip, p = 0); zero = M::zero().
  __device__ __forceinline__ M::V u_at(int i, int ia, int c, bool top, M::V zero) const {
    const bool left = col[c].left_edge;
    return update_u<M>(load2(ring_u, i), load2(ring_grad, i), load1(ring_rho_c, i),
                       load2(ring_p1, i), load2(ring_p2, i), left ? zero : load2(ring_p1, i - 1),
                       left ? zero : load2(ring_p2, i - 1), top ? zero : load2(ring_p1, ia),
                       top ? zero : load2(ring_p2, ia), a.prm);
  }
  /// New (p1, p2) at ring index i of thread column c into q1, q2; u below it at ring index ib
  /// (bottom: last row of the strip, zero gradient).
  __device__ __forceinline__ void p_at(int i, int ib, int c, bool bottom, M::V& q1,
                                       M::V& q2) const {
    const M::V uc = load2(ring_u, i);
    const M::V ur = col[c].right_edge ? uc : load2(ring_u, i + 1);
    const M::V ud = bottom ? uc : load2(ring_u, ib);
    q1 = load2(ring_p1, i);
    q2 = load2(ring_p2, i);
    update_p<M>(uc, ur, ud, q1, q2, a.prm);
  }
  /// u of one ring line; p above it in line_above (top: first row of the strip, p = 0).
  __device__ __forceinline__ void update_u_row(int line, int line_above, bool top) {
    const M::V zero = M::zero();
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].in_image) continue;
      const int i = index(line, c);
      store2(ring_u, i, u_at(i, index(line_above, c), c, top, zero));
    }
  }
  /// p of one ring line; u below it in line_below (bottom: last row, zero gradient).
  __device__ __forceinline__ void update_p_row(int line, int line_below, bool bottom) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].in_image) continue;
      const int i = index(line, c);
      M::V q1, q2;
      p_at(i, index(line_below, c), c, bottom, q1, q2);
      store2(ring_p1, i, q1);
      store2(ring_p2, i, q2);
    }
  }
#if FT_ROWS_PER_THREAD > 1
  /// update_u_row on the kRows ring lines line[j] where on[j]. The rows are independent:
  /// all are computed before any is stored (the compiler cannot prove that a row's stores do
  /// not alias the next row's loads, so row by row would serialise them).
  __device__ __forceinline__ void update_u_rows(const int (&line)[kRows],
                                                const int (&line_above)[kRows],
                                                const bool (&top)[kRows], const bool (&on)[kRows]) {
    const M::V zero = M::zero();
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].in_image) continue;
      M::V un[kRows];
#pragma unroll
      for (int j = 0; j < kRows; ++j)
        un[j] = on[j] ? u_at(index(line[j], c), index(line_above[j], c), c, top[j], zero) : zero;
#pragma unroll
      for (int j = 0; j < kRows; ++j)
        if (on[j]) store2(ring_u, index(line[j], c), un[j]);
    }
  }
  /// update_p_row on the kRows ring lines line[j] where on[j]; computed all, then stored.
  __device__ __forceinline__ void update_p_rows(const int (&line)[kRows],
                                                const int (&line_below)[kRows],
                                                const bool (&bottom)[kRows],
                                                const bool (&on)[kRows]) {
    const M::V zero = M::zero();
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].in_image) continue;
      M::V q1[kRows], q2[kRows];
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        q1[j] = q2[j] = zero;
        if (on[j]) p_at(index(line[j], c), index(line_below[j], c), c, bottom[j], q1[j], q2[j]);
      }
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        if (!on[j]) continue;
        const int i = index(line[j], c);
        store2(ring_p1, i, q1[j]);
        store2(ring_p2, i, q2[j]);
      }
    }
  }
#endif
  /// Final row rf (ring line `line`) out, on this strip's output columns.
  __device__ __forceinline__ void store_row(int rf, int line) const {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].stores) continue;
      const int i = index(line, c);
      const int o = rf * a.width + col[c].x;
      a.u_out[o] = ring_u[i];
      a.p1_out[o] = ring_p1[i];
      a.p2_out[o] = ring_p2[i];
    }
  }
};
#else  // FT_PRECISION_F16
/// Bits of a half2 and back.
__device__ __forceinline__ unsigned h2_bits(__half2 h) {
  return *reinterpret_cast<const unsigned*>(&h);
}
__device__ __forceinline__ __half2 bits_h2(unsigned u) {
  return *reinterpret_cast<const __half2*>(&u);
}
/// (high lane of lo_src, low lane of hi_src): the pixel pair shifted by one pixel.
__device__ __forceinline__ __half2 shift_pair(__half2 lo_src, __half2 hi_src) {
  return bits_h2(__byte_perm(h2_bits(lo_src), h2_bits(hi_src), 0x5432));
}

/// Row operations with two adjacent pixels per thread column (f16, MathF16Pair): the ring
/// holds u, p1, p2, grad as HalfPixelPair ((u1a, u1b), (u2a, u2b)) and rho_c as (a, b);
/// loads and stores transpose between this layout and the fields' (u1, u2) per pixel.
/// Left / right neighbours are the pair shifted by one pixel (one byte permute per half2);
/// border pixels are lane masks, as a border can fall on either pixel of a pair.
struct RowOps {
  typedef MathF16Pair M;
  typedef HalfPixelPair V;
  struct Column {
    int xa;              ///< image column of pixel a (pixel b: xa + 1)
    bool in_a, in_b;     ///< pixel inside the image
    bool any_in;         ///< in_a || in_b
    bool first, last;    ///< first / last thread column of the strip
    unsigned keep_left;  ///< lane bits kept for the left neighbour (0 at a left border)
    unsigned use_own;    ///< lane bits where the right neighbour is the pixel itself
    bool stores_a, stores_b;
  };
  struct PairIn {  ///< two pixels between their global loads and the ring
    Store2 u[2], p1[2], p2[2], grad[2];
    Store1 rho_c[2];
  };
  PipelineArgs a;
  V *ring_u, *ring_p1, *ring_p2, *ring_grad;
  __half2* ring_rho_c;
  Column col[FT_PARTS];
  PairIn next[kRows][FT_PARTS];  ///< row slot j: the j-th row of the next step

  __device__ __forceinline__ RowOps(void* ring, const PipelineArgs& args, int strip_x0) : a(args) {
    V* planes = static_cast<V*>(ring);
    const int plane = kColumns * kRingLines;
    ring_u = planes;
    ring_p1 = planes + plane;
    ring_p2 = planes + 2 * plane;
    ring_grad = planes + 3 * plane;
    ring_rho_c = reinterpret_cast<__half2*>(planes + 4 * plane);
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const int j = int(threadIdx.x) + c * kThreads;  // thread column in the strip
      const int sa = 2 * j, sb = sa + 1;              // strip columns of pixels a, b
      const int xa = strip_x0 + sa, xb = xa + 1;
      Column& k = col[c];
      k.xa = xa;
      k.in_a = xa >= 0 && xa < a.width;
      k.in_b = xb >= 0 && xb < a.width;
      k.any_in = k.in_a || k.in_b;
      k.first = j == 0;
      k.last = j == kColumns - 1;
      // Strip border = fake image border (see the file comment); the real one where they meet.
      const bool left_a = sa == 0 || xa == 0, left_b = xb == 0;
      const bool right_a = xa == a.width - 1, right_b = sb == FT_W - 1 || xb == a.width - 1;
      k.keep_left = (left_a ? 0u : 0x0000FFFFu) | (left_b ? 0u : 0xFFFF0000u);
      k.use_own = (right_a ? 0x0000FFFFu : 0u) | (right_b ? 0xFFFF0000u : 0u);
      k.stores_a = k.in_a && sa >= FT_DEPTH && sa < FT_W - FT_DEPTH;
      k.stores_b = k.in_b && sb >= FT_DEPTH && sb < FT_W - FT_DEPTH;
    }
  }
  __device__ __forceinline__ int index(int line, int c) const {
    return line * kColumns + int(threadIdx.x) + c * kThreads;
  }
  __device__ __forceinline__ void fetch(int r, int j) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
#pragma unroll
      for (int l = 0; l < 2; ++l) {
        const bool in = l == 0 ? col[c].in_a : col[c].in_b;
        const int i = r * a.width + col[c].xa + l;
        next[j][c].u[l] = in ? a.u[i] : Store2();
        next[j][c].p1[l] = in ? a.p1[i] : Store2();
        next[j][c].p2[l] = in ? a.p2[i] : Store2();
        next[j][c].grad[l] = in ? a.grad[i] : Store2();
        next[j][c].rho_c[l] = in ? a.rho_c[i] : Store1();
      }
    }
  }
  /// Per-pixel (c1, c2) of pixels a and b -> the pair layout.
  static __device__ __forceinline__ V to_pair(Store2 pa, Store2 pb) {
    return {__lows2half2(pa, pb), __highs2half2(pa, pb)};
  }
  __device__ __forceinline__ void put(int line, int j) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const int i = index(line, c);
      ring_u[i] = to_pair(next[j][c].u[0], next[j][c].u[1]);
      ring_p1[i] = to_pair(next[j][c].p1[0], next[j][c].p1[1]);
      ring_p2[i] = to_pair(next[j][c].p2[0], next[j][c].p2[1]);
      ring_grad[i] = to_pair(next[j][c].grad[0], next[j][c].grad[1]);
      ring_rho_c[i] = __halves2half2(next[j][c].rho_c[0], next[j][c].rho_c[1]);
    }
  }
  /// Left neighbours of the pair at i: (b of the previous pair, a of this one), 0 at a left
  /// border lane.
  __device__ __forceinline__ V left_of(const V* plane, int i, const Column& k) const {
    const V own = plane[i];
    const V prev = plane[k.first ? i : i - 1];
    return {bits_h2(h2_bits(shift_pair(prev.c1, own.c1)) & k.keep_left),
            bits_h2(h2_bits(shift_pair(prev.c2, own.c2)) & k.keep_left)};
  }
  /// Right neighbours of the pair at i: (b of this pair, a of the next one); the pixel
  /// itself at a right border lane.
  __device__ __forceinline__ V right_of(const V* plane, int i, const Column& k, V own) const {
    const V next_pair = plane[k.last ? i : i + 1];
    const unsigned m = k.use_own;
    return {bits_h2((h2_bits(shift_pair(own.c1, next_pair.c1)) & ~m) | (h2_bits(own.c1) & m)),
            bits_h2((h2_bits(shift_pair(own.c2, next_pair.c2)) & ~m) | (h2_bits(own.c2) & m))};
  }
  /// New u at ring index i of thread column c (as the f32 RowOps::u_at).
  __device__ __forceinline__ V u_at(int i, int ia, int c, bool top, V zero) const {
    const Column& k = col[c];
    const V p1l = left_of(ring_p1, i, k), p2l = left_of(ring_p2, i, k);
    return update_u<M>(ring_u[i], ring_grad[i], ring_rho_c[i], ring_p1[i], ring_p2[i], p1l, p2l,
                       top ? zero : ring_p1[ia], top ? zero : ring_p2[ia], a.prm);
  }
  /// New (p1, p2) at ring index i of thread column c (as the f32 RowOps::p_at).
  __device__ __forceinline__ void p_at(int i, int ib, int c, bool bottom, V& q1, V& q2) const {
    const V uc = ring_u[i];
    const V ur = right_of(ring_u, i, col[c], uc);
    const V ud = bottom ? uc : ring_u[ib];
    q1 = ring_p1[i];
    q2 = ring_p2[i];
    update_p<M>(uc, ur, ud, q1, q2, a.prm);
  }
  __device__ __forceinline__ void update_u_row(int line, int line_above, bool top) {
    const V zero = M::zero();
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].any_in) continue;
      const int i = index(line, c);
      ring_u[i] = u_at(i, index(line_above, c), c, top, zero);
    }
  }
  __device__ __forceinline__ void update_p_row(int line, int line_below, bool bottom) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].any_in) continue;
      const int i = index(line, c);
      V q1, q2;
      p_at(i, index(line_below, c), c, bottom, q1, q2);
      ring_p1[i] = q1;
      ring_p2[i] = q2;
    }
  }
#if FT_ROWS_PER_THREAD > 1
  /// As the f32 RowOps::update_u_rows.
  __device__ __forceinline__ void update_u_rows(const int (&line)[kRows],
                                                const int (&line_above)[kRows],
                                                const bool (&top)[kRows], const bool (&on)[kRows]) {
    const V zero = M::zero();
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].any_in) continue;
      V un[kRows];
#pragma unroll
      for (int j = 0; j < kRows; ++j)
        un[j] = on[j] ? u_at(index(line[j], c), index(line_above[j], c), c, top[j], zero) : zero;
#pragma unroll
      for (int j = 0; j < kRows; ++j)
        if (on[j]) ring_u[index(line[j], c)] = un[j];
    }
  }
  /// As the f32 RowOps::update_p_rows.
  __device__ __forceinline__ void update_p_rows(const int (&line)[kRows],
                                                const int (&line_below)[kRows],
                                                const bool (&bottom)[kRows],
                                                const bool (&on)[kRows]) {
    const V zero = M::zero();
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].any_in) continue;
      V q1[kRows], q2[kRows];
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        q1[j] = q2[j] = zero;
        if (on[j]) p_at(index(line[j], c), index(line_below[j], c), c, bottom[j], q1[j], q2[j]);
      }
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        if (!on[j]) continue;
        const int i = index(line[j], c);
        ring_p1[i] = q1[j];
        ring_p2[i] = q2[j];
      }
    }
  }
#endif
  __device__ __forceinline__ void store_row(int rf, int line) const {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const Column& k = col[c];
      if (!k.stores_a && !k.stores_b) continue;
      const int i = index(line, c);
      const int o = rf * a.width + k.xa;
      const V u = ring_u[i], q1 = ring_p1[i], q2 = ring_p2[i];
      if (k.stores_a) {
        a.u_out[o] = __lows2half2(u.c1, u.c2);
        a.p1_out[o] = __lows2half2(q1.c1, q1.c2);
        a.p2_out[o] = __lows2half2(q2.c1, q2.c2);
      }
      if (k.stores_b) {
        a.u_out[o + 1] = __highs2half2(u.c1, u.c2);
        a.p1_out[o + 1] = __highs2half2(q1.c1, q1.c2);
        a.p2_out[o + 1] = __highs2half2(q2.c1, q2.c2);
      }
    }
  }
};
#endif  // FT_PRECISION_F16

/// The pipeline of one block over its strip: `depth` (1..FT_DEPTH) iterations from (u, p1,
/// p2) to (u_out, p1_out, p2_out), fields width x height row-major; ring = this block's ring
/// memory of kRingBytes. Grid: ceil(width / kStripOutW) x ceil(height / FT_STRIP_H) blocks
/// of kThreads threads.
__device__ __forceinline__ void pipeline_strip(void* ring_memory, const PipelineArgs& args,
                                               int height, int depth) {
  RowOps rows(ring_memory, args, int(blockIdx.x) * kStripOutW - FT_DEPTH);
  const int out_y0 = int(blockIdx.y) * FT_STRIP_H;
  const int out_y1 = min(height, out_y0 + FT_STRIP_H);
  const int r0 = max(0, out_y0 - FT_DEPTH);
  const int r1 = min(height, out_y1 + FT_DEPTH);
  // Final row rf out, where it is one of this strip's output rows.
  auto store_row = [&](int rf, int line) {
    if (rf >= out_y0 && rf < out_y1) rows.store_row(rf, line);
  };
  // Line of the row `back` rows before row t, whose line is line_t (back < kRingLines).
  auto line_back = [](int line_t, int back) {
    const int l = line_t - back;
    return l < 0 ? l + kRingLines : l;
  };

#if FT_STAGING
  // Ring line of row t, advanced with t (modular indexing without a division per access).
  int line_t = r0 % kRingLines;
  rows.stage(r0, line_t);
#else
  rows.fetch(r0, 0);
  // Ring line of row t, advanced with t (modular indexing without a division per access).
  int line_t = r0 % kRingLines;
#endif
#if FT_SKEW == 1 && FT_ROWS_PER_THREAD == 1
  for (int t = r0; t < r1 + depth; ++t) {
    if (t < r1) {  // row t enters the ring; the load of row t+1 is issued now
#if FT_STAGING
      // Row t+1's line held row t-depth-1, stored last step after the last read of it.
      rows.land(line_t);
      if (t + 1 < r1) rows.stage(t + 1, line_t + 1 == kRingLines ? 0 : line_t + 1);
#else
      rows.put(line_t, 0);
      if (t + 1 < r1) rows.fetch(t + 1, 0);
#endif
    }
    __syncthreads();
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      if (k > depth) break;
      const int line_u = line_back(line_t, k - 1);  // row t-k+1: u of iteration k
      const int line_p = line_back(line_t, k);      // row t-k: p of iteration k
      const int ru = t - k + 1, rp = t - k;
      if (ru >= r0 && ru < r1) rows.update_u_row(line_u, line_p, ru == r0);
      __syncthreads();
      if (rp >= r0 && rp < r1) rows.update_p_row(line_p, line_u, rp == r1 - 1);
      __syncthreads();
    }
    store_row(t - depth, line_back(line_t, depth));  // own columns only: no barrier needed
    line_t = line_t + 1 == kRingLines ? 0 : line_t + 1;
  }
#elif FT_SKEW == 1  // FT_ROWS_PER_THREAD > 1
  // Register blocking: kRows rows per step. Rows t .. t+kRows-1 enter the ring; iteration k
  // updates u on rows t-k+1 .. t-k+kRows (needs p of iteration k-1 on rows t-k .. t-k+kRows,
  // all written earlier in this chain), then p on rows t-k .. t-k+kRows-1 (needs u of
  // iteration k on rows t-k .. t-k+kRows). Each half-step is kRows independent row updates
  // per thread (ILP), a row costs (2 depth + 1) / kRows barriers, and the ring holds rows
  // t-depth .. t+kRows-1: FT_DEPTH + kRows lines. kRows = 1 is the schedule above.
  // Line of the row `ahead` rows after row t (0 <= ahead < kRingLines).
  auto line_ahead = [](int line_t, int ahead) {
    const int l = line_t + ahead;
    return l >= kRingLines ? l - kRingLines : l;
  };
  // Line of the row `off` rows after row t (-kRingLines < off < kRingLines).
  auto line_at = [&](int line_t, int off) {
    return off <= 0 ? line_back(line_t, -off) : line_ahead(line_t, off);
  };
#pragma unroll
  for (int j = 1; j < kRows; ++j)
    if (r0 + j < r1) rows.fetch(r0 + j, j);
  for (int t = r0; t < r1 + depth; t += kRows) {
#pragma unroll
    for (int j = 0; j < kRows; ++j) {
      if (t + j < r1) {  // row t+j enters the ring; the load of row t+j+kRows is issued now
        rows.put(line_ahead(line_t, j), j);
        if (t + j + kRows < r1) rows.fetch(t + j + kRows, j);
      }
    }
    __syncthreads();
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      if (k > depth) break;
      int line_u[kRows], line_p[kRows];  // row t-k+1+j: u of iteration k; row t-k+j: p
      bool on_u[kRows], top[kRows], on_p[kRows], bottom[kRows];
#pragma unroll
      for (int j = 0; j < kRows; ++j) {
        line_u[j] = line_at(line_t, j - k + 1);
        line_p[j] = line_at(line_t, j - k);
        const int ru = t - k + 1 + j, rp = t - k + j;
        on_u[j] = ru >= r0 && ru < r1;
        top[j] = ru == r0;
        on_p[j] = rp >= r0 && rp < r1;
        bottom[j] = rp == r1 - 1;
      }
      rows.update_u_rows(line_u, line_p, top, on_u);
      __syncthreads();
      rows.update_p_rows(line_p, line_u, bottom, on_p);
      __syncthreads();
    }
    // Rows t-depth .. t-depth+kRows-1 are final: own columns only, no barrier needed (the
    // next step's put writes these lines from the same thread).
#pragma unroll
    for (int j = 0; j < kRows; ++j) store_row(t - depth + j, line_at(line_t, j - depth));
    line_t = line_ahead(line_t, kRows);
  }
#else  // FT_SKEW == 2 (FT_ROWS_PER_THREAD == 1)
#if FT_STAGING
  rows.land(line_t);
#else
  rows.put(line_t, 0);
  if (r0 + 1 < r1) rows.fetch(r0 + 1, 0);
#endif
  __syncthreads();
  for (int t = r0; t < r1 + 2 * depth - 1; ++t) {
#if FT_STAGING
    // Row t+1 goes to the line of row t-2 FT_DEPTH, final and stored last step: no update of
    // this step touches it, so its copy overlaps the step's two phases.
    if (t + 1 < r1) {
      rows.stage(t + 1, line_t + 1 == kRingLines ? 0 : line_t + 1);
    }
#endif
    // Phase u: iteration k on row t-2k+2 (p above it on row t-2k+1), all k at once.
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      const int ru = t - 2 * k + 2;
      if (k <= depth && ru >= r0 && ru < r1)
        rows.update_u_row(line_back(line_t, 2 * k - 2), line_back(line_t, 2 * k - 1), ru == r0);
    }
    __syncthreads();
    // Phase p: iteration k on row t-2k+1 (u below it on row t-2k+2), all k at once.
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      const int rp = t - 2 * k + 1;
      if (k <= depth && rp >= r0 && rp < r1)
        rows.update_p_row(line_back(line_t, 2 * k - 1), line_back(line_t, 2 * k - 2), rp == r1 - 1);
    }
    // Row t-2 depth+1 is final (its last p update was this thread's own); row t+1 goes to
    // the line of row t-2 FT_DEPTH, which no update of this step touches.
    store_row(t - 2 * depth + 1, line_back(line_t, 2 * depth - 1));
    const int line_next = line_t + 1 == kRingLines ? 0 : line_t + 1;
    if (t + 1 < r1) {
#if FT_STAGING
      rows.land(line_next);
#else
      rows.put(line_next, 0);
      if (t + 2 < r1) rows.fetch(t + 2, 0);
#endif
    }
    __syncthreads();
    line_t = line_next;
  }
#endif
}

}  // namespace ft
