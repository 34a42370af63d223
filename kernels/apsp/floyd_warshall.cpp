#include "kernels/apsp/floyd_warshall.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "kernels/cancellation.hpp"

namespace flowtune::apsp {
namespace {

/// A range [begin, end) of node indices: one block row or column.
struct Range {
  int begin, end;
};

/// d(i,j) = min(d(i,j), d(i,k) + d(k,j)) for k in ks (outer), i in is, j in js, in place.
/// Correct for any overlap of the three ranges, since d(k,k) = 0 makes row k and column k
/// fixed points of step k (the ordinary Floyd-Warshall argument).
void relax(DistMatrix& m, Range is, Range js, Range ks) {
  const std::size_t n = std::size_t(m.n);
  Dist* d = m.d.data();
  for (int k = ks.begin; k < ks.end; ++k) {
    throw_if_cancelled();
    const Dist* row_k = d + std::size_t(k) * n;
    for (int i = is.begin; i < is.end; ++i) {
      Dist* row_i = d + std::size_t(i) * n;
      const Dist d_ik = row_i[k];
      if (d_ik == kInf) continue;
      for (int j = js.begin; j < js.end; ++j) row_i[j] = std::min(row_i[j], d_ik + row_k[j]);
    }
  }
}

}  // namespace

DistMatrix floyd_warshall(const DistMatrix& w) {
  check_weights(w, "floyd_warshall");
  DistMatrix d = w;
  const Range all{0, d.n};
  relax(d, all, all, all);
  return d;
}

DistMatrix floyd_warshall_blocked(const DistMatrix& w, int tile) {
  if (tile < 1)
    throw std::invalid_argument("floyd_warshall_blocked: tile " + std::to_string(tile) + " < 1");
  check_weights(w, "floyd_warshall_blocked");
  DistMatrix d = w;
  const int n = d.n, blocks = (n + tile - 1) / tile;
  auto block = [&](int b) { return Range{b * tile, std::min(n, (b + 1) * tile)}; };
  for (int kb = 0; kb < blocks; ++kb) {
    const Range k = block(kb);
    relax(d, k, k, k);                  // stage 1: the primary block
    for (int b = 0; b < blocks; ++b) {  // stage 2: row kb and column kb
      if (b == kb) continue;
      relax(d, k, block(b), k);
      relax(d, block(b), k, k);
    }
    for (int bi = 0; bi < blocks; ++bi) {  // stage 3: the others
      if (bi == kb) continue;
      for (int bj = 0; bj < blocks; ++bj)
        if (bj != kb) relax(d, block(bi), block(bj), k);
    }
  }
  return d;
}

}  // namespace flowtune::apsp
