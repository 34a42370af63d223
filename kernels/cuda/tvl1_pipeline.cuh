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
//
// Exactness (overlapped recomputation, DESIGN.md). Each iteration propagates information by
// one pixel in x and y. A strip therefore loads FT_DEPTH extra columns on each side and
// FT_DEPTH extra rows above and below its output rows, treats the strip border like an image
// border (p = 0 left / above, zero forward gradient right / below), and stores only the
// pixels that this fake border cannot have reached after `depth` iterations: columns
// FT_DEPTH .. FT_W - FT_DEPTH - 1 of the strip and its strip_h output rows. At the image
// border the fake border is the real one (numerics contract), so the results are exact
// everywhere. Output strips are FT_W - 2 FT_DEPTH columns wide.
//
// Ring memory: 4 pair planes (u, p1, p2, grad) and one scalar plane (rho_c) of kRingLines
// lines x FT_W elements: ring_bytes = 4.5 * Qfloat * FT_W * kRingLines, Qfloat =
// sizeof(Store2) (8 for float2, 4 for half2). Eq. 4 of the paper counts 6 pairs per pixel
// line; this schedule needs 4.5 (the data term of a line is loaded once with it).
//
// Reads (u, p1, p2) and writes (u_out, p1_out, p2_out): blocks read each other's halo, so
// the output must be a different buffer set (ping-pong between launches).
// Defines: FT_W (strip width = ring line width, > 2 FT_DEPTH), FT_PARTS (columns per thread;
// FT_W / FT_PARTS threads, a multiple of 32), FT_DEPTH (maximum iterations per launch, >= 1),
// FT_STRIP_H (output rows per block), FT_SKEW (1 or 2, see above), one FT_PRECISION_*.
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
#if FT_DEPTH < 1 || FT_W <= 2 * FT_DEPTH || FT_STRIP_H < 1
#error "pipeline needs FT_DEPTH >= 1, FT_W > 2 * FT_DEPTH and FT_STRIP_H >= 1"
#endif

