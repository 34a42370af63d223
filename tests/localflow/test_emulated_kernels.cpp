// The CUDA kernels of bm_cuda and lk_cuda (kernels/cuda/bm_match.cuh, lk_dense.cuh) run on
// the host by the APSP tests' emulation of the CUDA execution model (a std::thread per CUDA
// thread, a real barrier for __syncthreads), with the launch sequence of
// variants/localflow/cuda/*_solver.cpp: for every tunable combination the flow must equal
// the CPU reference bit for bit (same float operations in the same order). This checks the
// kernels' thread decomposition, shared-memory tiling and indexing without a GPU; the GPU
// tests (test_localflow_gpu.cpp) check the real devices.
#include <gtest/gtest.h>

#include <type_traits>
#include <vector>

#include "kernels/localflow/block_matching.hpp"
#include "kernels/localflow/lucas_kanade.hpp"
#include "tests/apsp/cuda_host_emulation.hpp"
#include "tests/localflow/localflow_test_data.hpp"

// The extern "C" kernels need their tunables; the tests call the templated bodies instead.
#define __host__
#define FT_THREADS 32
#define FT_BLOCKS_PER_TB 1
#define FT_TILE_SEARCH 0
#define FT_BLOCK_X 32
#define FT_BLOCK_Y 1
#define FT_FUSED 0
#define FT_TILE 0
namespace emu_shared {
inline std::vector<float> buffer;  // the dynamic shared memory of the block being run
}
#define FT_FLOW_DYNAMIC_SHARED(name) float* name = emu_shared::buffer.data()

#include "kernels/cuda/bm_match.cuh"
#include "kernels/cuda/feat_dense.cuh"
#include "kernels/cuda/lk_dense.cuh"
#include "kernels/localflow/features.hpp"

namespace flowtune::localflow {
namespace {

using test::FramePair;

unsigned blocks_for(long long n, int threads) {
  return unsigned((n + threads - 1) / threads);
}

/// The pyramid of both frames by the emulated flow_downsample (solver's launch sequence).
std::vector<std::vector<float>> emulated_pyramid(const Image& frame, int levels,
                                                 std::vector<int>& ws, std::vector<int>& hs) {
  ws = {frame.width};
  hs = {frame.height};
  std::vector<std::vector<float>> planes{frame.data};
  for (int l = 1; l < levels; ++l) {
    const int w = ws.back(), h = hs.back();
    ws.push_back(ftflow::half_size(w));
    hs.push_back(ftflow::half_size(h));
    planes.emplace_back(std::size_t(ws.back()) * std::size_t(hs.back()));
    const float* in = planes[std::size_t(l) - 1].data();
    float* out = planes.back().data();
    ft_emulation::launch(&flow_downsample, blocks_for((long long)ws.back() * hs.back(), 256), 1,
                         256, 1, in, w, h, out);
  }
  return planes;
}

template <int THREADS, int PER_TB, int TILE>
void emu_bm_level(const float* i0, const float* i1, int w, int h, const float* cu, const float* cv,
                  int cnbx, int cnby, int cw, int ch, float* bu, float* bv, int block, int radius,
                  int similarity, int subpixel) {
  ftflow::bm_match_body<THREADS, PER_TB, TILE>(emu_shared::buffer.data(), i0, i1, w, h, cu, cv,
                                               cnbx, cnby, cw, ch, bu, bv, block, radius,
                                               similarity, subpixel);
}

/// bm_cuda's launch sequence (bm_cuda_solver.cpp) on the emulator.
template <int THREADS, int PER_TB, int TILE>
FlowField emulated_bm(const FramePair& f, const BmParams& p) {
  std::vector<int> ws, hs;
  const auto p0 = emulated_pyramid(f.i0, p.levels, ws, hs);
  const auto p1 = emulated_pyramid(f.i1, p.levels, ws, hs);
  std::vector<std::vector<float>> bu(std::size_t(p.levels)), bv(bu.size());
  std::vector<int> nbx(bu.size()), nby(bu.size());
  emu_shared::buffer.assign(std::size_t(bm_shared_floats(p.block, p.radius, PER_TB, TILE)), 0.f);
  for (int l = p.levels - 1; l >= 0; --l) {
    const std::size_t L = std::size_t(l);
    nbx[L] = ftflow::bm_blocks(ws[L], p.block);
    nby[L] = ftflow::bm_blocks(hs[L], p.block);
    bu[L].assign(std::size_t(nbx[L]) * std::size_t(nby[L]), 0.f);
    bv[L] = bu[L];
    const bool coarsest = l == p.levels - 1;
    ft_emulation::launch(
        &emu_bm_level<THREADS, PER_TB, TILE>, blocks_for((long long)nbx[L] * nby[L], PER_TB), 1,
        THREADS * PER_TB, 1, p0[L].data(), p1[L].data(), ws[L], hs[L],
        coarsest ? nullptr : bu[L + 1].data(), coarsest ? nullptr : bv[L + 1].data(),
        coarsest ? 0 : nbx[L + 1], coarsest ? 0 : nby[L + 1], coarsest ? 0 : ws[L + 1],
        coarsest ? 0 : hs[L + 1], bu[L].data(), bv[L].data(), p.block, p.radius, p.similarity,
        p.subpixel);
  }
  FlowField out(f.i0.width, f.i0.height);
  ft_emulation::launch(&bm_densify, blocks_for((long long)out.size(), 256), 1, 256, 1, bu[0].data(),
                       bv[0].data(), nbx[0], nby[0], p.block, out.width, out.height, out.u.data(),
                       out.v.data());
  return out;
}

template <int BX, int BY, int FUSED, int TILE, class T>
void emu_lk_level(const T* i0, const T* i1, const T* ix, const T* iy, int w, int h, const float* cu,
                  const float* cv, int cw, int ch, float* u, float* v, int r, int iterations,
                  ftflow::LkWeights weights) {
  ftflow::lk_level_body<BX, BY, FUSED, TILE, T>(emu_shared::buffer.data(), i0, i1, ix, iy, w, h, cu,
                                                cv, cw, ch, u, v, r, iterations, weights);
}

template <class T>
void emu_lk_gradients(const T* i0, int w, int h, T* ix, T* iy) {
  ftflow::lk_gradients_body<T>(i0, w, h, ix, iy);
}

/// The level's float plane as T: lk_to_half for binary16, a copy for float.
template <class T>
std::vector<T> emulated_storage(const std::vector<float>& plane) {
  std::vector<T> out(plane.size());
  if constexpr (std::is_same<T, float>::value) {
    out = plane;
  } else {
    ft_emulation::launch(&lk_to_half, blocks_for((long long)plane.size(), 256), 1, 256, 1,
                         plane.data(), (long long)plane.size(), out.data());
  }
  return out;
}

/// lk_cuda's launch sequence (lk_cuda_solver.cpp) on the emulator; T = unsigned short is
/// precision f16.
template <int BX, int BY, int FUSED, int TILE, class T = float>
FlowField emulated_lk(const FramePair& f, const LkParams& p) {
  std::vector<int> ws, hs;
  const auto p0 = emulated_pyramid(f.i0, p.levels, ws, hs);
  const auto p1 = emulated_pyramid(f.i1, p.levels, ws, hs);
  ftflow::LkWeights weights{};
  const std::vector<float> taps = lk_window_taps(p);
  for (std::size_t i = 0; i < taps.size(); ++i) weights.g[i] = taps[i];
  const int r = p.window / 2, halo = r + FUSED;
  // Room for the tile in floats (T may be 2 bytes: then the body uses half of it).
  emu_shared::buffer.assign(std::size_t((FUSED ? 1 : 3) * (BX + 2 * halo) * (BY + 2 * halo)), 0.f);
  std::vector<std::vector<float>> u(std::size_t(p.levels)), v(u.size());
  for (int l = p.levels - 1; l >= 0; --l) {
    const std::size_t L = std::size_t(l);
    const int w = ws[L], h = hs[L];
    const std::vector<T> a = emulated_storage<T>(p0[L]), b = emulated_storage<T>(p1[L]);
    std::vector<T> ix(a.size()), iy(a.size());
    if (!FUSED)
      ft_emulation::launch(&emu_lk_gradients<T>, blocks_for((long long)w * h, 256), 1, 256, 1,
                           a.data(), w, h, ix.data(), iy.data());
    u[L].assign(a.size(), 0.f);
    v[L].assign(a.size(), 0.f);
    const bool coarsest = l == p.levels - 1;
    ft_emulation::launch(&emu_lk_level<BX, BY, FUSED, TILE, T>, blocks_for(w, BX),
                         blocks_for(h, BY), BX, BY, a.data(), b.data(), ix.data(), iy.data(), w, h,
                         coarsest ? nullptr : u[L + 1].data(), coarsest ? nullptr : v[L + 1].data(),
                         coarsest ? 0 : ws[L + 1], coarsest ? 0 : hs[L + 1], u[L].data(),
                         v[L].data(), r, p.iterations, weights);
  }
  FlowField out(f.i0.width, f.i0.height);
  out.u = u[0];
  out.v = v[0];
  return out;
}

template <int BX, int BY, int SHARED, int CHUNK>
void emu_feat_dense(int method, const ftflow::Feature* fs, int n, const float* fu, const float* fv,
                    int nu, int nv, float u0, float v0, float step, const float* i0,
                    const float* i1, int w, int h, float inv2ss, float inv2sc, float cutoff,
                    int tested, float threshold, float* scores, float* u, float* v,
                    unsigned char* unclassified) {
  ftflow::feat_dense_body<BX, BY, SHARED, CHUNK>(
      emu_shared::buffer.data(), method, fs, n, fu, fv, nu, nv, u0, v0, step, i0, i1, w, h, inv2ss,
      inv2sc, cutoff, tested, threshold, scores, u, v, unclassified);
}

/// feat_cuda's sequence (feat_cuda_solver.cpp): host tracking, one emulated feat_dense.
template <int BX, int BY, int SHARED, int CHUNK>
FeatureFlow emulated_feat(const FramePair& f, const FeatParams& p) {
  const std::vector<ftflow::Feature> fs =
      track_corners(f.i0, f.i1, shi_tomasi_corners(f.i0, p.features));
  const HypothesisSpace hs = p.method == 2 ? hypothesis_space(fs, p) : HypothesisSpace{};
  const int w = f.i0.width, h = f.i0.height;
  std::vector<float> scores(std::size_t(w) * std::size_t(h) * std::size_t(hs.nu * hs.nv));
  FeatureFlow out{FlowField(w, h), 0, fs.size()};
  std::vector<unsigned char> flags(f.i0.size());
  emu_shared::buffer.assign(std::size_t(CHUNK) * 5, 0.f);
  ft_emulation::launch(&emu_feat_dense<BX, BY, SHARED, CHUNK>, blocks_for(w, BX), blocks_for(h, BY),
                       BX, BY, p.method, fs.data(), int(fs.size()), hs.fu.data(), hs.fv.data(),
                       hs.nu, hs.nv, hs.u0, hs.v0, hs.step, f.i0.data.data(), f.i1.data.data(), w,
                       h, float(1 / (2 * p.sigma_space * p.sigma_space)),
                       float(1 / (2 * p.sigma_color * p.sigma_color)), kVoteCutoff, p.hypotheses,
                       float(p.change_threshold), scores.data(), out.flow.u.data(),
                       out.flow.v.data(), flags.data());
  for (unsigned char c : flags) out.unclassified += c;
  return out;
}

/// A 61 x 45 crop of RubberWhale (odd sides: partial blocks and clamped pyramid edges).
FramePair crop_pair() {
  return test::load_pair(test::repo_middlebury_dir(), "RubberWhale", 300, 200, 61, 45);
}

void expect_bitwise_equal(const FlowField& got, const FlowField& want) {
  ASSERT_EQ(got.width, want.width);
  ASSERT_EQ(got.height, want.height);
  std::size_t differing = 0;
  for (std::size_t i = 0; i < want.size(); ++i)
    differing += got.u[i] != want.u[i] || got.v[i] != want.v[i];
  EXPECT_EQ(differing, 0u) << "of " << want.size() << " pixels";
}

TEST(EmulatedBmKernels, EqualTheCpuReferenceForEveryTilingAndSimilarity) {
  const FramePair f = crop_pair();
  for (int similarity : {0, 1, 2}) {
    const BmParams p{3, 8, 3, similarity, 1};
    const FlowField want = block_matching(f.i0, f.i1, p);
    SCOPED_TRACE("similarity " + std::to_string(similarity));
    expect_bitwise_equal(emulated_bm<32, 1, 0>(f, p), want);
    expect_bitwise_equal(emulated_bm<32, 2, 1>(f, p), want);
  }
  const BmParams p{2, 5, 2, 0, 0};  // a block side that leaves partial blocks, integer flow
  const FlowField want = block_matching(f.i0, f.i1, p);
  expect_bitwise_equal(emulated_bm<64, 1, 1>(f, p), want);
  expect_bitwise_equal(emulated_bm<32, 4, 0>(f, p), want);
}

TEST(EmulatedLkKernels, EqualTheCpuReferenceForEveryTilingAndFusion) {
  const FramePair f = crop_pair();
  for (int weighting : {0, 1}) {
    const LkParams p{3, 5, 2, weighting};
    const FlowField want = lucas_kanade(f.i0, f.i1, p);
    SCOPED_TRACE("weighting " + std::to_string(weighting));
    expect_bitwise_equal(emulated_lk<16, 2, 0, 0>(f, p), want);
    expect_bitwise_equal(emulated_lk<16, 2, 1, 0>(f, p), want);
    expect_bitwise_equal(emulated_lk<8, 4, 0, 1>(f, p), want);
    expect_bitwise_equal(emulated_lk<8, 4, 1, 1>(f, p), want);
  }
}

TEST(EmulatedLkKernels, F16StorageEqualsTheCpuReferenceInF16) {
  const FramePair f = crop_pair();
  const LkParams p{3, 5, 2, 1};
  const FlowField want = lucas_kanade(f.i0, f.i1, p, LkStorage::f16);
  using H = unsigned short;
  expect_bitwise_equal(emulated_lk<16, 2, 0, 0, H>(f, p), want);
  expect_bitwise_equal(emulated_lk<16, 2, 1, 0, H>(f, p), want);
  expect_bitwise_equal(emulated_lk<8, 4, 0, 1, H>(f, p), want);
  expect_bitwise_equal(emulated_lk<8, 4, 1, 1, H>(f, p), want);
}

TEST(EmulatedFeatKernels, EqualTheCpuReferenceForBothMethodsAndEveryStaging) {
  const FramePair f = crop_pair();
  for (int method : {1, 2}) {
    FeatParams p;
    p.method = method;
    p.features = 40;
    const FeatureFlow want = feature_flow(f.i0, f.i1, p);
    ASSERT_GT(want.n_features, 5u);
    SCOPED_TRACE("method " + std::to_string(method));
    for (const FeatureFlow& got :
         {emulated_feat<16, 2, 0, 32>(f, p), emulated_feat<16, 2, 1, 32>(f, p),
          emulated_feat<8, 4, 1, 7>(f, p)}) {
      expect_bitwise_equal(got.flow, want.flow);
      EXPECT_EQ(got.unclassified, want.unclassified);
    }
  }
}

}  // namespace
}  // namespace flowtune::localflow