namespace ft {

/// Ring lines: FT_DEPTH + 1 (skew 1) or 2 FT_DEPTH + 1 (skew 2), see the file comment.
constexpr int kRingLines = FT_SKEW * FT_DEPTH + 1;
/// Output columns of one strip.
constexpr int kStripOutW = FT_W - 2 * FT_DEPTH;

/// Bytes of one block's ring (shared or global): 4 pair planes + 1 scalar plane.
constexpr int kRingBytes = (4 * int(sizeof(Store2)) + int(sizeof(Store1))) * FT_W * kRingLines;

/// The ring of one block: plane[line * FT_W + column].
struct Ring {
  Store2* u;
  Store2* p1;
  Store2* p2;
  Store2* grad;
  Store1* rho_c;
  __device__ __forceinline__ explicit Ring(void* base) {
    Store2* pairs = static_cast<Store2*>(base);
    const int plane = FT_W * kRingLines;
    u = pairs;
    p1 = pairs + plane;
    p2 = pairs + 2 * plane;
    grad = pairs + 3 * plane;
    rho_c = reinterpret_cast<Store1*>(pairs + 4 * plane);
  }
};

/// One pixel of the input fields, held in registers between its global load and its write
/// into the ring (the load of row t+1 is issued before the iterations of step t).
struct PixelIn {
  Store2 u, p1, p2, grad;
  Store1 rho_c;
};

/// Threads per block: each thread handles FT_PARTS columns of the strip, tx + c * kThreads
/// (a line wider than the block is processed in parts, paper sec. 3.3).
constexpr int kThreads = FT_W / FT_PARTS;

/// One column of the strip as one thread sees it.
struct Column {
  int x;            ///< image column
  bool in_image;    ///< 0 <= x < width
  bool left_edge;   ///< strip or image border on the left: p = 0 there
  bool right_edge;  ///< strip or image border on the right: zero forward gradient
  bool stores;      ///< one of the strip's output columns
};

/// The pipeline of one block over its strip: `depth` (1..FT_DEPTH) iterations from (u, p1,
/// p2) to (u_out, p1_out, p2_out), fields width x height row-major; ring = this block's ring
/// memory of kRingBytes. Grid: ceil(width / kStripOutW) x ceil(height / FT_STRIP_H) blocks
/// of kThreads threads.
__device__ __forceinline__ void pipeline_strip(
    void* ring_memory, const Store2* __restrict__ grad, const Store1* __restrict__ rho_c,
    const Store2* __restrict__ u, const Store2* __restrict__ p1, const Store2* __restrict__ p2,
    Store2* u_out, Store2* p1_out, Store2* p2_out, int width, int height, Params prm, int depth) {
  typedef Math M;
  Ring ring(ring_memory);
  const int tx = int(threadIdx.x);
  Column col[FT_PARTS];
#pragma unroll
  for (int c = 0; c < FT_PARTS; ++c) {
    const int sx = tx + c * kThreads;  // column in the strip
    const int x = int(blockIdx.x) * kStripOutW - FT_DEPTH + sx;
    col[c].x = x;
    col[c].in_image = x >= 0 && x < width;
    // Strip border = fake image border (see the file comment); the real one where they meet.
    col[c].left_edge = sx == 0 || x == 0;
    col[c].right_edge = sx == FT_W - 1 || x == width - 1;
    col[c].stores = col[c].in_image && sx >= FT_DEPTH && sx < FT_W - FT_DEPTH;
  }
  const int out_y0 = int(blockIdx.y) * FT_STRIP_H;
  const int out_y1 = min(height, out_y0 + FT_STRIP_H);
  const int r0 = max(0, out_y0 - FT_DEPTH);
  const int r1 = min(height, out_y1 + FT_DEPTH);
  const M::V zero = M::zero();
  const Store2 zero2 = Store2();
  const Store1 zero1 = Store1();

  PixelIn next[FT_PARTS];
  auto fetch = [&](int r) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (col[c].in_image) {
        const int i = r * width + col[c].x;
        next[c].u = u[i];
        next[c].p1 = p1[i];
        next[c].p2 = p2[i];
        next[c].grad = grad[i];
        next[c].rho_c = rho_c[i];
      } else {
        next[c].u = next[c].p1 = next[c].p2 = next[c].grad = zero2;
        next[c].rho_c = zero1;
      }
    }
  };
  // Updates of one ring position, for every column of this thread. Lines: of the row
  // updated, of the row above (u) / below (p); top / bottom: that row is the first / last
  // of the strip, where the fake border applies.
  auto update_u_row = [&](int line, int line_above, bool top) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].in_image) continue;
      const int i = line * FT_W + tx + c * kThreads, ia = line_above * FT_W + tx + c * kThreads;
      const bool left = col[c].left_edge;
      const M::V un =
          update_u<M>(load2(ring.u, i), load2(ring.grad, i), load1(ring.rho_c, i),
                      load2(ring.p1, i), load2(ring.p2, i), left ? zero : load2(ring.p1, i - 1),
                      left ? zero : load2(ring.p2, i - 1), top ? zero : load2(ring.p1, ia),
                      top ? zero : load2(ring.p2, ia), prm);
      store2(ring.u, i, un);
    }
  };
  auto update_p_row = [&](int line, int line_below, bool bottom) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].in_image) continue;
      const int i = line * FT_W + tx + c * kThreads, ib = line_below * FT_W + tx + c * kThreads;
      const M::V uc = load2(ring.u, i);
      const M::V ur = col[c].right_edge ? uc : load2(ring.u, i + 1);
      const M::V ud = bottom ? uc : load2(ring.u, ib);
      M::V q1 = load2(ring.p1, i);
      M::V q2 = load2(ring.p2, i);
      update_p<M>(uc, ur, ud, q1, q2, prm);
      store2(ring.p1, i, q1);
      store2(ring.p2, i, q2);
    }
  };
  // Row r (in ring line `line`) into the ring from the registers of the last fetch.
  auto put_row = [&](int line) {
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      const int i = line * FT_W + tx + c * kThreads;
      ring.u[i] = next[c].u;
      ring.p1[i] = next[c].p1;
      ring.p2[i] = next[c].p2;
      ring.grad[i] = next[c].grad;
      ring.rho_c[i] = next[c].rho_c;
    }
  };
  // Final row rf (ring line `line`) out, where it is one of this strip's outputs.
  auto store_row = [&](int rf, int line) {
    if (rf < out_y0 || rf >= out_y1) return;
#pragma unroll
    for (int c = 0; c < FT_PARTS; ++c) {
      if (!col[c].stores) continue;
      const int i = line * FT_W + tx + c * kThreads;
      const int o = rf * width + col[c].x;
      u_out[o] = ring.u[i];
      p1_out[o] = ring.p1[i];
      p2_out[o] = ring.p2[i];
    }
  };
  // Line of the row `back` rows before row t, whose line is line_t (back < kRingLines).
  auto line_back = [](int line_t, int back) {
    const int l = line_t - back;
    return l < 0 ? l + kRingLines : l;
  };

  fetch(r0);
  // Ring line of row t, advanced with t (modular indexing without a division per access).
  int line_t = r0 % kRingLines;
#if FT_SKEW == 1
  for (int t = r0; t < r1 + depth; ++t) {
    if (t < r1) {  // row t enters the ring; the load of row t+1 is issued now
      put_row(line_t);
      if (t + 1 < r1) fetch(t + 1);
    }
    __syncthreads();
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      if (k > depth) break;
      const int line_u = line_back(line_t, k - 1);  // row t-k+1: u of iteration k
      const int line_p = line_back(line_t, k);      // row t-k: p of iteration k
      const int ru = t - k + 1, rp = t - k;
      if (ru >= r0 && ru < r1) update_u_row(line_u, line_p, ru == r0);
      __syncthreads();
      if (rp >= r0 && rp < r1) update_p_row(line_p, line_u, rp == r1 - 1);
      __syncthreads();
    }
    store_row(t - depth, line_back(line_t, depth));  // own columns only: no barrier needed
    line_t = line_t + 1 == kRingLines ? 0 : line_t + 1;
  }
#else  // FT_SKEW == 2
  put_row(line_t);
  if (r0 + 1 < r1) fetch(r0 + 1);
  __syncthreads();
  for (int t = r0; t < r1 + 2 * depth - 1; ++t) {
    // Phase u: iteration k on row t-2k+2 (p above it on row t-2k+1), all k at once.
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      const int ru = t - 2 * k + 2;
      if (k <= depth && ru >= r0 && ru < r1)
        update_u_row(line_back(line_t, 2 * k - 2), line_back(line_t, 2 * k - 1), ru == r0);
    }
    __syncthreads();
    // Phase p: iteration k on row t-2k+1 (u below it on row t-2k+2), all k at once.
#pragma unroll
    for (int k = 1; k <= FT_DEPTH; ++k) {
      const int rp = t - 2 * k + 1;
      if (k <= depth && rp >= r0 && rp < r1)
        update_p_row(line_back(line_t, 2 * k - 1), line_back(line_t, 2 * k - 2), rp == r1 - 1);
    }
    // Row t-2 depth+1 is final (its last p update was this thread's own); row t+1 goes to
    // the line of row t-2 FT_DEPTH, which no update of this step touches.
    store_row(t - 2 * depth + 1, line_back(line_t, 2 * depth - 1));
    const int line_next = line_t + 1 == kRingLines ? 0 : line_t + 1;
    if (t + 1 < r1) {
      put_row(line_next);
      if (t + 2 < r1) fetch(t + 2);
    }
    __syncthreads();
    line_t = line_next;
  }
#endif
}

}  // namespace ft
